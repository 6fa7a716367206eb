/**
 * The editor's weather sticker (docs/editor.md "Weather"): a new sticker's box and settings,
 * changes checked by the shared schema with its messages and undone one by one, and the preview
 * drawn from the render's layout (`weatherLayers`) with the sample report at the fallback place,
 * its image laid out where the render draws it at any scale.
 */
import { describe, expect, it } from 'vitest';
import type { Sticker } from '#shared/design.ts';
import { layerBox } from '#shared/scene/sticker-layers.ts';
import {
  WEATHER_SIZE,
  weatherLayers,
  weatherStickerDrawing,
  weatherValueName,
  type WeatherSticker,
} from '#shared/scene/weather-sticker.ts';
import { runCommand } from '../../web/src/features/editor/commands.ts';
import { WeatherError } from '../../web/src/features/editor/commands/stickers.ts';
import {
  sampleWeatherReport,
  weatherTextLayers,
} from '../../web/src/features/editor/document/weather.ts';
import { editorScene } from '../../web/src/features/editor/document/preview.ts';
import { openEditor } from '../support/editor.ts';

type WeatherStickerDoc = Sticker & { weather: WeatherSticker };

function withWeather() {
  const editor = openEditor();
  runCommand(editor.store, 'addSticker', {
    source: { kind: 'dynamic', dynamicType: 'weather' },
  });
  return editor;
}

const current = (store: ReturnType<typeof openEditor>['store']) =>
  store
    .getState()
    .design!.graphics_data.find((s) => s.dynamicStickerType === 'weather') as WeatherStickerDoc;

describe('a new weather sticker', () => {
  it('is a 400x200 box at scale 1 with the schema defaults, its parameter weather1, selected', () => {
    const { store } = withWeather();
    const sticker = current(store);
    expect(sticker).toMatchObject({
      stickerType: 'dynamicSticker',
      width: 400,
      height: 200,
      scaleX: 1,
      dynamicStickerParamName: 'weather1',
    });
    expect(sticker.weather).toMatchObject({
      unit: 'c',
      show_place: true,
      use_viewer_place: false,
      fallback_text: '',
    });
    expect(sticker.dynamicStickerNewUrl).toMatch(/^data:image\/svg\+xml,/);
    expect(store.getState().selection).toEqual({ kind: 'sticker', id: sticker.uuid });
  });
});

describe('weather changes', () => {
  it('are one undo step a field; a refused one changes nothing and says why', () => {
    const { store } = withWeather();
    const id = current(store).uuid;
    runCommand(store, 'setWeather', { id, patch: { unit: 'f' } });
    runCommand(store, 'setWeather', { id, patch: { use_viewer_place: true } });
    expect(current(store).weather).toMatchObject({ unit: 'f', use_viewer_place: true });
    let refused: WeatherError | undefined;
    try {
      runCommand(store, 'setWeather', { id, patch: { fallback_text: 'x'.repeat(61) } });
    } catch (e) {
      refused = e as WeatherError;
    }
    expect(refused).toBeInstanceOf(WeatherError);
    expect(refused!.errors.fallback_text).toBe('The fallback text may have at most 60 characters.');
    expect(current(store).weather.fallback_text).toBe('');
    runCommand(store, 'undo');
    expect(current(store).weather).toMatchObject({ unit: 'f', use_viewer_place: false });
    runCommand(store, 'undo');
    expect(current(store).weather.unit).toBe('c');
  });

  it('redraw the sticker image with the new colours', () => {
    const { store } = withWeather();
    const id = current(store).uuid;
    runCommand(store, 'setWeather', { id, patch: { icon_fill: '#ff0000' } });
    expect(decodeURIComponent(current(store).dynamicStickerNewUrl ?? '')).toContain('#ff0000');
  });
});

describe('the weather preview', () => {
  it('draws the render layout for the sticker box with the sample at the fallback place', () => {
    const { store } = withWeather();
    const id = current(store).uuid;
    runCommand(store, 'transformSticker', { id, left: 40, top: 30, scale: 0.5, angle: 0 });
    runCommand(store, 'setStickerFallback', { id, value: 'Madrid' });
    runCommand(store, 'setWeather', { id, patch: { unit: 'f' } });
    const sticker = current(store);
    const texts = weatherTextLayers(store.getState().design!);
    // What the render draws for a recipient whose place's weather is clear at 24 °C in Madrid.
    const rendered = weatherStickerDrawing(sticker, {
      [weatherValueName(sticker.uuid)]: 'clear|24|Madrid',
    })!;
    expect(texts).toEqual(rendered.texts);
    expect(texts.map((t) => t.text)).toEqual(['75°F', 'Madrid']);
    expect(texts[0]!.left).toBeGreaterThan(40);
    // The image, laid out at 400x200 and scaled by the canvas, is the render's at the box.
    const atOne = weatherLayers(
      sticker.weather,
      { id: 'w', left: 0, top: 0, ...WEATHER_SIZE, scale: 1 },
      sampleWeatherReport(sticker),
    ).svg;
    expect(decodeURIComponent(sticker.dynamicStickerNewUrl!.split(',')[1]!)).toBe(atOne);
    expect(layerBox(sticker, WEATHER_SIZE)).toMatchObject({ width: 200, height: 100, scale: 0.5 });
  });

  it('names the parameter as the place without a fallback place, or with lat,lon', () => {
    const base = { dynamicStickerParamName: 'weather1' };
    expect(sampleWeatherReport({ ...base, dynamicStickerUrl: '' }).place).toBe('weather1');
    expect(sampleWeatherReport({ ...base, dynamicStickerUrl: '48.85,2.35' }).place).toBe(
      'weather1',
    );
    expect(sampleWeatherReport({ ...base, dynamicStickerUrl: ' Oslo ' }).place).toBe('Oslo');
  });

  it('draws, without weather, what the render draws then: the fallback text on the panel, or a pickable box', () => {
    const { store } = withWeather();
    const id = current(store).uuid;
    /** The SVG of the sticker's image on the canvas (a data URL, base64 or percent-encoded). */
    const imageOf = (preview: 'sample' | 'unknown') => {
      const src = editorScene(store.getState().design!, preview).images.find(
        (i) => i.id === id,
      )!.src;
      const [head, body] = src.split(',') as [string, string];
      return head.endsWith(';base64') ? atob(body) : decodeURIComponent(body);
    };
    // No fallback text: the render draws nothing; the editor a dashed box to pick it by.
    expect(weatherTextLayers(store.getState().design!, 'unknown')).toEqual([]);
    expect(imageOf('unknown')).toContain('stroke-dasharray');
    runCommand(store, 'setWeather', { id, patch: { fallback_text: 'See the forecast' } });
    const sticker = current(store);
    const rendered = weatherStickerDrawing(sticker, { [weatherValueName(sticker.uuid)]: 'none' })!;
    expect(weatherTextLayers(store.getState().design!, 'unknown')).toEqual(rendered.texts);
    expect(rendered.texts.map((t) => t.text)).toEqual(['See the forecast']);
    // The panel alone, no icon; the sample keeps its icon.
    expect(imageOf('unknown')).not.toContain('<path');
    expect(imageOf('unknown')).toContain('<rect');
    expect(imageOf('sample')).toContain('<path');
  });
});
