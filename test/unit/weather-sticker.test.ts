/**
 * The weather sticker's shared rules (shared/scene/weather-sticker.ts; docs/weather.md "The
 * weather sticker"): the render's own value, the temperature in the sticker's unit, and the
 * layout the render and the editor draw.
 */
import { describe, expect, it } from 'vitest';
import {
  WeatherStickerSchema,
  formatWeatherValue,
  parseWeatherValue,
  temperatureText,
  unitForCountry,
  weatherLayers,
  weatherStickerDrawing,
  weatherValueName,
} from '#shared/scene/weather-sticker.ts';
import { WEATHER_ICON_PATHS } from '#shared/scene/weather-icons.ts';
import { WEATHER_SKIES } from '#shared/scene/rules.ts';

const settings = WeatherStickerSchema.parse({});
const box = { id: 'w', left: 10, top: 20, width: 400, height: 200, scale: 1 };

describe('the weather value', () => {
  it('round-trips a report, and reads anything else as no weather', () => {
    const report = { sky: 'rain' as const, temperatureC: 11.44, place: 'Paris|X' };
    expect(formatWeatherValue(report)).toBe('rain|11.4|Paris X');
    expect(parseWeatherValue('rain|11.4|Paris X')).toEqual({
      sky: 'rain',
      temperatureC: 11.4,
      place: 'Paris X',
    });
    expect(parseWeatherValue('clear|24.1|')).toEqual({ sky: 'clear', temperatureC: 24.1 });
    for (const odd of [undefined, 'none', 'hail|3|', 'rain|warm|', 'x'.repeat(201)])
      expect(parseWeatherValue(odd)).toBeNull();
    expect(formatWeatherValue(null)).toBe('none');
    expect(weatherValueName('a').startsWith('\u0000')).toBe(true);
  });

  it('shows whole degrees in the sticker’s unit', () => {
    expect(temperatureText(11.4, 'c')).toBe('11°C');
    expect(temperatureText(-3.2, 'f')).toBe('26°F');
    expect(temperatureText(-0.4, 'c')).toBe('0°C');
    expect(temperatureText(37, 'f')).toBe('99°F');
  });
});

describe('units by the reader’s country', () => {
  it('are °F in the United States, its territories, Liberia and Myanmar, °C elsewhere', () => {
    for (const c of ['US', 'us', 'PR', 'GU', 'VI', 'LR', 'MM', ' US '])
      expect(unitForCountry(c)).toBe('f');
    for (const c of ['GB', 'FR', 'CA', 'DE', '', undefined, 'USA'])
      expect(unitForCountry(c)).toBe('c');
  });

  it('draw an auto sticker in the unit its value carries, and an old design as before', () => {
    const report = { sky: 'snow' as const, temperatureC: -3.2 };
    const sticker = (unit: string) => ({
      uuid: 'w',
      left: 0,
      top: 0,
      width: 400,
      height: 200,
      scaleX: 1,
      scaleY: 1,
      weather: WeatherStickerSchema.parse({ unit }),
    });
    const drawn = (unit: string, value: string) =>
      weatherStickerDrawing(sticker(unit), { [weatherValueName('w')]: value })!.texts.find((t) =>
        t.id.endsWith(':t'),
      )!.text;
    expect(formatWeatherValue(report, 'f')).toBe('snow|-3.2||f');
    expect(parseWeatherValue('snow|-3.2||f')).toEqual(report);
    expect(drawn('auto', formatWeatherValue(report, 'f'))).toBe('26°F');
    expect(drawn('auto', formatWeatherValue(report, 'c'))).toBe('-3°C');
    expect(drawn('auto', formatWeatherValue(report))).toBe('-3°C');
    expect(drawn('c', formatWeatherValue(report, 'f'))).toBe('-3°C');
    expect(WeatherStickerSchema.parse({}).unit).toBe('c');
  });
});

describe('the weather sticker’s layout', () => {
  it('has an icon for every sky', () => {
    for (const sky of WEATHER_SKIES) expect(WEATHER_ICON_PATHS[sky]).toMatch(/^M[\w.,\s-]+Z$/);
  });

  it('draws the icon left and the temperature and place right, inside the box', () => {
    const drawing = weatherLayers(settings, box, {
      sky: 'snow',
      temperatureC: -3.2,
      place: 'Oslo',
    });
    expect(drawing.svg).toContain(WEATHER_ICON_PATHS.snow);
    expect(drawing.texts.map((t) => [t.id, t.text])).toEqual([
      ['w:t', '-3°C'],
      ['w:p', 'Oslo'],
    ]);
    for (const t of drawing.texts) {
      expect(t.left).toBeGreaterThan(box.left + box.width * 0.4);
      expect(t.left + t.width).toBeLessThanOrEqual(box.left + box.width);
      expect(t.top).toBeGreaterThanOrEqual(box.top);
    }
    const quiet = weatherLayers({ ...settings, show_place: false }, box, {
      sky: 'clear',
      temperatureC: 20,
      place: 'Madrid',
    });
    expect(quiet.texts.map((t) => t.text)).toEqual(['20°C']);
  });

  it('draws the fallback text without weather, and nothing at all without one', () => {
    const fallback = weatherLayers({ ...settings, fallback_text: 'Hello' }, box, null);
    expect(fallback.texts.map((t) => t.text)).toEqual(['Hello']);
    expect(fallback.svg).not.toContain('<path');
    expect(weatherLayers(settings, box, null)).toEqual({ box, svg: '', texts: [] });
  });

  it('reads the render’s value for the sticker and scales with it', () => {
    const sticker = {
      uuid: 'w',
      left: 0,
      top: 0,
      width: 400,
      height: 200,
      scaleX: 0.5,
      scaleY: 0.5,
    };
    const values = { [weatherValueName('w')]: 'clear|24.1|Madrid' };
    const half = weatherStickerDrawing({ ...sticker, weather: settings }, values)!;
    expect(half.box).toMatchObject({ width: 200, height: 100, scale: 0.5 });
    expect(half.texts[0]).toMatchObject({ text: '24°C', fontSize: settings.font_size * 0.5 });
    expect(weatherStickerDrawing({ ...sticker, weather: null }, values)).toBeUndefined();
  });
});
