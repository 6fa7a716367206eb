/**
 * The fallback stage of the render service (docs/adr/0066-fallback-draws-under-load.md
 * "Fallback draws under load"): what a request gets when it cannot have its image. The design's
 * all-fallback render (its parameters' fallbacks; cached like any render, one shared draw at a
 * time), else the neutral placeholder; a failure's reason said by `X-Render-Reason` where the
 * docs name one (a refused signature, a dense image that cannot be had).
 */
import type { ApiResult } from '#lib/http.ts';
import { logger } from '#lib/logger.ts';
import { METRIC, recordMetric } from '#lib/metrics.ts';
import { parseDesignDocument } from '#shared/design.ts';
import { RENDER_REASON_HEADER } from '#shared/render-signature.ts';
import { image, QUOTA_FALLBACK_CACHE } from './answer.ts';
import { renderCacheKey } from './cache-key.ts';
import type { CachedImage } from './cached-draw.ts';
import { timerKeyValues, timerStickers } from './countdown-gif.ts';
import { DENSITY_REFUSAL } from './format.ts';
import { RecentFallbacks } from './recent-fallbacks.ts';
import type { DesignRecord, RenderServiceDeps } from './service-types.ts';

/**
 * How long a timer design's fallback keeps one drawing, ms: its timers show the minute's start
 * (at most 59 s more than is left), so refused or failed requests cost one draw a minute per
 * design, not one a second (docs/adr/0058-countdown-timers.md "Countdown timers").
 */
export const FALLBACK_TIMER_STEP_MS = 60_000;
/**
 * Fallback draws shared at once per instance, keys
 * (docs/adr/0066-fallback-draws-under-load.md "Fallback draws under load"): past it a request's fallback draws unshared, as before.
 */
export const MAX_FALLBACK_DRAWS_IN_FLIGHT = 256;

/**
 * The fallback stage of one render service: draws through `cachedRender` (the draw stage,
 * unbudgeted: the fallback's own draw is not a recipient's), `deps.placeholder` when that
 * fails, `deps.countFallback` to count why.
 * @returns `fallback(cause, design?, error?, cacheControl?, nowMs?)`, `refused(reason, design,
 *   nowMs)` and `failed(error, design, nowMs)`: each an image answer, never a throw past the
 *   placeholder's own.
 */
export function createFallbacks(
  deps: Pick<RenderServiceDeps, 'placeholder' | 'countFallback'>,
  cachedRender: (
    design: DesignRecord,
    values: Array<[string, string]>,
    format: 'jpeg',
    budget: undefined,
    nowMs?: number,
  ) => Promise<CachedImage>,
) {
  // Fallback draws that came out partial or failed, and those running
  // (docs/adr/0066-fallback-draws-under-load.md "Fallback draws under load").
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
   * or a failure is kept in `recentFallbacks` (docs/adr/0066-fallback-draws-under-load.md
   * "Fallback draws under load").
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
   * minute) per window on an instance (docs/adr/0066-fallback-draws-under-load.md "Fallback
   * draws under load"; test/integration/render-fallback-load.test.ts).
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
        // at most, however many requests are refused (docs/adr/0058-countdown-timers.md
        // "Countdown timers").
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

  /**
   * The answer of a request whose render threw: past the monthly quota, the fallback kept
   * briefly ({@link QUOTA_FALLBACK_CACHE}); a dense image that cannot be had (docs/export.md
   * "Density"), the fallback `no-store` naming why; otherwise the fallback `no-store`. Counted
   * against the design when known (docs/analytics.md "Fallbacks").
   */
  async function failed(
    error: unknown,
    design: DesignRecord | undefined,
    nowMs: number | undefined,
  ): Promise<ApiResult> {
    const reason = (error as { cause?: unknown }).cause;
    const cause = reason === 'rate-limit' ? 'rate limited' : 'render failed';
    if (design)
      deps.countFallback?.(
        design.designId,
        reason === 'quota' ? 'over_quota' : reason === 'rate-limit' ? 'rate_limited' : 'failed',
      );
    if (reason === 'quota')
      return fallback('over quota', design, error, QUOTA_FALLBACK_CACHE, nowMs);
    if (reason === DENSITY_REFUSAL || reason === 'over-budget') {
      // A dense image that cannot be had (docs/export.md "Density"): said by the header.
      const answer = await fallback(cause, design, error, 'no-store', nowMs);
      return { ...answer, headers: { ...answer.headers, [RENDER_REASON_HEADER]: reason } };
    }
    return fallback(cause, design, error, 'no-store', nowMs);
  }

  return { fallback, refused, failed };
}
