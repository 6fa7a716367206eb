/**
 * Dynamic stickers that come from the network (docs/security.md "SSRF guard"): gravatar, hosted
 * image and web-page screenshot. Every URL goes through the SSRF guard (functions/lib/ssrf.ts);
 * every failure means "not drawn", never a broken render. Results are cached: images for 10 minutes
 * in memory, screenshots for an hour in memory and in S3.
 */
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { s3Client } from '#lib/clients.ts';
import { config } from '#lib/config.ts';
import { logger } from '#lib/logger.ts';
import { createUrlGuard, isBlockedAddress, urlGuard, type UrlGuard } from '#lib/ssrf.ts';
import type { Sticker } from '#shared/design.ts';
import { stickerBox } from '#shared/scene/resolve.ts';
import { takeScreenshot } from './screenshots.ts';
import { withTimeout } from './cached-draw.ts';
import { svgRefusal } from './svg.ts';
import { FetchBudgetSpent, type FetchBudget } from './fetch-budget.ts';
import { EMAIL_SHAPE } from '#shared/strings.ts';
import type { WebCrop } from '#shared/scene/web-crop.ts';

/** Image types a hosted image may be (docs/editor.md "Editing rules", plus webp from the export form, docs/security.md "Render limits"). */
const IMAGE_TYPES = /^image\/(png|jpe?g|gif|svg\+xml|webp)$/;
const IMAGE_TTL_MS = 10 * 60 * 1000;
const SCREENSHOT_TTL_MS = 60 * 60 * 1000;

let guard: { ports: string; guard: UrlGuard } | undefined;

/**
 * The production guard; with STAGE=test, fixture ports on loopback count as public. Made again
 * when the configured ports change (test files that share one process each have their own).
 */
export function renderGuard(): UrlGuard {
  const c = config();
  const ports =
    c.STAGE === 'test' && c.SSRF_TEST_PUBLIC_PORTS
      ? c.SSRF_TEST_PUBLIC_PORTS.split(',').map((p) => Number(p.trim()))
      : [];
  const key = ports.join(',');
  if (guard?.ports !== key) {
    guard = {
      ports: key,
      guard:
        ports.length === 0
          ? urlGuard
          : createUrlGuard({
              allowedPorts: [80, 443, ...ports],
              isBlocked: (ip, port) =>
                !(ports.includes(port) && (ip === '127.0.0.1' || ip === '::1')) &&
                isBlockedAddress(ip),
            }),
    };
  }
  return guard.guard;
}

const cache = new Map<string, { at: number; value: Promise<string | undefined> }>();

/**
 * The kept value of `key`, else `make()` (kept `ttlMs`; a failure is kept as undefined). A miss
 * takes one fetch from `budget` first and rejects with `FetchBudgetSpent` when none is left.
 */
function cached(
  key: string,
  ttlMs: number,
  budget: FetchBudget | undefined,
  make: () => Promise<string | undefined>,
): Promise<string | undefined> {
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < ttlMs) return hit.value;
  if (budget && !budget.take()) return Promise.reject(new FetchBudgetSpent());
  if (cache.size > 500) cache.clear();
  const value = make().catch((error: unknown) => {
    logger.info('dynamic sticker not drawn', {
      kind: key.split(':')[0],
      error: (error as Error).message,
    });
    return undefined;
  });
  cache.set(key, { at: Date.now(), value });
  return value;
}

/**
 * Time one image may take from its bytes to a data URL, ms: the SVG check, decoding and
 * fitting (docs/security.md "SVG stickers"). Past it the sticker is not drawn.
 */
export const RASTER_BUDGET_MS = 1000;

/**
 * Fits image bytes into the sticker's drawn box (contain) as a PNG data URL, within
 * {@link RASTER_BUDGET_MS}. An SVG is rasterised only when `svgRefusal` finds nothing that
 * reaches outside the file (librsvg could otherwise fetch or read).
 * @throws Error for a refused SVG, an undecodable image or a spent budget.
 */
async function toDataUrl(
  bytes: Buffer,
  contentType: string,
  box: { width: number; height: number },
): Promise<string> {
  const deadline = performance.now() + RASTER_BUDGET_MS;
  if (contentType === 'image/svg+xml') {
    const refusal = await svgRefusal(bytes.toString('utf8'), { deadline });
    if (refusal) throw new Error(`svg refused: ${refusal}`);
  }
  const left = Math.max(1, Math.round(deadline - performance.now()));
  const png = sharp(bytes, { limitInputPixels: 40_000_000, animated: false, density: 144 })
    // libvips stops the pipeline itself (whole seconds); the race below answers on time.
    .timeout({ seconds: Math.ceil(left / 1000) })
    .resize(Math.max(1, Math.round(box.width)), Math.max(1, Math.round(box.height)), {
      fit: 'contain',
      background: { r: 0, g: 0, b: 0, alpha: 0 },
    })
    .png()
    .toBuffer();
  png.catch(() => undefined); // a late failure after the race is lost on purpose
  return `data:image/png;base64,${(await withTimeout(png, left, 'rasterising')).toString('base64')}`;
}

