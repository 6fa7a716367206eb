/**
 * The weather at open time (docs/weather.md): a recipient's place (a name or postcode looked up,
 * `lat,lon` as given, or the reader's place from the CDN's viewer-location headers) and its
 * current weather, from Open-Meteo (no key) through the SSRF guard with a time and byte budget,
 * or, offline, from recorded answers (weather-recorded.ts). Forecasts are kept per location
 * rounded to 0.1° (about 11 km) for 30 minutes, places per name for a day; a failed lookup is
 * kept 30 seconds, so a provider that is down is not asked again by every open.
 * Tests: test/unit/weather.test.ts, test/integration/weather.test.ts.
 */
import { LRUCache } from 'lru-cache';
import { config } from '#lib/config.ts';
import { logger } from '#lib/logger.ts';
import { UrlRefused, type UrlGuard } from '#lib/ssrf.ts';
import type { WeatherReport, WeatherSky } from '#shared/scene/rules.ts';
import { RECORDED_FORECASTS, RECORDED_PLACES } from './weather-recorded.ts';

/** Open-Meteo's endpoints (docs/weather.md "Provider"). */
export const OPEN_METEO = {
  forecast: 'https://api.open-meteo.com/v1/forecast',
  geocoding: 'https://geocoding-api.open-meteo.com/v1/search',
} as const;

/** How long a forecast is kept per rounded location, ms (docs/weather.md "Caching"). */
export const FORECAST_TTL_MS = 30 * 60_000;
/** How long a place looked up by name is kept, ms. */
export const PLACE_TTL_MS = 24 * 3_600_000;
/** How long a failed lookup is kept, ms: the provider is not asked again meanwhile. */
export const FAILURE_TTL_MS = 30_000;
/** Budget of one provider call, ms, and its largest answer, bytes (docs/weather.md "Budgets"). */
export const WEATHER_FETCH_MS = 1500;
export const WEATHER_MAX_BYTES = 64 * 1024;
/** Longest place name looked up, characters. */
export const MAX_PLACE_LENGTH = 100;
/** Entries kept per cache. */
const MAX_ENTRIES = 5000;

/** A point on the globe, degrees. */
export interface LatLon {
  lat: number;
  lon: number;
}

/** What a place name reads as: a point, and the place's name when the provider named it. */
interface Place extends LatLon {
  name?: string | undefined;
}

/** Where the weather comes from: Open-Meteo through the guard, or the recorded answers. */
export interface WeatherProvider {
  /** The place a name or postcode names, or undefined when none. @throws when the provider fails. */
  geocode(name: string): Promise<Place | undefined>;
  /** The current temperature (°C) and WMO weather code at a point. @throws when it fails. */
  current(at: LatLon): Promise<{ temperatureC: number; code: number }>;
}

/**
 * The sky of a WMO weather code (Open-Meteo's `weather_code`; WMO 4677 as Open-Meteo documents
 * it): 0–1 clear, 2–3 cloudy, 45–48 fog, 51–57 drizzle, 61–67 and 80–82 rain, 71–77 and 85–86
 * snow, 95–99 storm. Any other code: undefined.
 */
export function skyOfCode(code: number): WeatherSky | undefined {
  if (code === 0 || code === 1) return 'clear';
  if (code === 2 || code === 3) return 'cloudy';
  if (code === 45 || code === 48) return 'fog';
  if (code >= 51 && code <= 57) return 'drizzle';
  if ((code >= 61 && code <= 67) || (code >= 80 && code <= 82)) return 'rain';
  if ((code >= 71 && code <= 77) || code === 85 || code === 86) return 'snow';
  if (code >= 95 && code <= 99) return 'storm';
  return undefined;
}

/** `lat,lon` in degrees (`48.85,2.35`, spaces allowed), or undefined when the value is not one. */
export function parseLatLon(value: string): LatLon | undefined {
  const match = /^\s*(-?\d{1,2}(?:\.\d{1,6})?)\s*,\s*(-?\d{1,3}(?:\.\d{1,6})?)\s*$/.exec(value);
  if (!match) return undefined;
  const lat = Number(match[1]);
  const lon = Number(match[2]);
  return Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? { lat, lon } : undefined;
}

