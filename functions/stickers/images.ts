/**
 * Sticker images: what a sticker is drawn from and what the picker shows
 * (docs/adr/0021-sticker-library.md "Sticker library"). Used by uploads (`POST /image` with
 * `type=asIcon`) and by the seed of the real packs, so both give the renderer and the picker the
 * same kind of file.
 *
 * Sizes come from docs/editor.md "Constants": a sticker's intrinsic size is 512 px (it is added at
 * scale 0.1).
 */
import sharp from 'sharp';
import { MAX_IMAGE_BYTES, MAX_INPUT_PIXELS } from '#lib/uploads.ts';
import { isGif, MAX_GIF_DECODED_BYTES, MAX_GIF_FRAMES } from '#shared/gif.ts';

/** A sticker's intrinsic size, px (docs/editor.md "Constants": "Sticker: … size 512"). */
export const STICKER_SIZE = 512;

/** Picker thumbnail size, px: the panel shows stickers at up to 80 px, twice that for 2x screens. */
export const STICKER_THUMB_SIZE = 160;

/** A sticker image as stored: PNG bytes (alpha kept) and their size in px. */
export interface StickerPng {
  bytes: Buffer;
  width: number;
  height: number;
}

const transparent = { r: 0, g: 0, b: 0, alpha: 0 };

/**
 * Fits a raster image (any format sharp reads) inside {@link STICKER_SIZE} px, keeping its
 * aspect ratio and alpha, never enlarging it, EXIF orientation applied and metadata dropped;
 * an animated image keeps its first frame (a render draws a still).
 * @throws Error from sharp when the bytes do not decode within 40 MP.
 */
export async function stickerFromRaster(bytes: Buffer): Promise<StickerPng> {
  const { data, info } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize(STICKER_SIZE, STICKER_SIZE, { fit: 'inside', withoutEnlargement: true })
    .png({ compressionLevel: 9, adaptiveFiltering: true })
    .toBuffer({ resolveWithObject: true });
  return { bytes: data, width: info.width, height: info.height };
}

/** An animated sticker as stored: GIF bytes fitted as the still is, and the frames kept. */
export interface StickerGif {
  bytes: Buffer;
  frames: number;
}

/** The bound that cut an animated upload: the one the frames kept reached first. */
export type StickerGifCap = 'frames' | 'source-pixels' | 'decoded-pixels' | 'stored-bytes';

/**
 * What an animated upload kept: the animation (null when none could be kept), the frames the
 * file had, and the bound that cut it (null when every frame was kept).
 */
export interface StickerGifOutcome {
  gif: StickerGif | null;
  sourceFrames: number;
  cap: StickerGifCap | null;
}

/**
 * Decoded pixels an animated sticker may take once fitted, px summed over its frames: the
 * editor's decoder stops at {@link MAX_GIF_DECODED_BYTES} of RGBA (docs/editor.md "Animated GIF
 * stickers"), so every frame kept is a frame the editor plays.
 */
export const MAX_STICKER_GIF_PIXELS = MAX_GIF_DECODED_BYTES / 4;

/**
 * The animated original of a GIF sticker upload, fitted inside {@link STICKER_SIZE} px as
 * {@link stickerFromRaster} fits its still (the same size, so either draws in the same box),
 * frame delays and loop kept (docs/editor.md "Animated GIF stickers"). Bounded: only the first
 * frames within {@link MAX_GIF_FRAMES}, {@link MAX_INPUT_PIXELS} of source pixels and
 * {@link MAX_STICKER_GIF_PIXELS} of fitted pixels (all frames summed) are read and kept, and a
 * result over {@link MAX_IMAGE_BYTES} is dropped; the outcome says which bound cut it
 * ({@link stickerGifNotice} words it for the uploader).
 * @param fitted the still's size, px (`stickerFromRaster`).
 * @param maxPixels the fitted-pixel budget (tests lower it).
 * @returns null for anything but a GIF of two frames or more; otherwise the outcome, whose `gif`
 *   is null when the bounds leave fewer than two frames or the result is over 8 MB (the still
 *   alone is kept, as for every other upload).
 * @throws Error from sharp when the GIF does not decode.
 */
