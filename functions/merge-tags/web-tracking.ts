/**
 * `GET /js/{file}` (docs/providers.md "Web tracking"; docs/export.md
 * item 5): the web-tracking script (shared/web-tracking-script.ts), with long caching.
 *
 * Caching: the export screen writes `/js/picsnippets.js?v={version}`; with the current version
 * the answer is immutable for a year, and a changed script has a new address. Without it (or
 * with an old one) a day, then a week of stale-while-revalidate. ETag and 304 either way.
 * The script is loaded by other sites' pages, so its answer allows cross-origin use
 * (`Cross-Origin-Resource-Policy: cross-origin`; handler.ts).
 */
import { notFound } from '#lib/errors.ts';
import type { ApiResult } from '#lib/http.ts';
import {
  WEB_TRACKING_SCRIPT,
  WEB_TRACKING_SCRIPT_FILE,
  WEB_TRACKING_SCRIPT_VERSION,
} from '#shared/web-tracking-script.ts';

export const SCRIPT_IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
export const SCRIPT_SHORT_CACHE = 'public, max-age=86400, stale-while-revalidate=604800';

const ETAG = `"${WEB_TRACKING_SCRIPT_VERSION}"`;

/**
 * The answer for `/js/{file}`.
 * @param file the path's file name; only `picsnippets.js` exists.
 * @param version the `v` query parameter, if any.
 * @throws AppError 404 for any other file.
 */
export function webTrackingScript(
  file: string,
  version: string | undefined,
  ifNoneMatch: string | undefined,
): ApiResult {
  if (file !== WEB_TRACKING_SCRIPT_FILE) throw notFound('No such script.');
  const headers = {
    'content-type': 'text/javascript; charset=utf-8',
    'cache-control':
      version === WEB_TRACKING_SCRIPT_VERSION ? SCRIPT_IMMUTABLE_CACHE : SCRIPT_SHORT_CACHE,
    etag: ETAG,
  };
  if (ifNoneMatch === ETAG) return { statusCode: 304, headers };
  return { statusCode: 200, headers, body: WEB_TRACKING_SCRIPT };
}
