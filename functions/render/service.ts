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
import { parseDesignDocument } from '#shared/design.ts';
import { RENDER_REASON_HEADER } from '#shared/render-signature.ts';
import { parseRenderPath, parseRenderQuery, type RenderPath } from '#shared/render-url.ts';
import { ruleLinkUrl } from '#shared/scene/rules.ts';
import {
  cacheControlOf,
  cropRefreshS,
  image,
  imageAnswer,
  manychatJson,
  noLink,
  pdfNotIncluded,
  QUOTA_FALLBACK_CACHE,
  shortestDefined,
} from './answer.ts';
import { createBudgets } from './budgets.ts';
import { etagOf, renderCacheKey } from './cache-key.ts';
import { createCachedDraw } from './cached-draw.ts';
import { timerKeyValues, timerStickers } from './countdown-gif.ts';
import { DENSITY_REFUSAL, drawingOf } from './format.ts';
import { createDesignLoader, knownNames } from './load-design.ts';
import { createOpenTime } from './open-time.ts';
import { RecentFallbacks } from './recent-fallbacks.ts';
import { rulesScope } from './rule-context.ts';
import type { DesignRecord, RenderRequest, RenderServiceDeps } from './service-types.ts';

export type { DesignRecord, RenderServiceDeps } from './service-types.ts';
export { DEFAULT_LIMITS, TokenBuckets } from './budgets.ts';
export { ViewCounter } from './view-counter.ts';
export { cacheIdOf, renderCacheKey } from './cache-key.ts';
export { MemoryCache, withTimeout } from './cached-draw.ts';
export { normaliseValues, WEATHER_STICKER_CACHE_S } from './open-time.ts';
export { IMMUTABLE_CACHE, QUOTA_FALLBACK_CACHE, SHORT_CACHE } from './answer.ts';
export { DENSITY_REFUSAL } from './format.ts';

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

      if (query.__format === 'manychat_json') return manychatJson(request, deps.publicUrl);

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
      const { format, density, timed } = drawingOf(path, request.rawPath, doc);
      if (format === 'pdf' && !(await deps.teamCanExportPdf(design.teamId)))
        return pdfNotIncluded();
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
      const cacheControl = cacheControlOf({
        viewer: scope === 'viewer' || weathered.viewer,
        partial,
        stale: design.stale === true,
        timed,
        liveS: shortestDefined(poll.ttlS, weathered.ttlS, cropRefreshS(doc)),
        moment: scope === 'moment',
        immutable: immutable && !bound,
        expiresAt: signed.expiresAt,
      });
      if (request.ifNoneMatch === etag) {
        return { statusCode: 304, headers: { etag, 'cache-control': cacheControl } };
      }
      const total = performance.now() - started;
      recordMetric(METRIC.render, 1, ['outcome', hit]);
      recordMetric(METRIC.renderMs, total);
      return imageAnswer({
        body,
        format,
        cacheControl,
        etag,
        hit,
        ruleKey: design.ruleKey,
        timings: { ...timings, total },
      });
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

  return { handle, link };
}
