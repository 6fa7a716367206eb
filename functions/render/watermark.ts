/**
 * The render's watermarks (docs/adr/0057-watermark.md "Watermark"): the layers of
 * shared/scene/watermark.ts with the team's image as a data URL of its stored bytes (the render
 * page fetches nothing), drawn by the page above everything else (shared/scene/draw.ts
 * `drawScene`).
 */
import { GetObjectCommand } from '@aws-sdk/client-s3';
import type { DesignDocument } from '#shared/design.ts';
import {
  watermarkLayers,
  type WatermarkLayer,
  type WatermarkSettings,
} from '#shared/scene/watermark.ts';
import { s3Client } from '#lib/clients.ts';
import { config } from '#lib/config.ts';
import { logger } from '#lib/logger.ts';
import { USER_FILES_PREFIX } from '#lib/uploads.ts';

/** Team watermark images by URL, as data URLs; a URL never changes its bytes (a new upload is a new URL). */
const images = new Map<string, Promise<string>>();
/** At most this many images are kept (each at most 1024 px a side, PNG). */
const MAX_IMAGES = 64;
/** A stored watermark larger than this is not drawn, bytes. */
const MAX_IMAGE_BYTES = 4 * 1024 * 1024;

/** The stored watermark at `url` (`/files/watermarks/…png`) as a PNG data URL. */
function imageData(url: string): Promise<string> {
  let found = images.get(url);
  if (!found) {
    if (images.size >= MAX_IMAGES) images.delete(images.keys().next().value!);
    found = (async () => {
      const key = url.slice(1);
      if (!key.startsWith(`${USER_FILES_PREFIX}watermarks/`)) throw new Error('not a watermark');
      const object = await s3Client().send(
        new GetObjectCommand({ Bucket: config().ASSETS_BUCKET, Key: key }),
      );
      if ((object.ContentLength ?? 0) > MAX_IMAGE_BYTES) throw new Error('watermark too large');
      const bytes = Buffer.from(await object.Body!.transformToByteArray());
      return `data:image/png;base64,${bytes.toString('base64')}`;
    })();
    found.catch(() => images.delete(url));
    images.set(url, found);
  }
  return found;
}

/**
 * The watermarks a render draws over a design (bottom to top: the team's, the product mark),
 * and whether every one the design wants is there. A team image that cannot be read is left
 * out, logged, and `complete` is false: the team replaced or removed it (its old file is
 * deleted) while this container still holds the team's settings (at most a minute, handler.ts
 * `PLAN_TTL_MS`), or the read failed. The render is then partial: served `no-store` and kept in
 * no cache (functions/render/service.ts), so no CDN or mail proxy keeps an image without the
 * logo (test/integration/render-watermark.test.ts).
 * @param settings the team's watermark image and whether its plan asks for the product mark;
 *   undefined: none (a render without a team).
 */
export async function renderWatermarks(
  doc: DesignDocument,
  settings: WatermarkSettings | undefined,
): Promise<{ layers: WatermarkLayer[]; complete: boolean }> {
  if (!settings) return { layers: [], complete: true };
  let src: string | null = null;
  let complete = true;
  if (doc.show_watermark && settings.team) {
    src = await imageData(settings.team.url).catch((error: unknown) => {
      logger.warn('team watermark left out: its image cannot be read', { error: error as Error });
      complete = false;
      return null;
    });
  }
  return { layers: watermarkLayers(doc, settings, src), complete };
}
