/**
 * The frames a still render blends into (renderer.ts `renderDesign`): copies of a design's static
 * layer, reused across renders with only what was blended into them copied back
 * (docs/performance.md "Render v2", "CPU per render, by process, and what was cut";
 * test/unit/render-frames.test.ts).
 */
import type { DrawnLayer } from '#shared/scene/pixel-runs.ts';
import { blendLayer, blendOver, clipRegion } from './blend.ts';

/** A design's static layer: its RGB bytes, `width` × `height` px (renderer.ts). */
export interface BaseLayer {
  raw: Buffer;
  width: number;
  height: number;
}

/** A still render's frame: a copy of `source` (a static layer's RGB bytes) blended into. */
export interface Frame {
  pixels: Buffer;
  source: Buffer;
  width: number;
  height: number;
  /** The rectangles blended into since the copy, px: only they differ from `source`. */
  touched: { left: number; top: number; w: number; h: number }[];
}

/** Spare frames for still renders; at most `MAX_SPARE_FRAMES` are kept, the newest. */
const spareFrames: Frame[] = [];
const MAX_SPARE_FRAMES = 4;

/**
 * A copy of the static layer's RGB bytes to blend into. A spare frame of the same layer gets only
 * its touched rectangles copied back from the layer; one of the same size gets the whole layer.
 * A fresh `Buffer.from` of the 1.9 MB frame (1000x625) per render cost ≈ 0.6 core-ms under load
 * zero-filling and copying, and most of the GC (docs/performance.md "Render v2", the CPU profile).
 */
export function takeFrame(base: BaseLayer): Frame {
  const same = spareFrames.findIndex((f) => f.source === base.raw);
  if (same >= 0) {
    const frame = spareFrames.splice(same, 1)[0]!;
    for (const r of frame.touched) restoreRect(frame, r.left, r.top, r.w, r.h);
    frame.touched = [];
    return frame;
  }
  const sized = spareFrames.findIndex((f) => f.pixels.length === base.raw.length);
  const pixels =
    sized < 0 ? Buffer.allocUnsafeSlow(base.raw.length) : spareFrames.splice(sized, 1)[0]!.pixels;
  base.raw.copy(pixels);
  return { pixels, source: base.raw, width: base.width, height: base.height, touched: [] };
}

/** Copies a rectangle (clipped as `blendOver` clips it) back from the frame's source. */
function restoreRect(frame: Frame, left: number, top: number, w: number, h: number): void {
  const { x0, x1, y0, y1 } = clipRegion(frame.width, frame.height, left, top, w, h);
  if (x1 <= x0) return;
  for (let y = y0; y < y1; y++) {
    const start = ((top + y) * frame.width + left + x0) * 3;
    frame.source.copy(frame.pixels, start, start, start + (x1 - x0) * 3);
  }
}

/** `blendOver` into a frame, remembering the rectangle for the frame's next use. */
export function blendInto(
  frame: Frame,
  left: number,
  top: number,
  w: number,
  h: number,
  rgba: Uint8Array,
): void {
  frame.touched.push({ left, top, w, h });
  blendOver(frame.pixels, frame.width, frame.height, left, top, w, h, rgba);
}

/** `blendLayer` of a drawn region into a frame, remembering its rectangle (as `blendInto`). */
export function blendLayerInto(frame: Frame, layer: DrawnLayer): void {
  frame.touched.push({ left: layer.left, top: layer.top, w: layer.width, h: layer.height });
  blendLayer(frame.pixels, frame.width, frame.height, layer);
}

/** Gives a frame back once nothing reads it any more (its encode has finished). */
export function releaseFrame(frame: Frame): void {
  if (spareFrames.length >= MAX_SPARE_FRAMES) spareFrames.shift();
  spareFrames.push(frame);
}
