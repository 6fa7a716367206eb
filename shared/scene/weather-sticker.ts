/**
 * The weather sticker (docs/weather.md "The weather sticker"): a `weather` dynamic sticker shows
 * the weather now at the recipient's place (its parameter's value, a city, a postcode or
 * `lat,lon`; else its fallback place; else, when the sticker allows it, the reader's place from
 * the CDN) as an icon, the temperature and, optionally, the place's name. Pure and shared: the
 * render and the editor draw the same icon image (`weatherIconSvg`) and text layers
 * (`weatherLayers`, drawn with shared/scene/draw.ts `fitTextLayer`);
 * test/unit/weather-sticker.test.ts.
 *
 * Units: geometry in canvas px, font sizes in px at the intrinsic size ({@link WEATHER_SIZE}),
 * temperatures in °C as the provider gives them, shown in the sticker's unit.
 */
import { z } from 'zod';
import type { ResolvedTextLayer } from './resolve.ts';
import { WEATHER_SKIES, type WeatherReport, type WeatherSky } from './rules.ts';
import {
  layerBox,
  stickerTextLayer,
  svgAttr,
  svgNumber,
  type LayerBox,
  type StickerGeometry,
} from './sticker-layers.ts';
import { WEATHER_ICON_PATHS } from './weather-icons.ts';

/** A weather sticker's intrinsic box, px. */
export const WEATHER_SIZE = { width: 400, height: 200 } as const;

/**
 * The settings of a weather sticker:
 * - `use_viewer_place`: without a place in the URL or the fallback, the reader's place from the
 *   CDN (the answer is then the reader's own and never shared by the CDN);
 * - `unit` `c` (°C), `f` (°F) or `auto` (by the reader's country, {@link unitForCountry});
 * - `show_place`: the place's name under the temperature when the provider names it;
 * - `fallback_text`: what shows when no weather is known (the place is unknown, the provider is
 *   down): empty draws nothing;
 * - style: `fill` (text), `icon_fill`, `panel_fill` (`transparent`: none), `font_family`,
 *   `font_size` (the temperature's, px at 400x200).
 */
export const WeatherStickerSchema = z.object({
  use_viewer_place: z.boolean().default(false),
  unit: z.enum(['c', 'f', 'auto'], { error: 'The unit must be c, f or auto.' }).default('c'),
  show_place: z.boolean().default(true),
  fallback_text: z
    .string()
    .max(60, 'The fallback text may have at most 60 characters.')
    .default(''),
  fill: z.string().min(1).max(40).default('#1f2430'),
  icon_fill: z.string().min(1).max(40).default('#f5a524'),
  panel_fill: z.string().min(1).max(40).default('#ffffffe6'),
  font_family: z.string().min(1).max(100).default('Roboto'),
  font_size: z.number().min(8).max(200).default(64),
});
export type WeatherSticker = z.output<typeof WeatherStickerSchema>;

/**
 * The render's own value of a weather sticker's report, by sticker uuid (NUL-named, so no URL
 * parameter can set it): `{sky}|{°C, one decimal}|{place}`, or `none` when no weather is known.
 * It is part of the render cache key: every recipient with the same weather shares one image.
 */
export const weatherValueName = (uuid: string): string => `\u0000weather:${uuid}`;

/**
 * The countries whose readers see °F (ISO 3166-1 alpha-2; docs/weather.md "The weather
 * sticker"): the United States and its territories (Puerto Rico, Guam, the US Virgin Islands,
 * the Northern Mariana Islands, American Samoa, the Minor Outlying Islands), the countries in free
 * association that use its measures (Palau, Micronesia, the Marshall Islands), the Bahamas, Belize,
 * the Cayman Islands, Liberia and Myanmar.
 */
const FAHRENHEIT_COUNTRIES: ReadonlySet<string> = new Set([
  'US',
  'PR',
  'GU',
  'VI',
  'MP',
  'AS',
  'UM',
  'PW',
  'FM',
  'MH',
  'BS',
  'BZ',
  'KY',
  'LR',
  'MM',
]);

/**
 * The unit for a reader in `country` (ISO 3166-1 alpha-2, any case, e.g. the CDN's
 * `CloudFront-Viewer-Country`): `f` for {@link FAHRENHEIT_COUNTRIES}, `c` elsewhere and when
 * the country is unknown.
 */
export function unitForCountry(country: string | undefined): 'c' | 'f' {
  return FAHRENHEIT_COUNTRIES.has((country ?? '').trim().toUpperCase()) ? 'f' : 'c';
}

/**
 * A report as the render passes it (see {@link weatherValueName}); null → `none`. `unit`: the
 * unit an `auto` sticker resolved to for this reader, appended as a fourth field.
 */
export function formatWeatherValue(report: WeatherReport | null, unit?: 'c' | 'f'): string {
  if (!report) return 'none';
  const place = (report.place ?? '').replace(/\|/g, ' ').slice(0, 100);
  const value = `${report.sky}|${Math.round(report.temperatureC * 10) / 10}|${place}`;
  return unit ? `${value}|${unit}` : value;
}

/** The unit an `auto` sticker's value carries ({@link formatWeatherValue}); `c` without one. */
function weatherValueUnit(value: string | undefined): 'c' | 'f' {
  return value !== undefined && value.length <= 200 && value.endsWith('|f') ? 'f' : 'c';
}

