/**
 * The weather at open time (functions/render/weather.ts; docs/weather.md): WMO codes read as
 * skies, `lat,lon` values, locations rounded to 0.1° for the cache, one provider call per
 * rounded location and place name within their times, a failure kept briefly and then asked
 * again, and the weather condition of the rules (shared/scene/rules.ts) with its scope.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createWeather,
  FAILURE_TTL_MS,
  FORECAST_TTL_MS,
  parseLatLon,
  recordedProvider,
  roundedLocation,
  skyOfCode,
  type WeatherProvider,
} from '#functions/render/weather.ts';
import { rulesScope } from '#functions/render/rule-context.ts';
import {
  conditionHolds,
  RuleConditionSchema,
  RulesSchema,
  weatherPlaces,
  type RuleContext,
} from '#shared/scene/rules.ts';

afterEach(() => {
  vi.useRealTimers();
});

/** A provider that counts its calls: Paris is found; every point is 12 °C and raining. */
function countingProvider(overrides: Partial<WeatherProvider> = {}) {
  const calls = { geocode: 0, current: 0 };
  const provider: WeatherProvider = {
    async geocode(name) {
      calls.geocode++;
      return name.toLowerCase() === 'paris'
        ? { lat: 48.8534, lon: 2.3488, name: 'Paris' }
        : undefined;
    },
    async current() {
      calls.current++;
      return { temperatureC: 12, code: 63 };
    },
    ...overrides,
  };
  return { provider, calls };
}

describe('weather values', () => {
  it('reads WMO codes as skies', () => {
    expect([0, 2, 45, 53, 65, 81, 75, 86, 96].map(skyOfCode)).toEqual([
      'clear',
      'cloudy',
      'fog',
      'drizzle',
      'rain',
      'rain',
      'snow',
      'snow',
      'storm',
    ]);
    expect(skyOfCode(42)).toBeUndefined();
  });

  it('reads lat,lon and refuses what is not a point', () => {
    expect(parseLatLon('48.85, 2.35')).toEqual({ lat: 48.85, lon: 2.35 });
    expect(parseLatLon('-33.9,151.2')).toEqual({ lat: -33.9, lon: 151.2 });
    expect(parseLatLon('91,0')).toBeUndefined();
    expect(parseLatLon('Paris')).toBeUndefined();
    expect(parseLatLon('1,2,3')).toBeUndefined();
  });

  it('rounds locations to 0.1° for the cache', () => {
    expect(roundedLocation({ lat: 48.8534, lon: 2.3488 })).toBe('48.9,2.3');
    expect(roundedLocation({ lat: 48.87, lon: 2.31 })).toBe('48.9,2.3');
    expect(roundedLocation({ lat: -0.04, lon: -0.04 })).toBe('0.0,0.0');
  });
});

describe('createWeather', () => {
  it('asks the provider once per place name and rounded location, then reads the cache', async () => {
    const { provider, calls } = countingProvider();
    const weather = createWeather(() => provider);
    const paris = await weather.at('Paris');
    expect(paris).toEqual({
      report: { sky: 'rain', temperatureC: 12, place: 'Paris' },
      failed: false,
    });
    await weather.at('  paris ');
    // A point a few hundred metres away rounds to the same location.
    await weather.at('48.87,2.31');
    await weather.at({ lat: 48.86, lon: 2.34 });
    expect(calls).toEqual({ geocode: 1, current: 1 });
    await Promise.all([weather.at('10,10'), weather.at('10.02,10.01')]);
    expect(calls.current).toBe(2);
  });

  it('asks again once the forecast is 30 minutes old', async () => {
    vi.useFakeTimers();
    const { provider, calls } = countingProvider();
    const weather = createWeather(() => provider);
    await weather.at('1,1');
    vi.advanceTimersByTime(FORECAST_TTL_MS - 1000);
    await weather.at('1,1');
    expect(calls.current).toBe(1);
    vi.advanceTimersByTime(2000);
    await weather.at('1,1');
    expect(calls.current).toBe(2);
  });

  it('says a failed lookup failed, keeps the failure briefly, then asks again', async () => {
    vi.useFakeTimers();
    let down = true;
    const { provider, calls } = countingProvider({
      async current() {
        calls.current++;
        if (down) throw new Error('provider down');
        return { temperatureC: 20, code: 0 };
      },
    });
    const weather = createWeather(() => provider);
    expect(await weather.at('5,5')).toEqual({ report: null, failed: true });
    expect(await weather.at('5,5')).toEqual({ report: null, failed: true });
    expect(calls.current).toBe(1);
    down = false;
    vi.advanceTimersByTime(FAILURE_TTL_MS + 1);
    expect(await weather.at('5,5')).toEqual({
      report: { sky: 'clear', temperatureC: 20 },
      failed: false,
    });
  });

  it('has no weather for an unknown place, an empty value or an overlong one, without failing', async () => {
    const { provider, calls } = countingProvider();
    const weather = createWeather(() => provider);
    expect(await weather.at('Atlantis')).toEqual({ report: null, failed: false });
    expect(await weather.at('   ')).toEqual({ report: null, failed: false });
    expect(await weather.at('x'.repeat(101))).toEqual({ report: null, failed: false });
    expect(calls.geocode).toBe(1);
  });

  it('reads the recorded answers offline', async () => {
    const weather = createWeather(() => recordedProvider);
    expect((await weather.at('Oslo')).report).toEqual({
      sky: 'snow',
      temperatureC: -3.2,
      place: 'Oslo',
    });
    expect((await weather.at('75001')).report?.sky).toBe('rain');
    expect(await weather.at('Nowhere')).toEqual({ report: null, failed: false });
  });
});

describe('the weather condition', () => {
  const context = (weather: RuleContext['weather']): RuleContext => ({
    nowMs: 0,
    values: {},
    bucket: 0,
    weather,
  });
  const rain = RuleConditionSchema.parse({
    kind: 'weather',
    param_name: 'city',
    skies: ['rain', 'drizzle'],
    max_temp_c: 15,
  });

  it('holds for a listed sky within the temperatures, and never for unknown weather', () => {
    expect(conditionHolds(rain, context({ city: { sky: 'rain', temperatureC: 11 } }))).toBe(true);
    expect(conditionHolds(rain, context({ city: { sky: 'rain', temperatureC: 15 } }))).toBe(true);
    expect(conditionHolds(rain, context({ city: { sky: 'rain', temperatureC: 15.5 } }))).toBe(
      false,
    );
    expect(conditionHolds(rain, context({ city: { sky: 'clear', temperatureC: 11 } }))).toBe(false);
    expect(conditionHolds(rain, context({ city: null }))).toBe(false);
    expect(conditionHolds(rain, context(undefined))).toBe(false);
  });

  it('needs a sky or a temperature, and the highest not below the lowest', () => {
    const bad = RuleConditionSchema.safeParse({ kind: 'weather' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe('Choose a sky or a temperature.');
    const upside = RuleConditionSchema.safeParse({
      kind: 'weather',
      min_temp_c: 20,
      max_temp_c: 10,
    });
    expect(upside.error?.issues[0]?.message).toBe(
      'The highest temperature must not be below the lowest.',
    );
  });

  it('makes the answer per viewer at the reader’s place, and a minute’s at a named one', () => {
    const rules = (param_name: string) =>
      RulesSchema.parse([
        { id: 'r', conditions: [{ kind: 'weather', param_name, skies: ['snow'] }] },
      ]);
    expect(rulesScope(rules(''))).toBe('viewer');
    expect(rulesScope(rules('city'))).toBe('moment');
    expect(weatherPlaces(rules('city'))).toEqual(['city']);
  });
});
