/**
 * Blending the render page's drawn regions onto a frame's RGB pixels (renderer.ts): raw RGBA
 * (`blendOver`) or pixel runs straight from the page (`blendPixelRuns`,
 * shared/scene/pixel-runs.ts), both in 8-bit sRGB as the browser's canvas blends.
 */
import {
  decodePixelRuns,
  forEachPixelRun,
  PIXEL_RUN,
  type DrawnLayer,
} from '#shared/scene/pixel-runs.ts';

/**
 * Source-over blending of straight RGBA pixels onto RGB pixels, in place, in 8-bit sRGB as the
 * browser's canvas blends: `out = (src·a + dst·(255−a)) / 255`, rounded. Pixels outside the
 * target are skipped.
 *
 * The rows and columns inside the target are found once, and the division by 255 is the exact
 * integer form `(v + 1 + (v >> 8)) >> 8` of `⌊v / 255⌋` for `v = src·a + dst·(255−a) + 127`
 * (0–65,152): the same bytes as before, ≈ 30 % less CPU (docs/performance.md "Render v2", the
 * CPU profile; equality over every `v` and clipped regions in test/unit/blend.test.ts).
 * @param target RGB bytes, `width` × `height` px.
 * @param rgba the region's RGBA bytes, `w` × `h` px, placed at `left`, `top`.
 */
export function blendOver(
  target: Buffer,
  width: number,
  height: number,
  left: number,
  top: number,
  w: number,
  h: number,
  rgba: Uint8Array,
): void {
  const { x0, x1, y0, y1 } = clipRegion(width, height, left, top, w, h);
  for (let y = y0; y < y1; y++) {
    // s: the source pixel's alpha byte; t: the target pixel's first byte.
    let s = (y * w + x0) * 4 + 3;
    let t = ((top + y) * width + left + x0) * 3;
    for (let x = x0; x < x1; x++, s += 4, t += 3) mixPixel(target, t, rgba, s);
  }
}

/**
 * The part of a `w` × `h` region placed at `left`, `top` that lies on a `width` × `height`
 * target, in the region's own px: columns `x0`…`x1 − 1`, rows `y0`…`y1 − 1` (nothing when
 * `x1 ≤ x0` or `y1 ≤ y0`).
 */
export function clipRegion(
  width: number,
  height: number,
  left: number,
  top: number,
  w: number,
  h: number,
): { x0: number; x1: number; y0: number; y1: number } {
  return {
    x0: Math.max(0, -left),
    x1: Math.min(w, width - left),
    y0: Math.max(0, -top),
    y1: Math.min(h, height - top),
  };
}

/**
 * Blends one straight RGBA pixel (alpha at `source[s]`, colour in the three bytes before it)
 * over the RGB pixel at `target[t]`, with the exact integer division of `blendOver`.
 */
function mixPixel(target: Buffer, t: number, source: Uint8Array, s: number): void {
  const a = source[s]!;
  if (a === 0) return;
  if (a === 255) {
    target[t] = source[s - 3]!;
    target[t + 1] = source[s - 2]!;
    target[t + 2] = source[s - 1]!;
    return;
  }
  const ia = 255 - a;
  let v = source[s - 3]! * a + target[t]! * ia + 127;
  target[t] = (v + 1 + (v >> 8)) >> 8;
  v = source[s - 2]! * a + target[t + 1]! * ia + 127;
  target[t + 1] = (v + 1 + (v >> 8)) >> 8;
  v = source[s - 1]! * a + target[t + 2]! * ia + 127;
  target[t + 2] = (v + 1 + (v >> 8)) >> 8;
}

/**
 * `blendOver` of pixel runs, without expanding them: transparent runs are skipped whole, a run of
 * one pixel is blended from that one pixel, literal pixels as they come. The same bytes as
 * `blendOver(target, …, decodePixelRuns(runs, w · h))` (test/unit/blend.test.ts), without the
 * region's RGBA buffer.
 * @param target RGB bytes, `width` × `height` px.
 * @param runs the region's pixel runs, `w` × `h` px, placed at `left`, `top`.
 * @throws Error when the runs are malformed (as `decodePixelRuns`); the target may then hold
 *   part of the region, and the caller drops the frame.
 */
export function blendPixelRuns(
  target: Buffer,
  width: number,
  height: number,
  left: number,
  top: number,
  w: number,
  h: number,
  runs: Uint8Array,
): void {
  const { x0, x1, y0, y1 } = clipRegion(width, height, left, top, w, h);
  forEachPixelRun(runs, w * h, (tag, from, count, payload) => {
    if (tag === PIXEL_RUN.transparent) return;
    // Where each covered pixel's source is: one pixel for a run, in turn for literals.
    const step = tag === PIXEL_RUN.repeat ? 0 : 4;
    let source = payload;
    // The covered pixels, row piece by row piece, clipped to the target.
    for (let p = from, end = from + count; p < end;) {
      const y = Math.floor(p / w);
      const x = p - y * w;
      const n = Math.min(end - p, w - x);
      if (y >= y0 && y < y1) {
        const first = Math.max(x, x0);
        const last = Math.min(x + n, x1);
        let s = source + (first - x) * step + 3;
        let t = ((top + y) * width + left + first) * 3;
        for (let c = first; c < last; c++, s += step, t += 3) mixPixel(target, t, runs, s);
      }
      source += n * step;
      p += n;
    }
  });
}

/**
 * Blends a drawn region of the page onto RGB pixels, as raw RGBA or as pixel runs.
 * @param target RGB bytes, `width` × `height` px.
 * @throws Error when the region's pixel runs are malformed.
 */
export function blendLayer(target: Buffer, width: number, height: number, layer: DrawnLayer): void {
  const bytes = Buffer.from(layer.rgba, 'base64');
  if (layer.encoding === 'runs')
    blendPixelRuns(target, width, height, layer.left, layer.top, layer.width, layer.height, bytes);
  else blendOver(target, width, height, layer.left, layer.top, layer.width, layer.height, bytes);
}

/**
 * A drawn region's straight RGBA bytes, `width` × `height` px: its base64 decoded, and pixel
 * runs expanded (the page hands text regions over as runs; the static layer as raw RGBA).
 * @throws Error when the runs are malformed (shared/scene/pixel-runs.ts `decodePixelRuns`).
 */
export function layerPixels(layer: DrawnLayer): Uint8Array {
  const bytes = Buffer.from(layer.rgba, 'base64');
  return layer.encoding === 'runs' ? decodePixelRuns(bytes, layer.width * layer.height) : bytes;
}
