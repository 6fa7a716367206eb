/**
 * The open-time stage of the render service: what a request shows before any cache is asked,
 * the same for the image and its link (docs/rules.md "Links"). The URL's values normalised
 * (declared parameters only), the design's data-source lookups merged in (docs/data-sources.md
 * "At render time"), the weather of the rules' places (docs/weather.md "Conditions"), the rule
 * that matches (rule-context.ts), then a first open (docs/adr/0058-countdown-timers.md
 * "Countdown timers"), weather stickers' reports (docs/weather.md "The weather sticker") and a
 * poll's live results (docs/polls.md "Live results"), each added to the values the cache key
 * holds. Open-time work spends its own budget first (budgets.ts `mayWorkAtOpen`).
 */
import { logger } from '#lib/logger.ts';
import type { DesignDocument } from '#shared/design.ts';
import { splitAssignment } from '#shared/scene/optimised-split.ts';
import { POLL_RESULTS_VALUE, formatPollCounts } from '#shared/scene/poll.ts';
import { cutValue, declaredParameters, resolveDynamicStickers } from '#shared/scene/resolve.ts';
import { weatherPlaces, type WeatherReport } from '#shared/scene/rules.ts';
import {
  formatWeatherValue,
  unitForCountry,
  weatherValueName,
} from '#shared/scene/weather-sticker.ts';
import type { Budgets } from './budgets.ts';
import { FIRST_OPEN_VALUE, firstOpenDurationS } from './countdown-gif.ts';
import { firstOpenAt } from './first-open.ts';
import { createMailProxyRecogniser } from './mail-proxies.ts';
import { ruledDesign } from './rule-context.ts';
import type { DesignRecord, RenderRequest, RenderServiceDeps } from './service-types.ts';
import type { LatLon } from './weather.ts';

/**
 * How long a design with weather stickers may be kept, s: the forecasts' own cache time
 * (weather.ts `FORECAST_TTL_MS`, 30 minutes; docs/weather.md "The weather sticker").
 */
export const WEATHER_STICKER_CACHE_S = 30 * 60;
/** Weather stickers looked up per render at most (the design bounds allow 10 dynamic ones). */
export const MAX_WEATHER_STICKERS = 3;
/** A design's weather stickers with their settings. */
const weatherStickersOf = (doc: DesignDocument) =>
  doc.graphics_data.filter((s) => s.dynamicStickerType === 'weather' && s.weather !== null);

/**
 * The values that count for a design: only declared parameters, cut at 255 characters, sorted by
 * name (test/unit/render-service.test.ts "normaliseValues"). fixyourfunnel sends `txt=` only: it
 * fills the first declared parameter that has no value of its own.
 */
