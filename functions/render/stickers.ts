/**
 * Sticker images for a render (test/integration/stickers.test.ts): QR codes are made here with
 * `qrcode`; plain and uploaded stickers are read from the assets bucket. Each becomes a data URL
 * the render page draws with fabric. A sticker whose image cannot be made is left out, never an
 * error: the recipient still gets the rest of the image.
 *
 * Gravatar, hosted images and screenshots come through the SSRF guard (dynamic.ts).
 */
import { GetObjectCommand } from '@aws-sdk/client-s3';
import QRCode from 'qrcode';
import sharp from 'sharp';
import { createRequire } from 'node:module';
import { s3Client } from '#lib/clients.ts';
import { config } from '#lib/config.ts';
import { logger } from '#lib/logger.ts';
import { longHexColour } from '#shared/colour.ts';
import type { DesignDocument, Sticker } from '#shared/design.ts';
import { publicFileKey } from '#shared/resources.ts';
import { resolveDynamicStickers, stickerBox } from '#shared/scene/resolve.ts';
import { pollBarsSvg, pollStickerDrawing, svgDataUrl } from '#shared/scene/poll.ts';
import { weatherStickerDrawing } from '#shared/scene/weather-sticker.ts';
import { expandUrlTemplate } from '#shared/scene/web-crop.ts';
import { gravatar, hostedImage, screenshot } from './dynamic.ts';
import { gifFrameInput } from './gif-frame.ts';
import { isGif } from '#shared/gif.ts';
import { drawWithinBudget, FetchBudget } from './fetch-budget.ts';

const require = createRequire(import.meta.url);
/** qrcode's own rasteriser (what its PNG renderer fills before encoding), for raw pixels. */
const qrRenderer = require('qrcode/lib/renderer/utils.js') as {
  getOptions(o: object): { width?: number; margin: number };
  getImageWidth(size: number, o: object): number;
  qrToImageData(target: Uint8Array, qr: unknown, o: object): void;
};

/** Pixels drawn in node, straight RGBA at a canvas position (px). */
export interface DirectLayer {
  left: number;
  top: number;
  width: number;
  height: number;
  rgba: Uint8Array;
}

/**
 * A QR code as raw RGBA at the sticker's drawn size: the very pixels `qrcode` would put in its
 * PNG, without encoding one. Used for unrotated QR stickers, which need nothing from fabric.
 */
export function qrPixels(value: string, sticker: Sticker): DirectLayer {
  const box = stickerBox(sticker);
  const size = Math.max(60, Math.round(Math.max(box.width, box.height)));
  const qr = QRCode.create(value === '' ? config().PUBLIC_URL : value, {
    errorCorrectionLevel: 'M',
  });
  const opts = qrRenderer.getOptions({
    margin: sticker.marginSize,
    width: size,
    color: {
      dark: qrColour(sticker.qrCodeColor),
      light: sticker.isTransparent ? '#0000' : '#ffffff',
    },
  });
  const width = qrRenderer.getImageWidth((qr as { modules: { size: number } }).modules.size, opts);
  const rgba = new Uint8Array(width * width * 4);
  qrRenderer.qrToImageData(rgba, qr, opts);
  return {
    left: Math.round(sticker.left),
    top: Math.round(sticker.top),
    width,
    height: width,
    rgba,
  };
}

/**
 * A stored QR colour as `#rrggbb`: `#gg`, `#rgb` or `#rrggbb`, with or without `#`, read as
 * shared/colour.ts `longHexColour` reads it (test/unit/hex-colour.test.ts); anything else falls
 * back to #111111.
 */
export function qrColour(colour: string): string {
  return longHexColour(`#${colour.trim().replace(/^#/, '')}`) ?? '#111111';
}

/**
 * A QR code as a PNG data URL at the sticker's drawn size.
 * @param value the text to encode; empty = the product's address (docs/security.md "Render limits").
 * @param sticker colour, margin (modules, 0–20) and transparency (docs/editor.md "Editing rules").
 * @param density device px per canvas px (docs/export.md "Density"): the image is made that many
 *   times larger, so the page draws its modules at that density into the same box.
 */
export async function qrDataUrl(value: string, sticker: Sticker, density = 1): Promise<string> {
  const box = stickerBox(sticker);
  const size = Math.max(60, Math.round(Math.max(box.width, box.height))) * density;
  return QRCode.toDataURL(value === '' ? config().PUBLIC_URL : value, {
    errorCorrectionLevel: 'M',
    margin: sticker.marginSize,
    width: size,
    color: {
      dark: `${qrColour(sticker.qrCodeColor)}`,
      light: sticker.isTransparent ? '#0000' : '#ffffff',
    },
  });
}

const assetImages = new Map<string, Promise<string>>();

/**
 * A sticker file as a data URL, cached (at most 256). A GIF becomes a PNG of frame `frame`
 * (0-based, cut to its last; functions/render/gif-frame.ts `gifFrameInput`), the still the
 * editor shows for the sticker's saved `gif_frame` (docs/editor.md "Animated GIF stickers").
 */
