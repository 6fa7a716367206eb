/**
 * The frame of an animated GIF a design saved (docs/adr/0059-gif-playback.md "GIF playback"): the render
 * draws that still, decoded by sharp (`page`), bounded in frames and pixels; and every frame with
 * its delay for an animated design (docs/animated-designs.md).
 */
import sharp, { type SharpOptions } from 'sharp';
import { isGif, MAX_GIF_DECODED_BYTES, MAX_GIF_FRAMES, MAX_GIF_FRAME_PIXELS } from '#shared/gif.ts';

/**
 * sharp's input options that read frame `frame` of a GIF: `{ page }`, the index cut to the
 * GIF's last frame (and to {@link MAX_GIF_FRAMES}), with the pixel limit of one frame. Other
 * images, and frame 0, get only the pixel limit: sharp reads their first (only) page.
 * @param frame the saved frame index, 0-based.
 * @throws sharp's error when the GIF's header cannot be read.
 */
export async function gifFrameInput(bytes: Buffer, frame: number): Promise<SharpOptions> {
  const limit = { limitInputPixels: MAX_GIF_FRAME_PIXELS };
  if (!isGif(bytes) || !(frame > 0)) return limit;
  const { pages = 1 } = await sharp(bytes, limit).metadata();
  const last = Math.max(0, Math.min(pages, MAX_GIF_FRAMES) - 1);
  return { ...limit, page: Math.min(Math.floor(frame), last) };
}

/**
 * An error the render service answers with its fallback, uncached, `X-Render-Reason:
 * over-budget` (docs/animated-designs.md "Budgets").
 */
export const overBudget = (why: string): Error =>
  Object.assign(new Error(`animated GIF over budget: ${why}`), { cause: 'over-budget' });

/** Most source frames read of one GIF (the editor's own limit, #shared/gif.ts). */
const MAX_SOURCE_FRAMES = MAX_GIF_FRAMES;

/** Most pixels read of one GIF, every frame counted (docs/animated-designs.md "Budgets"). */
const MAX_SOURCE_PIXELS = MAX_GIF_FRAME_PIXELS;

/** A GIF's frames fitted to a box: RGBA, `width` × `height` px each, with their delays. */
export interface GifFrames {
  count: number;
  width: number;
  height: number;
  /** Each frame's delay, ms: a GIF's 0–10 ms reads as 100 ms, as browsers play it. */
  delaysMs: number[];
  /** Frame `index`'s RGBA pixels (a view, not a copy). */
  frame(index: number): Uint8Array;
}

/** A frame delay as browsers play it: under 20 ms (often 0) is 100 ms. */
const playedDelay = (ms: number | undefined): number =>
  ms === undefined || ms < 20 ? 100 : Math.round(ms);

/**
 * Every frame of an animated GIF with its delay, each fitted to `width` × `height` px (cover, as
 * the still draws it), mirrored as `flip` says (docs/animated-designs.md "Reading the GIFs").
 * @param width the box's width, px; `height` likewise.
 * @throws Error (cause `over-budget`) past {@link MAX_SOURCE_FRAMES} frames, past
 *   {@link MAX_SOURCE_PIXELS} pixels read over every frame, or when the fitted frames pass
 *   MAX_GIF_DECODED_BYTES (#shared/gif.ts); sharp's error for bytes it cannot read.
 */
export async function readGifFrames(
  bytes: Buffer,
  width: number,
  height: number,
  flip: { flipX?: boolean; flipY?: boolean },
): Promise<GifFrames> {
  const meta = await sharp(bytes, { limitInputPixels: MAX_GIF_FRAME_PIXELS }).metadata();
  const pages = meta.pages ?? 1;
  const read = (meta.width ?? 0) * (meta.pageHeight ?? meta.height ?? 0) * pages;
  if (pages > MAX_SOURCE_FRAMES) throw overBudget(`${pages} frames > ${MAX_SOURCE_FRAMES}`);
  if (read > MAX_SOURCE_PIXELS) throw overBudget(`${read} px read > ${MAX_SOURCE_PIXELS}`);
  const size = width * height * 4;
  if (size * pages > MAX_GIF_DECODED_BYTES)
    throw overBudget(`${size * pages} bytes decoded > ${MAX_GIF_DECODED_BYTES}`);
  let strip = sharp(bytes, { animated: true, limitInputPixels: false })
    .resize({ width, height, fit: 'cover' })
    .ensureAlpha();
  if (flip.flipX) strip = strip.flop();
  const data = await strip.raw().toBuffer();
  if (flip.flipY) {
    // Each frame's rows reversed in place (a flip of the whole strip would reverse the frames).
    const row = width * 4;
    const swap = Buffer.allocUnsafe(row);
    for (let p = 0; p < pages; p++)
      for (let y = 0; y < height / 2; y++) {
        const a = p * size + y * row;
        const b = p * size + (height - 1 - y) * row;
        data.copy(swap, 0, a, a + row);
        data.copy(data, a, b, b + row);
        swap.copy(data, b);
      }
  }
  const delays = meta.delay ?? [];
  return {
    count: pages,
    width,
    height,
    delaysMs: Array.from({ length: pages }, (_, i) => playedDelay(delays[i])),
    frame: (index) => data.subarray(index * size, (index + 1) * size),
  };
}