export function normaliseValues(
  doc: DesignDocument,
  query: Record<string, string>,
): Array<[string, string]> {
  const declared = declaredParameters(doc);
  const out = new Map<string, string>();
  for (const name of declared) {
    const value = query[name];
    if (value !== undefined) out.set(name, cutValue(value));
  }
  const txt = query.txt;
  if (txt !== undefined && !declared.includes('txt')) {
    const first = doc.text_snippets
      .flatMap((s) => s.parameters.map((p) => p.param_name))
      .find((n) => !out.has(n));
    if (first) out.set(first, cutValue(txt));
  }
  return [...out.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The values with what the design's data bindings found (docs/data-sources.md "At render
 * time"): a found value replaces the URL's, for declared parameters only, cut at 255
 * characters, sorted by name like {@link normaliseValues}. Being among the values, looked-up
 * values are part of the render cache key, so a re-uploaded record draws a new image.
 */
export function withDataValues(
  doc: DesignDocument,
  values: Array<[string, string]>,
  found: Array<[string, string]>,
): Array<[string, string]> {
  if (found.length === 0) return values;
  const declared = new Set(declaredParameters(doc));
  const out = new Map(values);
  for (const [name, value] of found) if (declared.has(name)) out.set(name, cutValue(value));
  return [...out.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The open-time stage of one render service, with its collaborators (`dataValues`, `weather`,
 * `firstOpens`, `pollCounts`, `mailProxyOf`; each absent: that work is not done).
 * @returns `openTimeValues` (values, mail proxy, matched rule, budget outcome), then
 *   `withFirstOpen`, `withWeatherStickers`, `withPollResults`, each adding its value to the
 *   values; none throws (a failure sets `failed`: the answer is then `no-store`).
 */
export function createOpenTime(
  deps: Pick<
    RenderServiceDeps,
    'dataValues' | 'weather' | 'firstOpens' | 'pollCounts' | 'mailProxyOf'
  >,
  budgets: Pick<Budgets, 'mayWorkAtOpen'>,
) {
  const { mayWorkAtOpen } = budgets;
  const proxyOf = deps.mailProxyOf ?? createMailProxyRecogniser();

  /**
   * What a request shows at open time, the same for the image and its link (docs/rules.md
   * "Links"): the URL's values with the design's data-source lookups merged in (looked up before
   * the rules, so a rule can test a looked-up value; docs/data-sources.md), whether a mail
   * proxy asks, and the rule that matches. The editor's preview may pick a rule
   * (`__preview=1&__rule=`, docs/rules.md "Preview") when `mayPick` (the image, never the
   * link); a recipient's URL never does.
   * @param publicId the design's public id, as in the path (the random split hashes it).
   */
  async function openTimeValues(
    publicId: string,
    design: DesignRecord,
    doc: DesignDocument,
    query: Record<string, string>,
    request: RenderRequest,
    mayPick: boolean,
  ) {
    const bound = doc.data_bindings.length > 0;
    const places = weatherPlaces(doc.rules);
    const proxy = proxyOf(request.userAgent, request.sourceIp);
    // The budget first: a lookup is a fetch, a read and a write made for whoever asks.
    const work =
      !bound &&
      places.length === 0 &&
      firstOpenDurationS(doc) === 0 &&
      weatherStickersOf(doc).length === 0
        ? { allowed: true, counted: false }
        : await mayWorkAtOpen(design, request, proxy);
    const allowed = work.allowed;
    const looked =
      bound && deps.dataValues && allowed
        ? await deps.dataValues(design, doc, query)
        : { values: [], failed: bound && !allowed };
    const values = withDataValues(doc, normaliseValues(doc, query), looked.values);
    // After the data lookups, so a place can come from a data source (docs/weather.md).
    const weather =
      places.length > 0 && deps.weather && allowed
        ? await weatherFor(places, values, request.viewerLocation)
        : { reports: undefined, failed: places.length > 0 && !allowed };
    const nowMs = request.nowMs ?? Date.now();
    const ruled = ruledDesign(design.document, doc, {
      publicId,
      values,
      nowMs,
      weather: weather.reports,
      splitAssignment: splitAssignment(doc, design.splitTables, nowMs),
      userAgent: request.userAgent,
      country: request.country,
      proxy,
      pick: mayPick && query.__preview === '1' ? query.__rule : undefined,
    });
    return {
      values,
      proxy,
      ruled,
      lookupFailed: looked.failed || weather.failed,
      openWorkAllowed: allowed,
      countedAtOpen: work.counted,
    };
  }

  /**
   * The weather of each place the rules look up (docs/weather.md "Conditions"): a place name is
   * the recipient's value of that parameter (none: unknown), '' the reader's place from the CDN
   * (none: unknown). At most `MAX_WEATHER_PLACES` lookups, side by side; `failed` when one failed
   * (the answer is then not cached).
   */
  async function weatherFor(
    places: readonly string[],
    values: ReadonlyArray<readonly [string, string]>,
    viewer: LatLon | undefined,
  ): Promise<{ reports: Record<string, WeatherReport | null>; failed: boolean }> {
    const byName = new Map(values);
    const found = await Promise.all(
      places.map(async (place) => {
        const where = place === '' ? viewer : byName.get(place);
        if (where === undefined || where === '') return { report: null, failed: false };
        return deps.weather!.at(where);
      }),
    );
    return {
      reports: Object.fromEntries(places.map((place, i) => [place, found[i]!.report])),
      failed: found.some((f) => f.failed),
    };
  }

  /**
   * The values with the recipient's first open ({@link FIRST_OPEN_VALUE}, ISO 8601) when the
   * design has a timer that counts from it (docs/adr/0058-countdown-timers.md "Countdown
   * timers"). A recipient's open or a mail proxy's fetch (the moment the recipient opens) is the
   * first open; the editor's previews and send lists' pre-renders are not, and count from now;
   * so does a URL without any of the design's values, which names no recipient. When the store
   * fails, or the request's open-time budget is spent (`allowed` false: no write for whoever
   * asks past it), the timer counts from now and `failed` is set: the answer is not cached.
   */
  async function withFirstOpen(
    design: DesignRecord,
    doc: DesignDocument,
    values: Array<[string, string]>,
    nowMs: number,
    notAnOpen: boolean,
    allowed: boolean,
  ): Promise<{ values: Array<[string, string]>; failed: boolean }> {
    const durationS = firstOpenDurationS(doc);
    if (durationS === 0 || notAnOpen || values.length === 0 || !deps.firstOpens)
      return { values, failed: false };
    if (!allowed) return { values, failed: true };
    try {
      const at = await firstOpenAt(deps.firstOpens, design.designId, values, nowMs, durationS);
      return {
        values: [[FIRST_OPEN_VALUE, new Date(at).toISOString()], ...values],
        failed: false,
      };
    } catch (error) {
      logger.warn('first open lookup failed', { error: error as Error });
      return { values, failed: true };
    }
  }

  /**
   * The values with a poll's counts added ({@link POLL_RESULTS_VALUE}, part of the render cache
   * key) when the design's poll shows live results (docs/polls.md "Live results"), and how long
   * the answer may be kept (`ttlS`). A failed read draws the poll without results (`failed`:
   * the answer is then `no-store`).
   */
  async function withPollResults(
    design: DesignRecord,
    doc: DesignDocument,
    values: Array<[string, string]>,
  ): Promise<{ values: Array<[string, string]>; failed: boolean; ttlS?: number }> {
    const sticker = doc.graphics_data.find((s) => s.dynamicStickerType === 'poll');
    const poll = sticker?.poll;
    if (!sticker || !poll?.show_results || !deps.pollCounts) return { values, failed: false };
    try {
      const counts = await deps.pollCounts(
        design.designId,
        sticker.uuid,
        poll.options.length,
        poll.results_ttl_s,
      );
      return {
        values: [[POLL_RESULTS_VALUE, formatPollCounts(counts)], ...values],
        failed: false,
        ttlS: poll.results_ttl_s,
      };
    } catch (error) {
      logger.warn('poll results not read', { error: error as Error });
      return { values, failed: true };
    }
  }

  /**
   * The values with each weather sticker's report added ({@link weatherValueName}, part of the
   * render cache key) (docs/weather.md "The weather sticker"): the place is the sticker's value
   * (its parameter's, else its fallback), else the reader's place when the sticker allows it
   * (`viewer`: the answer is the reader's own). Lookups only within the request's open-time
   * budget (`allowed`); past it, or when a lookup fails, the sticker draws its fallback text and
   * `failed` is set (the answer is not cached). `ttlS`: how long the answer may be kept.
   */
  async function withWeatherStickers(
    doc: DesignDocument,
    values: Array<[string, string]>,
    request: RenderRequest,
    allowed: boolean,
  ): Promise<{
    values: Array<[string, string]>;
    failed: boolean;
    viewer: boolean;
    ttlS?: number;
  }> {
    if (weatherStickersOf(doc).length === 0) return { values, failed: false, viewer: false };
    let viewer = false;
    const inputs = resolveDynamicStickers(doc, Object.fromEntries(values))
      .filter((d) => d.type === 'weather' && d.sticker.weather !== null)
      .slice(0, MAX_WEATHER_STICKERS);
    const found = await Promise.all(
      inputs.map(async (input) => {
        let where: string | LatLon | undefined = input.value !== '' ? input.value : undefined;
        if (where === undefined && input.sticker.weather?.use_viewer_place) {
          viewer = true;
          where = request.viewerLocation;
        }
        if (where === undefined) return { id: input.id, value: 'none', failed: false };
        if (!allowed || !deps.weather) return { id: input.id, value: 'none', failed: true };
        const looked = await deps.weather.at(where);
        // `auto`: the reader's country picks the unit, so the answer is the reader's own.
        const auto = input.sticker.weather?.unit === 'auto';
        if (auto) viewer = true;
        const unit = auto ? unitForCountry(request.country) : undefined;
        return {
          id: input.id,
          value: formatWeatherValue(looked.report, unit),
          failed: looked.failed,
        };
      }),
    );
    return {
      values: [...found.map((f): [string, string] => [weatherValueName(f.id), f.value]), ...values],
      failed: found.some((f) => f.failed),
      viewer,
      ttlS: WEATHER_STICKER_CACHE_S,
    };
  }

  return { openTimeValues, withFirstOpen, withWeatherStickers, withPollResults };
}
