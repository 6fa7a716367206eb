/**
 * Pure weather-sticker logic of the editor (docs/editor.md "Weather"): checking a change of a
 * weather sticker's settings against the shared schema (shared/scene/weather-sticker.ts
 * `WeatherStickerSchema`, the API's own), and what the canvas draws for it: the render's layout
 * (`weatherLayers`) with a sample report, as the poll is previewed with sample results. No
 * fabric, no DOM; test/unit/editor-weather.test.ts. The panel can show the canvas with no weather
 * known (the fallback text) instead of the sample: a view choice of the store's ui slice.
 *
 * Units: canvas px; temperatures in °C.
 */
import type { DesignDocument, Sticker } from '#shared/design.ts';
import type { WeatherPreview } from '../store/uiSlice.ts';
import type { ResolvedTextLayer } from '#shared/scene/resolve.ts';
import type { WeatherReport } from '#shared/scene/rules.ts';
import { layerBox } from '#shared/scene/sticker-layers.ts';
import { svgDataUrl } from '#shared/scene/poll.ts';
import {
  WEATHER_SIZE,
  WeatherStickerSchema,
  weatherLayers,
  type WeatherDrawing,
  type WeatherSticker,
} from '#shared/scene/weather-sticker.ts';
import { patchedSettings } from './patchedSettings.ts';

/** A change of a weather sticker's settings: any of its fields. */
export type WeatherPatch = Partial<WeatherSticker>;

/** A new weather sticker's settings: the schema's defaults (°C, the place shown, no fallback text). */
export const newWeather = (): WeatherSticker => WeatherStickerSchema.parse({});

/**
 * The settings after `patch`, or the problems with them by field (`fallback_text`, `unit`, …):
 * the shared schema's checks and messages, so the editor refuses what the API would.
 */
export function patchedWeather(
  current: WeatherSticker,
  patch: WeatherPatch,
): { ok: true; weather: WeatherSticker } | { ok: false; errors: Record<string, string> } {
  const next = patchedSettings(WeatherStickerSchema, current, patch);
  return next.ok ? { ok: true, weather: next.value } : next;
}

/** The sample weather the editor draws: clear, 24 °C. */
export const SAMPLE_WEATHER = { sky: 'clear', temperatureC: 24 } as const;

/** A place written as `lat,lon` (docs/weather.md "Conditions"): drawn by the render as its name. */
const LAT_LON = /^\s*-?\d{1,3}(?:\.\d{1,12})?\s*,\s*-?\d{1,3}(?:\.\d{1,12})?\s*$/;

/**
 * The report the editor previews a weather sticker with: {@link SAMPLE_WEATHER} at the
 * sticker's fallback place when it is a name (as a recipient without a place would see it),
 * else at the parameter's name, as a text parameter without a fallback shows its name
 * (docs/editor.md "Editing rules").
 */
export function sampleWeatherReport(
  sticker: Pick<Sticker, 'dynamicStickerUrl' | 'dynamicStickerParamName'>,
): WeatherReport {
  const fallback = sticker.dynamicStickerUrl.trim().slice(0, 100);
  const place =
    fallback !== '' && !LAT_LON.test(fallback)
      ? fallback
      : (sticker.dynamicStickerParamName ?? 'Place');
  return { ...SAMPLE_WEATHER, place };
}

/**
 * What the editor draws for a weather sticker, canvas px: the render's layout with the sample
 * report, or with no weather known (`unknown`: its fallback text, or nothing).
 */
const weatherPreview = (
  sticker: Sticker & { weather: WeatherSticker },
  preview: WeatherPreview,
): WeatherDrawing =>
  weatherLayers(
    sticker.weather,
    layerBox(sticker, WEATHER_SIZE),
    preview === 'sample' ? sampleWeatherReport(sticker) : null,
  );

/**
 * The weather sticker's own image: its panel and the sample sky's icon (`unknown`: its panel
 * alone; '' when nothing is drawn) laid out in its intrinsic 400x200 box at scale 1, an SVG data
 * URL the canvas scales with the sticker (the layout is proportional to the scale, so it falls
 * where the render draws it at any size).
 */
export function weatherImage(weather: WeatherSticker, preview: WeatherPreview = 'sample'): string {
  const box = { id: 'weather', left: 0, top: 0, ...WEATHER_SIZE, scale: 1 };
  const svg = weatherLayers(weather, box, preview === 'sample' ? { ...SAMPLE_WEATHER } : null).svg;
  return svg === '' ? '' : svgDataUrl(svg);
}

/** The text layers of the design's weather stickers, drawn over every object, canvas px. */
export function weatherTextLayers(
  design: DesignDocument,
  preview: WeatherPreview = 'sample',
): ResolvedTextLayer[] {
  return design.graphics_data.flatMap((s) =>
    s.dynamicStickerType === 'weather' && s.weather
      ? weatherPreview({ ...s, weather: s.weather }, preview).texts
      : [],
  );
}