/** A point rounded to 0.1° (about 11 km): the key forecasts are kept under. */
export function roundedLocation(at: LatLon): string {
  const round = (n: number) => (Math.round(n * 10) / 10).toFixed(1);
  return `${round(at.lat)},${round(at.lon)}`;
}

/** The name as looked up: spaces made one and trimmed, case folded. */
export const placeKey = (name: string): string => name.replace(/\s+/g, ' ').trim().toLowerCase();

/** A number of a JSON answer, or undefined. */
const numberOf = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** The provider's base URLs: Open-Meteo's, or the test stage's stand-ins (`WEATHER_API_URLS`). */
function endpoints(): { forecast: string; geocoding: string } {
  const given = config().WEATHER_API_URLS;
  if (!given || config().STAGE !== 'test') return OPEN_METEO;
  const pairs = Object.fromEntries(
    given.split(',').map((pair) => pair.split('=').map((s) => s.trim()) as [string, string]),
  );
  return {
    forecast: pairs.forecast ?? OPEN_METEO.forecast,
    geocoding: pairs.geocoding ?? OPEN_METEO.geocoding,
  };
}

/**
 * Open-Meteo through the SSRF guard: each call one GET of JSON within {@link WEATHER_FETCH_MS}
 * and {@link WEATHER_MAX_BYTES}.
 * @throws Error for a refused or failed fetch, a non-200 answer or an answer without the fields.
 */
export function openMeteoProvider(guard: UrlGuard): WeatherProvider {
  async function getJson(url: URL): Promise<Record<string, unknown>> {
    let res;
    try {
      res = await guard.fetch(url.href, {
        timeoutMs: WEATHER_FETCH_MS,
        maxBytes: WEATHER_MAX_BYTES,
        accept: 'application/json',
        allowedContentTypes: /^application\/json$/,
      });
    } catch (error) {
      throw new Error(`weather: ${error instanceof UrlRefused ? error.reason : 'fetch'} failed`, {
        cause: error,
      });
    }
    if (res.status !== 200) throw new Error(`weather: the provider answered ${res.status}`);
    const parsed: unknown = JSON.parse(res.body.toString('utf8'));
    if (!parsed || typeof parsed !== 'object') throw new Error('weather: not a JSON object');
    return parsed as Record<string, unknown>;
  }
  return {
    async geocode(name) {
      const url = new URL(endpoints().geocoding);
      url.searchParams.set('name', name);
      url.searchParams.set('count', '1');
      url.searchParams.set('format', 'json');
      const answer = await getJson(url);
      const first = Array.isArray(answer.results)
        ? (answer.results[0] as Record<string, unknown>)
        : undefined;
      const lat = numberOf(first?.latitude);
      const lon = numberOf(first?.longitude);
      if (lat === undefined || lon === undefined) return undefined;
      return {
        lat,
        lon,
        name: typeof first?.name === 'string' ? first.name.slice(0, MAX_PLACE_LENGTH) : undefined,
      };
    },
    async current(at) {
      const url = new URL(endpoints().forecast);
      url.searchParams.set('latitude', at.lat.toFixed(2));
      url.searchParams.set('longitude', at.lon.toFixed(2));
      url.searchParams.set('current', 'temperature_2m,weather_code');
      url.searchParams.set('timezone', 'UTC');
      const answer = await getJson(url);
      const current = answer.current as Record<string, unknown> | undefined;
      const temperatureC = numberOf(current?.temperature_2m);
      const code = numberOf(current?.weather_code);
      if (temperatureC === undefined || code === undefined)
        throw new Error('weather: the answer has no current temperature or code');
      return { temperatureC, code };
    },
  };
}

/**
 * The recorded answers (weather-recorded.ts): the offline mode of local runs and tests. A place
 * or location without a recording has no weather (undefined, as an unknown place online).
 */