async function assetDataUrl(key: string, frame: number): Promise<string> {
  const cacheKey = `${key}#${frame}`;
  let cached = assetImages.get(cacheKey);
  if (!cached) {
    cached = (async () => {
      const object = await s3Client().send(
        new GetObjectCommand({ Bucket: config().ASSETS_BUCKET, Key: key }),
      );
      let bytes = Buffer.from(await object.Body!.transformToByteArray());
      let type = object.ContentType ?? 'image/png';
      if (isGif(bytes)) {
        bytes = await sharp(bytes, await gifFrameInput(bytes, frame))
          .png()
          .toBuffer();
        type = 'image/png';
      }
      return `data:${type};base64,${bytes.toString('base64')}`;
    })();
    cached.catch(() => assetImages.delete(cacheKey));
    if (assetImages.size > 256) assetImages.clear();
    assetImages.set(cacheKey, cached);
  }
  return cached;
}

/**
 * Makes every sticker's image for one recipient's values, with at most
 * `MAX_RENDER_FETCHES` (4) outside fetches: hosted images, gravatars and screenshots take them
 * in the design's order as they miss the cache; past them a sticker draws its fallback if that
 * is kept, else nothing (fetch-budget.ts, docs/security.md "Design bounds").
 * @param budget the render's fetch budget; a fresh one by default.
 * @param density device px per canvas px (docs/export.md "Density"): QR codes the page draws
 *   are made that many times larger; the direct ones stay 1× (renderer.ts `denseDirect`).
 * @returns `images`: data URLs by sticker uuid, for the page to draw; `direct`: pixels node
 *   blends itself, beneath everything the page draws, for the leading run of unrotated QR
 *   stickers (so the z-order holds); `complete`: false when the budget refused a fetch (the
 *   render must not be cached). Stickers left out could not be made (logged).
 */
export async function stickerImages(
  doc: DesignDocument,
  values: Record<string, string>,
  budget: FetchBudget = new FetchBudget(),
  density = 1,
): Promise<{ images: Record<string, string>; direct: DirectLayer[]; complete: boolean }> {
  const out: Record<string, string> = {};
  const direct: DirectLayer[] = [];
  const directIds = new Set<string>();
  for (const sticker of doc.graphics_data) {
    if (
      sticker.dynamicStickerType !== 'qrCode' ||
      sticker.stickerType !== 'dynamicSticker' ||
      sticker.angle % 360 !== 0
    )
      break;
    directIds.add(sticker.uuid);
  }
  const jobs: Array<Promise<void>> = [];
  const put = (id: string) => (src: string | undefined) => {
    if (src !== undefined) out[id] = src;
  };
  for (const input of resolveDynamicStickers(doc, values)) {
    const { sticker } = input;
    switch (input.type) {
      case 'qrCode':
        if (directIds.has(input.id)) direct.push(qrPixels(input.value, sticker));
        else jobs.push(qrDataUrl(input.value, sticker, density).then(put(input.id)));
        break;
      case 'hostedImage':
        jobs.push(
          drawWithinBudget(input.value, sticker.dynamicStickerUrl, (value) =>
            hostedImage(value, sticker, budget),
          ).then(put(input.id)),
        );
        break;
      case 'gravatar':
        jobs.push(
          gravatar(input.value, sticker.dynamicStickerUrl, sticker, budget).then(put(input.id)),
        );
        break;
      case 'poll': {
        // Drawn from the design and the counts the service passed, never fetched (docs/polls.md
        // "Drawing"): the bars here, the texts with the design's (renderer.ts).
        const drawing = pollStickerDrawing(sticker, values);
        if (drawing) out[input.id] = svgDataUrl(pollBarsSvg(drawing.box, drawing.bars));
        break;
      }
      case 'weather': {
        // The service looked the weather up before the draw (docs/weather.md "The weather
        // sticker"): the panel and icon here, the texts with the design's (renderer.ts).
        const drawing = weatherStickerDrawing(sticker, values);
        if (drawing && drawing.svg !== '') out[input.id] = svgDataUrl(drawing.svg);
        break;
      }
      case 'screenShot': {
        // A live web crop's page per recipient comes from its URL template, when every field
        // has a value (docs/web-crops.md "URL templates").
        const page =
          (sticker.crop?.url_template && expandUrlTemplate(sticker.crop.url_template, values)) ||
          input.value;
        jobs.push(
          drawWithinBudget(page, sticker.dynamicStickerUrl, (value) =>
            screenshot(value, sticker.isMobile, budget, sticker.crop ?? undefined),
          ).then(put(input.id)),
        );
        break;
      }
    }
  }
  for (const sticker of doc.graphics_data) {
    if (sticker.stickerType === 'dynamicSticker' || sticker.url === '') continue;
    const key = publicFileKey(sticker.url);
    if (!key) {
      logger.warn('sticker left out: not a served file', { uuid: sticker.uuid });
      continue;
    }
    jobs.push(
      assetDataUrl(key, sticker.gif_frame ?? 0).then((src) => {
        out[sticker.uuid] = src;
      }),
    );
  }
  const results = await Promise.allSettled(jobs);
  for (const r of results)
    if (r.status === 'rejected') logger.warn('sticker left out', { error: r.reason as Error });
  return { images: out, direct, complete: budget.refused === 0 };
}