/** The report of {@link formatWeatherValue}, or null for `none`, absent or malformed values. */
export function parseWeatherValue(value: string | undefined): WeatherReport | null {
  if (value === undefined || value === 'none' || value.length > 200) return null;
  const [sky, temperature, place] = value.split('|');
  const temperatureC = Number(temperature);
  if (!(WEATHER_SKIES as readonly string[]).includes(sky ?? '') || !Number.isFinite(temperatureC))
    return null;
  return { sky: sky as WeatherSky, temperatureC, ...(place ? { place } : {}) };
}

/**
 * The temperature as shown: whole degrees in the sticker's unit, e.g. `21°C`, `-3°F` (`auto`
 * unresolved, as in the editor's sample: °C).
 */
export function temperatureText(temperatureC: number, unit: WeatherSticker['unit']): string {
  const degrees = unit === 'f' ? (temperatureC * 9) / 5 + 32 : temperatureC;
  const whole = Math.round(degrees);
  return `${Object.is(whole, -0) ? 0 : whole}°${unit === 'f' ? 'F' : 'C'}`;
}

/** A weather sticker's drawn box, canvas px, and its scale (intrinsic px → canvas px). */
export type WeatherBox = LayerBox;

/**
 * What a weather sticker draws: the panel and icon as one SVG the box's size ('' when nothing is
 * drawn) and the text layers.
 */
export interface WeatherDrawing {
  box: WeatherBox;
  svg: string;
  texts: ResolvedTextLayer[];
}

/**
 * The sticker's drawing for `report` (null: the fallback text alone, or nothing): a panel and
 * the sky's icon on the left as one SVG, the temperature and the place's name on the right.
 */
export function weatherLayers(
  settings: WeatherSticker,
  box: WeatherBox,
  report: WeatherReport | null,
): WeatherDrawing {
  const s = box.scale;
  const pad = 12 * s;
  const r = svgNumber;
  const panel =
    settings.panel_fill === 'transparent'
      ? ''
      : `<rect width="${r(box.width)}" height="${r(box.height)}" rx="${r(16 * s)}" fill="${svgAttr(settings.panel_fill)}"/>`;
  const text = (
    id: string,
    value: string,
    left: number,
    top: number,
    width: number,
    fontSize: number,
    fontWeight: 'normal' | 'bold',
  ): ResolvedTextLayer =>
    stickerTextLayer(
      box,
      { fontFamily: settings.font_family, fill: settings.fill },
      {
        id,
        text: value,
        left,
        top,
        width,
        fontSize,
        fontWeight,
        textAlign: report ? 'left' : 'center',
        minScale: 0.5,
      },
    );
  const svgOf = (inner: string) =>
    `<svg xmlns="http://www.w3.org/2000/svg" width="${r(box.width)}" height="${r(box.height)}" viewBox="0 0 ${r(box.width)} ${r(box.height)}">${panel}${inner}</svg>`;
  if (!report) {
    const size = Math.min(settings.font_size * 0.5 * s, box.height / 3);
    const texts =
      settings.fallback_text.trim() === ''
        ? []
        : [
            text(
              'fallback',
              settings.fallback_text,
              box.left + pad,
              box.top + (box.height - size * 1.2) / 2,
              box.width - 2 * pad,
              size,
              'bold',
            ),
          ];
    // Nothing known and no fallback text: nothing at all, not even the panel.
    return { box, svg: texts.length === 0 ? '' : svgOf(''), texts };
  }
  const icon = Math.max(1, Math.min(box.height - 2 * pad, box.width * 0.45));
  const iconScale = icon / 256;
  const iconSvg = `<g transform="translate(${r(pad)} ${r((box.height - icon) / 2)}) scale(${r(iconScale * 1000) / 1000})"><path d="${WEATHER_ICON_PATHS[report.sky]}" fill="${svgAttr(settings.icon_fill)}"/></g>`;
  const textLeft = box.left + pad + icon + pad;
  const textWidth = box.left + box.width - pad - textLeft;
  const size = settings.font_size * s;
  const placeSize = size * 0.36;
  const place = settings.show_place && report.place ? report.place : '';
  const blockHeight = size * 1.16 + (place ? placeSize * 1.3 : 0);
  const top = box.top + (box.height - blockHeight) / 2;
  const texts = [
    text(
      't',
      temperatureText(report.temperatureC, settings.unit),
      textLeft,
      top,
      textWidth,
      size,
      'bold',
    ),
  ];
  if (place)
    texts.push(text('p', place, textLeft, top + size * 1.16, textWidth, placeSize, 'normal'));
  return { box, svg: svgOf(iconSvg), texts };
}

/** A weather sticker's geometry and settings (shared/design.ts `Sticker`). */
export interface WeatherStickerLike extends StickerGeometry {
  weather: WeatherSticker | null;
}

/**
 * What a weather sticker draws for the render's values ({@link weatherValueName}); undefined
 * for a sticker without weather settings.
 */
export function weatherStickerDrawing(
  sticker: WeatherStickerLike,
  values: Readonly<Record<string, string>>,
): WeatherDrawing | undefined {
  if (!sticker.weather) return undefined;
  const box = layerBox(sticker, WEATHER_SIZE);
  const value = values[weatherValueName(sticker.uuid)];
  const settings =
    sticker.weather.unit === 'auto'
      ? { ...sticker.weather, unit: weatherValueUnit(value) }
      : sticker.weather;
  return weatherLayers(settings, box, parseWeatherValue(value));
}
