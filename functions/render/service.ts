/**
 * The render service behind `/r/*` (docs/adr/0004-render-slice.md "Render slice"; test/integration/render.test.ts): parses the URL,
 * normalises the parameters, answers from the caches (memory, then S3), renders on a miss,
 * and never answers with anything but an image (or the 402 of a PDF a plan does not include).
 *
 * The domain logic receives its collaborators through `createRenderService` (docs/adr/0004-render-slice.md "Render slice": "thin
 * handlers, injected clients"); handler.ts wires the real ones.
 */
import type { ApiResult } from '#lib/http.ts';
import { logger } from '#lib/logger.ts';
import { METRIC, recordMetric } from '#lib/metrics.ts';
import { parseDesignDocument, type DesignDocument } from '#shared/design.ts';
import { densityFits } from '#shared/render-limits.ts';
import { RENDER_REASON_HEADER } from '#shared/render-signature.ts';
import {
  parseRenderPath,
  parseRenderQuery,
  type RenderDensity,
  type RenderPath,
} from '#shared/render-url.ts';
import { ruleLinkUrl } from '#shared/scene/rules.ts';
import { hasGifSource } from './animated-gif.ts';
import { createBudgets } from './budgets.ts';
import { etagOf, renderCacheKey } from './cache-key.ts';
import { createCachedDraw } from './cached-draw.ts';
import { COUNTDOWN_CACHE, timerKeyValues, timerStickers } from './countdown-gif.ts';
import { createDesignLoader, knownNames } from './load-design.ts';
import { createOpenTime } from './open-time.ts';
import { RecentFallbacks } from './recent-fallbacks.ts';
import type { RenderFormat, RenderOutput } from './renderer.ts';
import { rulesScope } from './rule-context.ts';
import type { DesignRecord, RenderRequest, RenderServiceDeps } from './service-types.ts';
import { cacheControlUntil } from './signature.ts';

export type { DesignRecord, RenderServiceDeps } from './service-types.ts';
export { DEFAULT_LIMITS, TokenBuckets } from './budgets.ts';
export { ViewCounter } from './view-counter.ts';
export { cacheIdOf, renderCacheKey } from './cache-key.ts';
export { MemoryCache, withTimeout } from './cached-draw.ts';
export { normaliseValues, WEATHER_STICKER_CACHE_S } from './open-time.ts';

/** Cache-Control of a good render without a matching cacheId (docs/export.md "Cache id"). */
export const SHORT_CACHE = 'public, max-age=300, stale-while-revalidate=86400';
/** Cache-Control of a good render whose cacheId names the design's current version. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/**
 * Cache-Control of the fallback answered past the team's monthly quota (docs/security.md
 * "Render limits"): cached briefly, never `no-store`, so mail proxies and the CDN keep it a
 * while and come back later instead of retrying at once.
 */
export const QUOTA_FALLBACK_CACHE = 'public, max-age=300';

/**
 * How long a timer design's fallback keeps one drawing, ms: its timers show the minute's start
 * (at most 59 s more than is left), so refused or failed requests cost one draw a minute per
 * design, not one a second (docs/adr/0058-countdown-timers.md "Countdown timers").
 */
export const FALLBACK_TIMER_STEP_MS = 60_000;
/**
 * Fallback draws shared at once per instance, keys (docs/adr/0066-fallback-draws-under-load.md "Fallback draws under
 * load"): past it a request's fallback draws unshared, as before.
 */
export const MAX_FALLBACK_DRAWS_IN_FLIGHT = 256;
/**
 * Cache-Control of a design whose rules read the request's headers (device, OS, country,
 * e-mail client): the CDN's key has none of them, so it must not share the answer
 * (docs/adr/0061-rule-sets-and-the-cdn.md "Rule sets and the CDN"). Browsers revalidate with the ETag.
 */
export const RULES_VIEWER_CACHE = 'private, no-cache';
/** Cache-Control of a design whose rules read the clock only: shared a minute. */
export const RULES_MOMENT_CACHE = 'public, max-age=60';
/**
 * Cache-Control of a design with live content: kept no longer than it stays true (a poll's
 * `results_ttl_s`, the forecasts' 30 minutes, a web crop's refresh; docs/polls.md "Live results",
 * docs/weather.md "The weather sticker", docs/web-crops.md "Refresh").
 */
