/**
 * The answer stage of the render service: the `Cache-Control` a render gets (docs/export.md
 * "Cache id"; docs/adr/0061-rule-sets-and-the-cdn.md "Rule sets and the CDN"; docs/polls.md
 * "Live results"), its headers (ETag, `X-Render-Cache`, the matched rule, `Server-Timing`), the
 * 304 of a matching `If-None-Match`, and the non-image answers: the 402 of a PDF a plan does not
 * include, ManyChat's JSON, the page of a link that goes nowhere.
 */
import type { ApiResult } from '#lib/http.ts';
import type { DesignDocument } from '#shared/design.ts';
import { COUNTDOWN_CACHE } from './countdown-gif.ts';
import type { RenderFormat, RenderOutput } from './renderer.ts';
import type { RenderRequest } from './service-types.ts';
import { cacheControlUntil } from './signature.ts';

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
 * Cache-Control of a design whose rules read the request's headers (device, OS, country,
 * e-mail client): the CDN's key has none of them, so it must not share the answer
 * (docs/adr/0061-rule-sets-and-the-cdn.md "Rule sets and the CDN"). Browsers revalidate with
 * the ETag.
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
/** The shortest of the given times, or undefined when none is given. */
export const shortestDefined = (...times: Array<number | undefined>): number | undefined => {
  const given = times.filter((t): t is number => t !== undefined);
  return given.length === 0 ? undefined : Math.min(...given);
};
/**
 * The shortest refresh of the design's live web crops, s (docs/web-crops.md "Refresh"), or
 * undefined without any.
 */
export const cropRefreshS = (doc: DesignDocument): number | undefined =>
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

/**
 * A 200 answer of image bytes (base64 for API Gateway), `nosniff`, with its `Cache-Control` and,
 * when given, its ETag.
 */
export function image(
  body: Buffer,
  contentType: string,
  cacheControl: string,
  etag?: string,
): ApiResult {
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

/** What a good render's `Cache-Control` depends on (see {@link cacheControlOf}). */
export interface CacheFacts {
  /** The design's rules read the request's headers, or a weather sticker the reader's place. */
  viewer: boolean;
  /** A lookup failed or a sticker drew its fallback. */
  partial: boolean;
  /** The design was read earlier and the table could not be answered now. */
  stale: boolean;
  /** The design has countdown timers. */
  timed: boolean;
  /** The shortest time its live content stays true, s (polls, weather, web crops). */
  liveS: number | undefined;
  /** The design's rules read the clock only. */
  moment: boolean;
  /** The cache id names the version drawn, and the design has no data bindings. */
  immutable: boolean;
  /** A signed URL's expiry, ms since the epoch. */
  expiresAt: number | undefined;
}

/**
 * The `Cache-Control` of a good render, first match wins: a per-viewer answer is never shared
 * ({@link RULES_VIEWER_CACHE}, whatever the signature's expiry); a partial or stale one is
 * `no-store`; then a timer's, live content's, a clock rule's, an immutable version's, else
 * {@link SHORT_CACHE}; a signed URL's expiry caps the max-age (signature.ts `cacheControlUntil`).
 */
export function cacheControlOf(facts: CacheFacts): string {
  const { partial, stale, timed, liveS } = facts;
  if (facts.viewer && !partial && !stale) return RULES_VIEWER_CACHE;
  return cacheControlUntil(
    partial || stale
      ? 'no-store'
      : timed
        ? COUNTDOWN_CACHE
        : liveS !== undefined
          ? liveCache(liveS)
          : facts.moment
            ? RULES_MOMENT_CACHE
            : facts.immutable
              ? IMMUTABLE_CACHE
              : SHORT_CACHE,
    facts.expiresAt,
  );
}

/**
 * The answer of a drawn or cached image: 304 when `ifNoneMatch` is its ETag, else the image with
 * `X-Render-Cache` (`memory`, `store`, `miss`), the rule it shows (an id, never a header's
 * value: docs/rules.md "Caching") and `Server-Timing` (stage times, ms).
 */
export function imageAnswer(drawn: {
  body: Buffer;
  format: RenderFormat;
  cacheControl: string;
  etag: string;
  hit: string;
  ruleKey: string | undefined;
  timings: Record<string, number>;
}): ApiResult {
  const result = image(drawn.body, CONTENT_TYPES[drawn.format], drawn.cacheControl, drawn.etag);
  result.headers = {
    ...result.headers,
    'x-render-cache': drawn.hit,
    ...(drawn.ruleKey !== undefined ? { [RENDER_RULE_HEADER]: drawn.ruleKey } : {}),
    'server-timing': serverTiming(drawn.timings),
  };
  return result;
}

/** The 402 of a PDF the team's plan does not include (JSON, `no-store`). */
export function pdfNotIncluded(): ApiResult {
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

/** The answer of a link that goes nowhere: a short page, never a redirect. */
export function noLink(statusCode: 403 | 404 | 503, message: string): ApiResult {
  return {
    statusCode,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'private, no-store',
    },
    body: `<!doctype html><html lang="en"><meta charset="utf-8"><title>Link</title><p>${message}</p></html>`,
  };
}

/** ManyChat's dynamic image block JSON, pointing at the same URL without `__format`. */
export function manychatJson(request: RenderRequest, publicUrl: string): ApiResult {
  const query = request.rawQueryString
    .split('&')
    .filter((p) => p !== '' && !p.startsWith('__format='))
    .join('&');
  const url = `${publicUrl}${request.rawPath}${query ? `?${query}` : ''}`;
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
