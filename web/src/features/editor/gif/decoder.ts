/**
 * Animated GIF decoding for the editor's playback (docs/adr/0059-gif-playback.md "GIF playback"):
 * gifuct-js (a small, dependency-light GIF parser: LZW and frame patches) reads the frames; this
 * module composes them into whole pictures the way browsers play them (each frame's patch over the
 * picture so far, then its disposal), with their delays. Pure: no DOM, so unit tests run it.
 */
import { decompressFrame, parseGIF, type ParsedFrame, type ParsedGif } from 'gifuct-js';
import { MAX_GIF_DECODED_BYTES, MAX_GIF_FRAMES } from '#shared/gif.ts';

/** One composed frame: straight RGBA of the whole GIF (`width` × `height` px) and its delay. */
export interface GifFrame {
  rgba: Uint8ClampedArray;
  /** How long the frame shows, ms (browsers' rule: a delay of 10 ms or less plays as 100 ms). */
  delayMs: number;
}

/** A decoded GIF: its size in px and its frames in order. */
export interface GifAnimation {
  width: number;
  height: number;
  frames: GifFrame[];
}

/** The frame patch fields composition needs (gifuct-js `ParsedFrame`). */
export type FramePatch = Pick<ParsedFrame, 'dims' | 'patch' | 'delay' | 'disposalType'>;

/** Browsers play a GIF delay of 10 ms or less (0 included) as 100 ms. */
export const playedDelay = (delayMs: number): number => (delayMs > 10 ? delayMs : 100);

/**
 * Composes frame patches into whole frames (GIF89a disposal methods): a patch's opaque pixels
 * replace the picture's; then disposal 2 clears the frame's rectangle to transparent, 3 puts
 * back the picture from before the frame, 0 and 1 keep it. Stops at {@link MAX_GIF_FRAMES}
 * frames or when the next frame would pass `maxBytes`.
 * @param width the GIF's logical screen size, px.
 */
export function composeFrames(
  patches: Iterable<FramePatch>,
  width: number,
  height: number,
  maxBytes = MAX_GIF_DECODED_BYTES,
): GifFrame[] {
  const size = width * height * 4;
  const count = Math.min(MAX_GIF_FRAMES, Math.max(1, Math.floor(maxBytes / size)));
  const picture = new Uint8ClampedArray(size);
  const frames: GifFrame[] = [];
  // Pulled one at a time: a lazy source (decodeGif's) decodes no frame past the caps.
  for (const { dims, patch, delay, disposalType } of patches) {
    const before = disposalType === 3 ? picture.slice() : null;
    for (let y = 0; y < dims.height; y++) {
      const ty = dims.top + y;
      if (ty < 0 || ty >= height) continue;
      for (let x = 0; x < dims.width; x++) {
        const tx = dims.left + x;
        if (tx < 0 || tx >= width) continue;
        const s = (y * dims.width + x) * 4;
        if (patch[s + 3] === 0) continue;
        picture.set(patch.subarray(s, s + 4), (ty * width + tx) * 4);
      }
    }
    frames.push({ rgba: picture.slice(), delayMs: playedDelay(delay) });
    if (disposalType === 2) {
      for (let y = Math.max(0, dims.top); y < Math.min(height, dims.top + dims.height); y++) {
        const from = (y * width + Math.max(0, dims.left)) * 4;
        const to = (y * width + Math.min(width, dims.left + dims.width)) * 4;
        picture.fill(0, from, Math.max(from, to));
      }
    } else if (before) {
      picture.set(before);
    }
    if (frames.length >= count) break;
  }
  return frames;
}

/**
 * The frame patches of a parsed GIF, decoded one at a time as they are asked for, so that
 * {@link composeFrames} stopping at its caps leaves the rest undecoded: a few-MB GIF of
 * thousands of near-empty frames would otherwise allocate gigabytes of patches first
 * (test/unit/gif-decoder.test.ts).
 */
function* framePatches(parsed: ParsedGif): Generator<FramePatch> {
  for (const frame of parsed.frames) {
    if ('image' in frame && frame.image) yield decompressFrame(frame, parsed.gct, true);
  }
}

/**
 * Decodes a GIF's bytes into its composed frames.
 * @throws Error when the bytes are not a GIF or hold no frame.
 */
export function decodeGif(bytes: ArrayBuffer, maxBytes = MAX_GIF_DECODED_BYTES): GifAnimation {
  const head = new Uint8Array(bytes, 0, Math.min(4, bytes.byteLength));
  if (String.fromCharCode(...head) !== 'GIF8') throw new Error('not a GIF');
  const parsed = parseGIF(bytes);
  const { width, height } = parsed.lsd;
  const frames = composeFrames(framePatches(parsed), width, height, maxBytes);
  if (frames.length === 0) throw new Error('the GIF has no frame');
  return { width, height, frames };
}