export const liveCache = (ttlS: number): string =>
  `public, max-age=${Math.max(1, Math.floor(ttlS))}`;
/**
 * `X-Render-Reason` of a dense URL (`@2x`, `@3x`) whose design is too large at that density
 * (shared/render-limits.ts `MAX_DENSE_PIXELS`); `over-budget` names a dense image past its byte
 * budget (encode.ts `encodeStill`). Both answer the fallback, uncached (docs/export.md "Density").
 */
export const DENSITY_REFUSAL = 'too-many-pixels';
/** The shortest of the given times, or undefined when none is given. */
const shortestDefined = (...times: Array<number | undefined>): number | undefined => {
  const given = times.filter((t): t is number => t !== undefined);
  return given.length === 0 ? undefined : Math.min(...given);
};
/**
 * The shortest refresh of the design's live web crops, s (docs/web-crops.md "Refresh"), or
 * undefined without any.
 */
const cropRefreshS = (doc: DesignDocument): number | undefined =>
  shortestDefined(
    ...doc.graphics_data.map((s) =>
      s.dynamicStickerType === 'screenShot' ? s.crop?.refresh_s : undefined,
    ),
  );
/** The answer header naming the rule an image of a design with rules shows (`rule:{id}`). */
export const RENDER_RULE_HEADER = 'x-render-rule';

const CONTENT_TYPES: Record<RenderFormat, RenderOutput['contentType']> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  pdf: 'application/pdf',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
};

/** `Server-Timing` from stage times in ms (visible in browsers' devtools and in the bench). */
export function serverTiming(timings: Record<string, number>): string {
  return Object.entries(timings)
    .map(([name, ms]) => `${name};dur=${ms.toFixed(1)}`)
    .join(', ');
}

function image(body: Buffer, contentType: string, cacheControl: string, etag?: string): ApiResult {
  return {
    statusCode: 200,
    isBase64Encoded: true,
    headers: {
      'content-type': contentType,
      'cache-control': cacheControl,
      'content-length': String(body.length),
      'x-content-type-options': 'nosniff',
      ...(etag ? { etag } : {}),
    },
    body: body.toString('base64'),
  };
}

/**
 * Builds the render service.
 * @returns `handle(request)`, which never throws: every failure answers 200 with the design's
 *   all-fallback render or a neutral placeholder, `Cache-Control: no-store`, cause logged.
 */
