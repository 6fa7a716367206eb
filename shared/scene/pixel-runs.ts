/**
 * The render page's pixel hand-off (docs/performance.md "Render v2", "Pixel runs"): a drawn region
 * crosses the DevTools protocol as base64 text, so every byte handed over costs base64 and JSON
 * work in Chromium and in node. Text layers are mostly transparent gaps and runs of one colour,
 * so the page hands them over as *pixel runs*, about 40 % of the raw RGBA, and node expands them
 * back to the same bytes before blending (test/unit/pixel-runs.test.ts).
 *
 * Format, a sequence of records `tag, count, payload`: `count` is an unsigned LEB128 varint
 * (pixels, ≥ 1), and
 * - tag 0: `count` transparent pixels (all four bytes 0), no payload;
 * - tag 1: `count` copies of one pixel, payload its 4 RGBA bytes;
 * - tag 2: `count` pixels as they are, payload `4 · count` RGBA bytes.
 */

/**
 * A drawn region: straight (not premultiplied) RGBA pixels of the rectangle
 * `left, top, width, height` (canvas px). `rgba` is base64 of the raw RGBA bytes, or of their
 * pixel runs when `encoding` is `'runs'`.
 */
export interface DrawnLayer {
  left: number;
  top: number;
  width: number;
  height: number;
  rgba: string;
  encoding?: 'runs';
}

/** The record tags (format above). */
export const PIXEL_RUN = { transparent: 0, repeat: 1, literal: 2 } as const;
const { transparent: TRANSPARENT, repeat: REPEAT, literal: LITERAL } = PIXEL_RUN;
/** The shortest run of one colour written as a repeat record (shorter ones stay literal). */
const MIN_REPEAT = 3;
/** The largest record count accepted: a 16384 x 16384 canvas, in pixels. */
const MAX_PIXELS = 16384 * 16384;

/**
 * The most bytes the runs of `pixels` pixels take: 6 a pixel (a one-pixel literal record between
 * two others) and room for one record header.
 */
export const pixelRunsBound = (pixels: number): number => pixels * 6 + 8;

/**
 * Encodes RGBA bytes as pixel runs (format above). Linear in the pixels.
 * @param rgba straight RGBA, 4 bytes a pixel; its `byteOffset` must be a multiple of 4.
 * @param scratch where to write when it holds `pixelRunsBound(pixels)` bytes (the render page
 *   keeps one, so a draw allocates no worst-case buffer per region); the runs then share its
 *   memory and are valid until it is written again. Otherwise a new buffer is made.
 * @returns the runs: at most `pixelRunsBound` bytes, usually far fewer.
 * @throws RangeError when the length is not a whole number of pixels.
 */
export function encodePixelRuns(rgba: Uint8Array, scratch?: Uint8Array): Uint8Array {
  if (rgba.length % 4 !== 0) throw new RangeError('RGBA bytes must be whole pixels');
  const pixels = rgba.length / 4;
  const words = new Uint32Array(rgba.buffer, rgba.byteOffset, pixels);
  const bound = pixelRunsBound(pixels);
  const out = scratch && scratch.length >= bound ? scratch : new Uint8Array(bound);
  let o = 0;
  const record = (tag: number, count: number) => {
    out[o++] = tag;
    let rest = count;
    while (rest >= 0x80) {
      out[o++] = (rest & 0x7f) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    out[o++] = rest;
  };
  let literalFrom = -1;
  const endLiteral = (end: number) => {
    if (literalFrom < 0) return;
    record(LITERAL, end - literalFrom);
    out.set(rgba.subarray(literalFrom * 4, end * 4), o);
    o += (end - literalFrom) * 4;
    literalFrom = -1;
  };
  let i = 0;
  while (i < pixels) {
    const word = words[i]!;
    let j = i + 1;
    while (j < pixels && words[j] === word) j++;
    if (word === 0) {
      endLiteral(i);
      record(TRANSPARENT, j - i);
    } else if (j - i >= MIN_REPEAT) {
      endLiteral(i);
      record(REPEAT, j - i);
      out.set(rgba.subarray(i * 4, i * 4 + 4), o);
      o += 4;
    } else if (literalFrom < 0) {
      literalFrom = i;
    }
    i = j;
  }
  endLiteral(pixels);
  return out.subarray(0, o);
}

/** @throws Error unless `pixels` is a whole number from 0 to `MAX_PIXELS`. */
function checkPixelCount(pixels: number): void {
  if (!Number.isInteger(pixels) || pixels < 0 || pixels > MAX_PIXELS)
    throw new Error(`pixel runs: bad pixel count ${pixels}`);
}

/**
 * Walks the records of pixel runs (format above), checking them as it goes.
 * @param pixels how many pixels the runs must hold (the region's width × height).
 * @param visit called per record with its tag, its first pixel, its pixel count and where its
 *   payload starts in `runs` (the one pixel of a repeat, the first of literals).
 * @throws Error when the runs are malformed: an unknown tag, a count of 0 or past `pixels`, a
 *   payload cut short, or fewer pixels than `pixels`. Records before the bad one were visited.
 */
export function forEachPixelRun(
  runs: Uint8Array,
  pixels: number,
  visit: (tag: number, from: number, count: number, payload: number) => void,
): void {
  checkPixelCount(pixels);
  let i = 0;
  let p = 0;
  while (i < runs.length) {
    const tag = runs[i++]!;
    let count = 0;
    let scale = 1;
    for (;;) {
      if (i >= runs.length || scale > 0x10000000) throw new Error('pixel runs: bad count');
      const byte = runs[i++]!;
      count += (byte & 0x7f) * scale;
      scale *= 0x80;
      if (byte < 0x80) break;
    }
    if (count < 1 || count > pixels - p) throw new Error('pixel runs: count past the region');
    const bytes = tag === REPEAT ? 4 : tag === LITERAL ? count * 4 : 0;
    if (tag > LITERAL) throw new Error(`pixel runs: unknown tag ${tag}`);
    if (i + bytes > runs.length) throw new Error('pixel runs: payload cut short');
    visit(tag, p, count, i);
    i += bytes;
    p += count;
  }
  if (p !== pixels) throw new Error(`pixel runs: ${p} pixels, expected ${pixels}`);
}

/**
 * Expands pixel runs (format above) back to RGBA bytes, exactly those that were encoded.
 * @param runs the encoded records.
 * @param pixels how many pixels they must hold (the region's width × height).
 * @returns `pixels · 4` RGBA bytes.
 * @throws Error when the runs are malformed (`forEachPixelRun`).
 */
export function decodePixelRuns(runs: Uint8Array, pixels: number): Uint8Array {
  checkPixelCount(pixels);
  const out = new Uint8Array(pixels * 4);
  forEachPixelRun(runs, pixels, (tag, from, count, payload) => {
    const at = from * 4;
    if (tag === REPEAT) {
      out.set(runs.subarray(payload, payload + 4), at);
      // Doubling copies: log2(count) native copies instead of one per pixel.
      for (let filled = 1; filled < count; filled *= 2) {
        const n = Math.min(filled, count - filled);
        out.copyWithin(at + filled * 4, at, at + n * 4);
      }
    } else if (tag === LITERAL) {
      out.set(runs.subarray(payload, payload + count * 4), at);
    }
  });
  return out;
}