/**
 * A hosted image: an http(s) URL of a jpg, jpeg, png, gif, svg (or webp) image (docs/editor.md
 * "Editing rules"), fetched through the guard (3 s, 5 MiB), fitted into the sticker's box.
 * @param budget the render's outside fetches: a miss takes one (fetch-budget.ts); rejects with
 *   `FetchBudgetSpent` when none is left.
 */
export function hostedImage(
  url: string,
  sticker: Sticker,
  budget?: FetchBudget,
): Promise<string | undefined> {
  const box = stickerBox(sticker);
  return cached(
    `hosted:${url}:${Math.round(box.width)}x${Math.round(box.height)}`,
    IMAGE_TTL_MS,
    budget,
    async () => {
      const res = await renderGuard().fetch(url, {
        timeoutMs: 3000,
        maxBytes: 5 * 1024 * 1024,
        accept: 'image/*',
        allowedContentTypes: IMAGE_TYPES,
      });
      if (res.status !== 200) throw new Error(`hosted image answered ${res.status}`);
      return toDataUrl(res.body, res.contentType, box);
    },
  );
}

/** The md5 of a trimmed, lower-cased e-mail, as Gravatar keys avatars. */
export const gravatarHash = (email: string): string =>
  createHash('md5').update(email.trim().toLowerCase()).digest('hex');

/**
 * A Gravatar avatar for an e-mail (`d=404`: no generated avatars), else for the fallback e-mail,
 * else nothing. Each look-up that misses the cache takes one fetch from `budget`; past it, the next
 * address is tried (a kept one costs nothing).
 */
export async function gravatar(
  email: string,
  fallback: string,
  sticker: Sticker,
  budget?: FetchBudget,
): Promise<string | undefined> {
  const box = stickerBox(sticker);
  const size = Math.min(2048, Math.max(16, Math.round(Math.max(box.width, box.height))));
  for (const address of [email, fallback]) {
    if (!EMAIL_SHAPE.test(address.trim())) continue;
    const url = `${config().GRAVATAR_BASE_URL}/${gravatarHash(address)}?s=${size}&d=404`;
    const image = await cached(`gravatar:${url}`, IMAGE_TTL_MS, budget, async () => {
      const res = await renderGuard().fetch(url, {
        timeoutMs: 3000,
        maxBytes: 2 * 1024 * 1024,
        allowedContentTypes: IMAGE_TYPES,
      });
      if (res.status !== 200) throw new Error(`gravatar answered ${res.status}`);
      return toDataUrl(res.body, res.contentType, box);
    }).catch((error: unknown) => {
      if (error instanceof FetchBudgetSpent) return undefined;
      throw error;
    });
    if (image) return image;
  }
  return undefined;
}

/**
 * A web page's screenshot, 910x512 (docs/security.md "Render limits"): a mobile viewport (455x256
 * at 2x, mobile user agent) or a desktop one (1280x720, scaled down). The page runs in the
 * screenshot browser under the guard's interception, so every sub-request is checked and pinned.
 * Kept for an hour in memory and in S3. With `crop` (a live web crop, docs/web-crops.md), the first
 * element matching its selector as a PNG, kept its `refresh_s`. A miss takes one fetch from
 * `budget` (rejects with `FetchBudgetSpent` when none is left).
 */
export function screenshot(
  rawUrl: string,
  isMobile: boolean,
  budget?: FetchBudget,
  crop?: Pick<WebCrop, 'selector' | 'refresh_s'>,
): Promise<string | undefined> {
  const url = /^[a-z][a-z0-9+.-]*:/i.test(rawUrl) ? rawUrl : `https://${rawUrl}`; // docs/security.md "Render limits"
  const id = createHash('sha256')
    .update(`${isMobile ? 'm' : 'd'}:${crop ? `${crop.selector}\n` : ''}${url}`)
    .digest('base64url')
    .slice(0, 32);
  // A crop is a PNG (transparent around the element) kept its refresh interval
  // (docs/web-crops.md "Refresh"); a page is a JPEG kept an hour.
  const type = crop ? 'image/png' : 'image/jpeg';
  const ttlMs = crop ? crop.refresh_s * 1000 : SCREENSHOT_TTL_MS;
  return cached(`screenshot:${id}`, ttlMs, budget, async () => {
    const Bucket = config().RENDERS_BUCKET;
    const Key = `screenshots/${id}.${crop ? 'png' : 'jpg'}`;
    try {
      const object = await s3Client().send(new GetObjectCommand({ Bucket, Key }));
      if (object.LastModified && Date.now() - object.LastModified.getTime() < ttlMs) {
        const bytes = Buffer.from(await object.Body!.transformToByteArray());
        return `data:${type};base64,${bytes.toString('base64')}`;
      }
    } catch {
      // not cached yet
    }
    // A separate browser (locally) or function (AWS), never the render page's (screenshots.ts).
    const image = await takeScreenshot(renderGuard(), url, isMobile, crop?.selector);
    void s3Client()
      .send(new PutObjectCommand({ Bucket, Key, Body: image, ContentType: type }))
      .catch((e: unknown) => logger.warn('screenshot cache write failed', { error: e as Error }));
    return `data:${type};base64,${image.toString('base64')}`;
  });
}
