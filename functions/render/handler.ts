/**
 * The render Lambda, behind a CloudFront function URL in AWS and the local gateway locally:
 * `GET /r/{publicId}[/{cacheId}][/pdf][.ext]?{param}={value}&…` (spec 001 §7).
 *
 * Never a broken image in an inbox (DESIGN.md §5): any failure answers 200 with a neutral
 * placeholder and `Cache-Control: no-store`, and logs the cause. The render issue adds the
 * all-fallback image, PDF, the S3 render cache, dynamic stickers and view counting.
 */
import { createHash } from 'node:crypto';
import { db } from '#lib/db/index.ts';
import { httpChain, type ApiEvent, type ApiResult } from '#lib/http.ts';
import { logger } from '#lib/logger.ts';
import { parseRenderPath, parseRenderQuery } from '#shared/render-url.ts';
import { placeholderImage, renderDesign } from './renderer.ts';
import { config } from '#lib/config.ts';

/** Cache-Control of a good render without a cacheId: short, then revalidated (issue: render §7). */
const SHORT_CACHE = 'public, max-age=60, stale-while-revalidate=86400';

function image(body: Buffer, contentType: string, cacheControl: string, etag?: string): ApiResult {
  return {
    statusCode: 200,
    isBase64Encoded: true,
    headers: {
      'content-type': contentType,
      'cache-control': cacheControl,
      'content-length': String(body.length),
      ...(etag ? { etag } : {}),
    },
    body: body.toString('base64'),
  };
}

async function fallback(cause: string, detail?: unknown): Promise<ApiResult> {
  logger.warn('render fallback', { cause, error: detail instanceof Error ? detail : undefined });
  return image(await placeholderImage(), 'image/jpeg', 'no-store');
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`render timed out after ${ms} ms`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** Answers one render request; never throws. */
export async function renderRequest(event: ApiEvent): Promise<ApiResult> {
  const path = parseRenderPath(event.rawPath);
  if (!path) return fallback('not a render path');
  try {
    const found = await db().Design.query.byPublicId({ publicId: path.publicId }).go({ limit: 1 });
    const design = found.data[0];
    if (!design) return await fallback('unknown design');
    if (path.format === 'pdf') return await fallback('pdf not available yet');
    const values = parseRenderQuery(event.rawQueryString ?? '');
    const output = await withTimeout(
      renderDesign(design, values, path.format === 'png' ? 'png' : 'jpeg'),
      config().RENDER_TIMEOUT_MS,
    );
    const etag = `"${createHash('sha256').update(output.body).digest('base64url').slice(0, 27)}"`;
    return image(output.body, output.contentType, SHORT_CACHE, etag);
  } catch (error) {
    return fallback('render failed', error);
  }
}

export const handler = httpChain('render', renderRequest);