export async function stickerGifFromRaster(
  bytes: Buffer,
  fitted: { width: number; height: number },
  maxPixels = MAX_STICKER_GIF_PIXELS,
): Promise<StickerGifOutcome | null> {
  if (!isGif(bytes)) return null;
  const meta = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  const pages = meta.pages ?? 1;
  const frameArea = (meta.width ?? 0) * (meta.pageHeight ?? meta.height ?? 0);
  if (pages < 2 || frameArea <= 0) return null;
  // The bounds in the order they are named when several cut at the same frame.
  const bounds: Array<[StickerGifCap, number]> = [
    ['frames', MAX_GIF_FRAMES],
    ['source-pixels', Math.floor(MAX_INPUT_PIXELS / frameArea)],
    ['decoded-pixels', Math.floor(maxPixels / (fitted.width * fitted.height))],
  ];
  const frames = Math.min(pages, ...bounds.map(([, n]) => n));
  const cap = frames < pages ? bounds.find(([, n]) => n === frames)![0] : null;
  if (frames < 2) return { gif: null, sourceFrames: pages, cap };
  const gif = await sharp(bytes, { pages: frames, limitInputPixels: MAX_INPUT_PIXELS })
    .resize(fitted.width, fitted.height, { fit: 'fill' })
    .gif({
      loop: meta.loop ?? 0,
      ...(meta.delay ? { delay: meta.delay.slice(0, frames) } : {}),
    })
    .toBuffer();
  if (gif.length > MAX_IMAGE_BYTES) return { gif: null, sourceFrames: pages, cap: 'stored-bytes' };
  return { gif: { bytes: gif, frames }, sourceFrames: pages, cap };
}

/** What each bound allows, as the uploader is told it. */
const CAP_WORDS: Record<StickerGifCap, string> = {
  frames: `an animated sticker keeps at most ${MAX_GIF_FRAMES} frames`,
  'source-pixels': `an animated sticker reads at most ${MAX_INPUT_PIXELS / 1_000_000} megapixels of frames`,
  'decoded-pixels': `an animated sticker keeps at most ${MAX_GIF_DECODED_BYTES / (1024 * 1024)} MB of decoded frames`,
  'stored-bytes': `an animated sticker is stored at most ${MAX_IMAGE_BYTES / (1024 * 1024)} MB`,
};

/**
 * The upload answer's notice when a bound cut the animation (docs/editor.md "Animated GIF
 * stickers"): `Kept the first 500 of 800 frames: an animated sticker keeps at most 500 frames.`,
 * or, when none could be kept, `The animation was not kept: …; the sticker is its first frame.`
 * @returns null when nothing was cut (or the upload is not animated).
 */
export function stickerGifNotice(outcome: StickerGifOutcome | null): string | null {
  if (!outcome?.cap) return null;
  const why = CAP_WORDS[outcome.cap];
  return outcome.gif
    ? `Kept the first ${outcome.gif.frames} of ${outcome.sourceFrames} frames: ${why}.`
    : `The animation was not kept (${outcome.sourceFrames} frames): ${why}; the sticker is its first frame.`;
}

/**
 * Rasterises an SVG icon to a {@link STICKER_SIZE} px square PNG: drawn at the density that makes
 * its longer side 512 px (vectors stay sharp, no upscaling of pixels), centred on transparency.
 * Only for trusted artwork (the seeded packs); user SVGs are refused by the upload path.
 * @param svg the SVG source.
 * @throws Error when librsvg cannot read it.
 */
export async function stickerFromSvg(svg: string | Buffer): Promise<StickerPng> {
  const input = Buffer.isBuffer(svg) ? svg : Buffer.from(svg);
  const meta = await sharp(input).metadata();
  const side = Math.max(meta.width ?? STICKER_SIZE, meta.height ?? STICKER_SIZE);
  const density = Math.min(72 * 64, (72 * STICKER_SIZE) / side);
  const bytes = await sharp(input, { density })
    .resize(STICKER_SIZE, STICKER_SIZE, { fit: 'contain', background: transparent })
    .png({ compressionLevel: 9, adaptiveFiltering: true })
    .toBuffer();
  return { bytes, width: STICKER_SIZE, height: STICKER_SIZE };
}

/** The picker's thumbnail of a sticker image: inside {@link STICKER_THUMB_SIZE} px, PNG. */
export async function stickerThumb(png: Buffer): Promise<Buffer> {
  return sharp(png, { limitInputPixels: MAX_INPUT_PIXELS })
    .resize(STICKER_THUMB_SIZE, STICKER_THUMB_SIZE, { fit: 'inside', withoutEnlargement: true })
    .png({ compressionLevel: 9, adaptiveFiltering: true })
    .toBuffer();
}