export const recordedProvider: WeatherProvider = {
  async geocode(name) {
    return RECORDED_PLACES[placeKey(name)];
  },
  async current(at) {
    const recorded = RECORDED_FORECASTS[roundedLocation(at)];
    if (!recorded) throw new Error('weather: no recorded answer for this location');
    return recorded;
  },
};

/** The provider the configuration asks for: online in AWS by default, else the recordings. */
export function configuredProvider(guard: () => UrlGuard): WeatherProvider {
  const c = config();
  const mode = c.WEATHER_MODE ?? (c.STAGE === 'aws' ? 'online' : 'offline');
  return mode === 'online' ? openMeteoProvider(guard()) : recordedProvider;
}

type Kept<T> = { value: T } | { failed: true };

/**
 * Weather lookups with their caches: one per process in the render (a fresh one per test).
 * Concurrent lookups of one key share one call.
 */
export function createWeather(provider: () => WeatherProvider) {
  // The clock is `Date.now`, read on every check, so fake timers move it.
  const clock = { perf: { now: () => Date.now() }, ttlResolution: 0 };
  const places = new LRUCache<string, Kept<Place | undefined>>({ max: MAX_ENTRIES, ...clock });
  const forecasts = new LRUCache<string, Kept<{ temperatureC: number; code: number }>>({
    max: MAX_ENTRIES,
    ...clock,
  });
  const pending = new Map<string, Promise<unknown>>();

  async function kept<T>(
    cache: LRUCache<string, Kept<T>>,
    key: string,
    ttlMs: number,
    make: () => Promise<T>,
  ): Promise<T> {
    const hit = cache.get(key);
    if (hit) {
      if ('failed' in hit) throw new Error('weather: failed a moment ago');
      return hit.value;
    }
    const shared = `${ttlMs}:${key}`;
    let call = pending.get(shared) as Promise<T> | undefined;
    if (!call) {
      call = make().then(
        (value) => {
          cache.set(key, { value }, { ttl: ttlMs });
          return value;
        },
        (error: unknown) => {
          cache.set(key, { failed: true }, { ttl: FAILURE_TTL_MS });
          throw error;
        },
      );
      pending.set(shared, call);
      void call.finally(() => pending.delete(shared)).catch(() => undefined);
    }
    return call;
  }

  return {
    /**
     * The weather now at a place: `where` is a place name or postcode (looked up), `lat,lon`, or
     * a point (the reader's, from the CDN).
     * @returns the report, or null when the place is unknown, the value empty or too long, the
     *   code not one of the skies, or the provider failed (logged; the caller answers no-store).
     */
    async at(where: string | LatLon): Promise<{ report: WeatherReport | null; failed: boolean }> {
      try {
        let place: Place | undefined;
        if (typeof where === 'string') {
          const name = where.replace(/\s+/g, ' ').trim();
          if (name === '' || name.length > MAX_PLACE_LENGTH) return { report: null, failed: false };
          place =
            parseLatLon(name) ??
            (await kept(places, placeKey(name), PLACE_TTL_MS, () => provider().geocode(name)));
        } else {
          place = where;
        }
        if (!place) return { report: null, failed: false };
        const now = await kept(forecasts, roundedLocation(place), FORECAST_TTL_MS, () =>
          provider().current(place),
        );
        const sky = skyOfCode(now.code);
        if (!sky) return { report: null, failed: false };
        return {
          report: {
            sky,
            temperatureC: now.temperatureC,
            ...(place.name ? { place: place.name } : {}),
          },
          failed: false,
        };
      } catch (error) {
        logger.warn('weather lookup failed', { error: error as Error });
        return { report: null, failed: true };
      }
    },
  };
}
export type Weather = ReturnType<typeof createWeather>;

/** The reader's place from CloudFront's viewer-location headers (degrees), else undefined. */
export function viewerLocation(
  latitude: string | undefined,
  longitude: string | undefined,
): LatLon | undefined {
  if (latitude === undefined || longitude === undefined) return undefined;
  return parseLatLon(`${latitude},${longitude}`);
}
