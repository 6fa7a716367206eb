/**
 * The frame of an animated GIF a design saved (docs/decisions.md "GIF playback"): the render
 * draws that still, decoded by sharp (`page`), bounded in frames and pixels.
 */
import sharp, { type SharpOptions } from 'sharp';
import { isGif, MAX_GIF_FRAMES, MAX_GIF_FRAME_PIXELS } from '#shared/gif.ts';

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