export function createRenderService(deps: RenderServiceDeps) {
  const budgets = createBudgets(deps);
  const { openTimeValues, withFirstOpen, withWeatherStickers, withPollResults } = createOpenTime(
    deps,
    budgets,
  );
  const cachedRender = createCachedDraw(deps, budgets);
  const { pinned, checkSigned } = createDesignLoader(deps);
  // Fallback draws that came out partial or failed, and those running (docs/adr/0066-fallback-draws-under-load.md
  // "Fallback draws under load").
  const recentFallbacks = new RecentFallbacks();
  const fallbacksInFlight = new Map<string, Promise<Buffer | undefined>>();

  /**
   * The moment a design's fallback draws its timers at, ms: the start of `now`'s minute; `now`
   * for a design without timers.
   */
  function fallbackMoment(design: DesignRecord, now: number): number {
    return timerStickers(parseDesignDocument(design.document)).length > 0
      ? now - (now % FALLBACK_TIMER_STEP_MS)
      : now;
  }

  /**
   * The all-fallback draw of `key` (the fallback's render cache key without the watermark),
   * shared by the requests that ask while it runs (single-flight, at most
   * {@link MAX_FALLBACK_DRAWS_IN_FLIGHT} keys; past that a request draws alone). A partial image
   * or a failure is kept in `recentFallbacks` (docs/adr/0066-fallback-draws-under-load.md "Fallback draws under load").
   * @returns the image, or undefined when the draw failed (logged).
   */
  function drawFallback(
    key: string,
    design: DesignRecord,
    momentMs: number,
  ): Promise<Buffer | undefined> {
    const shared = fallbacksInFlight.get(key);
    if (shared) return shared;
    const draw: Promise<Buffer | undefined> = cachedRender(design, [], 'jpeg', undefined, momentMs)
      .then(
        ({ body, partial }) => {
          if (partial) recentFallbacks.set(key, body);
          return body;
        },
        (again: unknown) => {
          logger.warn('all-fallback render failed', {
            designId: design.designId,
            error: again as Error,
          });
          recentFallbacks.set(key, undefined);
          return undefined;
        },
      )
      .finally(() => {
        if (fallbacksInFlight.get(key) === draw) fallbacksInFlight.delete(key);
      });
    if (fallbacksInFlight.size < MAX_FALLBACK_DRAWS_IN_FLIGHT) fallbacksInFlight.set(key, draw);
    return draw;
  }

  /**
   * The design's all-fallback render (cached like any render), else the placeholder. A design
   * version whose fallback came out partial, or failed, is answered that image, or the
   * placeholder, for a short time (recent-fallbacks.ts, 30 s) without drawing again, and
   * concurrent requests share one draw: at most one fallback draw per design version (and timer
   * minute) per window on an instance (docs/adr/0066-fallback-draws-under-load.md "Fallback draws under load";
   * test/integration/render-fallback-load.test.ts).
   * @param cacheControl `no-store` (a failure: the next request may draw), or
   *   {@link QUOTA_FALLBACK_CACHE} past the monthly quota.
   * @param nowMs the request's moment (the test clock under STAGE=test), ms; default now.
   */
  async function fallback(
    cause: string,
    design?: DesignRecord,
    error?: unknown,
    cacheControl = 'no-store',
    nowMs = Date.now(),
  ): Promise<ApiResult> {
    recordMetric(METRIC.renderFallback, 1, ['reason', cause]);
    logger.warn('render fallback', {
      cause,
      designId: design?.designId,
      error: error instanceof Error ? { name: error.name, message: error.message } : undefined,
    });
    if (design) {
      try {
        // A timer design's fallback shows its timers at the minute's start: one draw a minute
        // at most, however many requests are refused (docs/adr/0058-countdown-timers.md "Countdown timers").
        const moment = fallbackMoment(design, nowMs);
        const key = renderCacheKey(
          design,
          timerKeyValues(parseDesignDocument(design.document), [], moment),
          'jpeg',
        );
        const kept = recentFallbacks.get(key);
        const body = kept ? kept.body : await drawFallback(key, design, moment);
        if (body) return image(body, 'image/jpeg', cacheControl);
      } catch (again) {
        logger.warn('all-fallback render failed', {
          designId: design.designId,
          error: again as Error,
        });
      }
    }
    return image(await deps.placeholder(), 'image/jpeg', cacheControl);
  }

  /** The answer of a link that goes nowhere: a short page, never a redirect. */
  function noLink(statusCode: 403 | 404 | 503, message: string): ApiResult {
    return {
      statusCode,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'private, no-store',
      },
      body: `<!doctype html><html lang="en"><meta charset="utf-8"><title>Link</title><p>${message}</p></html>`,
    };
  }

  /**
   * `GET /l/{publicId}[/{cacheId}]?{the image's query}` (docs/rules.md "Links"): evaluates the
   * design's rules as the image does for the same request (same design version, values, clock,
   * headers and split bucket) and answers 302 to the matching rule's link, else the design's
   * own. The target is only ever an http(s) URL stored in the design: nothing in the request
   * names one. A design that requires signed URLs requires them here too, checked as the image's
   * `/r/` URL with the same query (the export's rule link is the signed render URL with `/l/`),
   * before any lookup or rule runs: 403 otherwise, so an unsigned link neither spends the team's
   * lookups nor tells which rule a value matches (docs/security.md "Open-time content"). 404
   * when the design is unknown or has no link for the match; 503 when the design cannot be read.
   * Never cached: every click is evaluated.
   */
  async function link(request: RenderRequest): Promise<ApiResult> {
    const path = request.rawPath.startsWith('/l/')
      ? parseRenderPath(`/r/${request.rawPath.slice(3)}`)
      : undefined;
    const missing = 'This link goes nowhere: the design is unknown or has no link.';
    if (!path) return noLink(404, missing);
    // A poll's option link opens the vote page, which votes on a click (docs/polls.md
    // "Scanners"): nothing is read or counted here, so a scanner's fetch changes nothing.
    if (/(?:^|&)__vote=/.test(request.rawQueryString)) {
      const link = `${request.rawPath}?${request.rawQueryString}`;
      return {
        statusCode: 302,
        headers: {
          location: `/poll?link=${encodeURIComponent(link)}`,
          'cache-control': 'private, no-store',
          'content-type': 'text/plain; charset=utf-8',
          'referrer-policy': 'no-referrer',
        },
        body: '',
      };
    }
    try {
      const current = await deps.findDesign(path.publicId);
      if (!current) return noLink(404, missing);
      const asImage = { ...request, rawPath: `/r/${request.rawPath.slice(3)}` };
      const signed = await checkSigned(current, asImage, knownNames(current));
      if (!signed.ok)
        return noLink(403, 'This link is not valid: it was changed, or it has expired.');
      const { design } = await pinned(current, path.cacheId);
      const doc = parseDesignDocument(design.document);
      const { ruled } = await openTimeValues(
        path.publicId,
        design,
        doc,
        parseRenderQuery(request.rawQueryString, knownNames(current)),
        request,
        false,
      );
      const url = ruleLinkUrl(doc, ruled?.rule);
      if (!url) return noLink(404, missing);
      return {
        statusCode: 302,
        headers: {
          location: new URL(url).href,
          'cache-control': 'private, no-store',
          'content-type': 'text/plain; charset=utf-8',
        },
        body: '',
      };
    } catch (error) {
      logger.warn('link failed', { error: error as Error });
      return noLink(503, 'This link is not available right now. Please try again in a minute.');
    }
  }

  /** The fallback of a refused signature, uncached, naming why (`X-Render-Reason`). */
  async function refused(
    reason: string,
    design: DesignRecord,
    nowMs: number | undefined,
  ): Promise<ApiResult> {
    deps.countFallback?.(design.designId, 'refused');
    const answer = await fallback(reason, design, undefined, 'no-store', nowMs);
    return { ...answer, headers: { ...answer.headers, [RENDER_REASON_HEADER]: reason } };
  }

  async function handle(request: RenderRequest): Promise<ApiResult> {
    const path: RenderPath | undefined = parseRenderPath(request.rawPath);
    if (!path) return fallback('not a render path');
    let design: DesignRecord | undefined;
    try {
      const current = await deps.findDesign(path.publicId);
      if (!current) return await fallback('unknown design');
      // Asked of the current design, never of a snapshot a cache id names (docs/adr/0054-signed-render-urls.md
      // "Signed render URLs").
      const known = knownNames(current);
      const signed = await checkSigned(current, request, known);
      if (!signed.ok) return await refused(signed.reason, current, request.nowMs);
      const { design: named, immutable } = await pinned(current, path.cacheId);
      design = named;
      let doc = parseDesignDocument(design.document);
      const query = parseRenderQuery(request.rawQueryString, known);

      if (query.__format === 'manychat_json') return manychatJson(request);

      // Looked up before the rules, so a rule can test a looked-up value; a design with data
      // bindings is never answered immutable: a re-upload must reach the CDN.
      const bound = doc.data_bindings.length > 0;
      const { values, proxy, ruled, lookupFailed, openWorkAllowed, countedAtOpen } =
        await openTimeValues(path.publicId, design, doc, query, request, true);
      if (ruled) {
        design = { ...design, document: ruled.document, ruleKey: ruled.ruleKey };
        doc = ruled.document;
      }
      const scope = ruled ? rulesScope(doc.rules) : 'url';
      const timed = timerStickers(doc).length > 0;
      // `.gif` of a design drawing GIF files answers its animation (docs/animated-designs.md).
      const animated = /\.gif$/i.test(request.rawPath) && hasGifSource(doc);
      const format: RenderFormat = path.format ?? (timed || animated ? 'gif' : doc.render_format);
      // A timer design, and an animated design's GIF (which the renderer plays at 1×), answer
      // their 1× image at any density, under the 1× key (docs/export.md "Density").
      const density: RenderDensity =
        timed || (format === 'gif' && hasGifSource(doc)) ? 1 : (path.density ?? 1);
      if (!densityFits(doc.canvas_width, doc.canvas_height, density))
        throw Object.assign(new Error(`too many pixels at ${density}x`), {
          cause: DENSITY_REFUSAL,
        });
      if (format === 'pdf' && !(await deps.teamCanExportPdf(design.teamId))) {
        return {
          statusCode: 402,
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'cache-control': 'no-store',
          },
          body: JSON.stringify({
            success: false,
            code: 'payment_required',
            message: 'PDF export is available only for Pro plans.',
          }),
        };
      }
      const started = performance.now();
      const opened = await withFirstOpen(
        design,
        doc,
        values,
        request.nowMs ?? Date.now(),
        query.__preview === '1' || request.prerender === true,
        openWorkAllowed,
      );
      const weathered = await withWeatherStickers(doc, opened.values, request, openWorkAllowed);
      const poll = await withPollResults(design, doc, weathered.values);
      const drawn = await cachedRender(
        design,
        poll.values,
        format,
        {
          ip: request.sourceIp,
          ...(proxy ? { proxy } : {}),
          ...(request.edgeLimited ? { edgeLimited: true } : {}),
          ...(request.edgeProxyLimited ? { edgeProxyLimited: true } : {}),
          ...(request.prerender ? { prerender: true } : {}),
          ...(countedAtOpen ? { countedAtOpen: true } : {}),
        },
        request.nowMs,
        density,
      );
      const { body, hit, timings } = drawn;
      // A failed lookup drew the fallback where a value should be: no cache may keep it.
      const partial =
        drawn.partial === true || opened.failed || lookupFailed || poll.failed || weathered.failed;
      // The product's own previews (dashboard cards, `?__preview=1`) and send lists' pre-renders
      // are not recipients' views.
      if (query.__preview !== '1' && !request.prerender)
        deps.countView(design.designId, proxy ? 'proxy' : 'open');
      const etag = etagOf(body);
      // Live content (poll results, weather, web crops) is kept no longer than it stays true.
      const liveS = shortestDefined(poll.ttlS, weathered.ttlS, cropRefreshS(doc));
      // A per-viewer answer is never shared, so a signature's expiry does not change it.
      const cacheControl =
        (scope === 'viewer' || weathered.viewer) && !partial && !design.stale
          ? RULES_VIEWER_CACHE
          : cacheControlUntil(
              partial || design.stale
                ? 'no-store'
                : timed
                  ? COUNTDOWN_CACHE
                  : liveS !== undefined
                    ? liveCache(liveS)
                    : scope === 'moment'
                      ? RULES_MOMENT_CACHE
                      : immutable && !bound
                        ? IMMUTABLE_CACHE
                        : SHORT_CACHE,
              signed.expiresAt,
            );
      if (request.ifNoneMatch === etag) {
        return { statusCode: 304, headers: { etag, 'cache-control': cacheControl } };
      }
      const total = performance.now() - started;
      recordMetric(METRIC.render, 1, ['outcome', hit]);
      recordMetric(METRIC.renderMs, total);
      const result = image(body, CONTENT_TYPES[format], cacheControl, etag);
      result.headers = {
        ...result.headers,
        'x-render-cache': hit,
        // Which rule the image shows (docs/rules.md "Caching"): an id, never a header's value.
        ...(design.ruleKey !== undefined ? { [RENDER_RULE_HEADER]: design.ruleKey } : {}),
        'server-timing': serverTiming({ ...timings, total }),
      };
      return result;
    } catch (error) {
      const reason = (error as { cause?: unknown }).cause;
      const cause = reason === 'rate-limit' ? 'rate limited' : 'render failed';
      if (design)
        deps.countFallback?.(
          design.designId,
          reason === 'quota' ? 'over_quota' : reason === 'rate-limit' ? 'rate_limited' : 'failed',
        );
      if (reason === 'quota')
        return fallback('over quota', design, error, QUOTA_FALLBACK_CACHE, request.nowMs);
      if (reason === DENSITY_REFUSAL || reason === 'over-budget') {
        // A dense image that cannot be had (docs/export.md "Density"): said by the header.
        const answer = await fallback(cause, design, error, 'no-store', request.nowMs);
        return { ...answer, headers: { ...answer.headers, [RENDER_REASON_HEADER]: reason } };
      }
      return fallback(cause, design, error, 'no-store', request.nowMs);
    }
  }

  /** ManyChat's dynamic image block JSON, pointing at the same URL without `__format`. */
  function manychatJson(request: RenderRequest): ApiResult {
    const query = request.rawQueryString
      .split('&')
      .filter((p) => p !== '' && !p.startsWith('__format='))
      .join('&');
    const url = `${deps.publicUrl}${request.rawPath}${query ? `?${query}` : ''}`;
    return {
      statusCode: 200,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': SHORT_CACHE },
      body: JSON.stringify({
        version: 'v2',
        content: {
          messages: [{ type: 'image', url, buttons: [] }],
          actions: [],
          quick_replies: [],
        },
      }),
    };
  }

  return { handle, link };
}
