/**
 * The cache-key stage of the render service (docs/export.md "Cache id", "Density"; docs/rules.md
 * "Caching"): the cache id of a design version, the render cache key an image is kept under in
 * memory and in the renders bucket, and the ETag of its bytes.
 */
import { createHash } from 'node:crypto';
import type { RenderDensity } from '#shared/render-url.ts';
import type { RenderFormat } from './renderer.ts';
import type { DesignRecord } from './service-types.ts';

const EXTENSIONS: Record<RenderFormat, string> = {
  jpeg: 'jpg',
  png: 'png',
  pdf: 'pdf',
  gif: 'gif',
  webp: 'webp',
  avif: 'avif',
};

/** The cache id of a design version, used in `/r/{publicId}/{cacheId}` (export screen). */
export const cacheIdOf = (version: number): string => `v${version}`;

/** The version a cache id names (`v7` → 7), or undefined for another shape. */
export function versionOfCacheId(cacheId: string): number | undefined {
  const match = /^v([1-9]\d{0,11})$/.exec(cacheId);
  return match ? Number(match[1]) : undefined;
}

/**
 * The render cache key: a hash of (design version, normalised parameters, format, watermark,
 * density above 1×: docs/export.md "Density").
 * Everything the document decides, its JPEG `quality` setting included, is covered by the
 * version: every save bumps it (test/integration/render-quality.test.ts), and a snapshot of an
 * earlier version keeps that version's document. What the team decides outside the document,
 * its watermark image and its plan's product mark, is `watermark`
 * (shared/scene/watermark.ts `watermarkCacheComponent`; test/integration/render-watermark.test.ts);
 * without one the key is the one it always was.
 */
export function renderCacheKey(
  design: Pick<DesignRecord, 'designId' | 'version' | 'ruleKey'>,
  values: Array<[string, string]>,
  format: RenderFormat,
  watermark?: string,
  density: RenderDensity = 1,
): string {
  const parts: unknown[] = [design.designId, design.version, format, values];
  if (watermark !== undefined) parts.push(watermark);
  // A dense image is another image; 1× keys stay the ones they always were.
  if (density !== 1) parts.push({ density });
  // The matched rule of a design with rules (docs/rules.md "Caching"), never the headers.
  if (design.ruleKey !== undefined) parts.push({ rule: design.ruleKey });
  const hash = createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 32);
  return `renders/${design.designId}/${cacheIdOf(design.version)}/${hash}.${EXTENSIONS[format]}`;
}

/** A strong ETag of the bytes. */
export const etagOf = (body: Buffer): string =>
  `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
