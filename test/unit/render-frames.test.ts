import { describe, expect, it } from 'vitest';
import {
  blendInto,
  blendLayerInto,
  releaseFrame,
  takeFrame,
  type BaseLayer,
} from '#functions/render/frames.ts';
import { encodePixelRuns } from '#shared/scene/pixel-runs.ts';

/** A static layer of `width` × `height` px whose every byte differs from its neighbours'. */
function layer(width: number, height: number, seed: number): BaseLayer {
  const raw = Buffer.alloc(width * height * 3);
  for (let k = 0; k < raw.length; k++) raw[k] = (k * 7 + seed * 13) & 255;
  return { raw, width, height };
}

/** An opaque white region with a transparent hole, `w` × `h` px. */
function ink(w: number, h: number): Uint8Array {
  const rgba = new Uint8Array(w * h * 4).fill(255);
  for (let k = 3; k < rgba.length; k += 4 * 3) rgba[k] = 0;
  return rgba;
}

describe('render frames: a reused frame holds nothing of the render before', () => {
  it('gives back the static layer byte for byte after regions were blended anywhere', () => {
    const base = layer(40, 30, 1);
    const frame = takeFrame(base);
    // Inside, over every edge, past a corner, and wholly outside; raw and as pixel runs.
    const places: Array<[number, number, number, number]> = [
      [3, 4, 10, 6],
      [-5, -3, 12, 9],
      [33, 25, 12, 9],
      [-2, 20, 50, 4],
      [45, 0, 5, 5],
    ];
    for (const [left, top, w, h] of places) blendInto(frame, left, top, w, h, ink(w, h));
    blendLayerInto(frame, {
      left: 30,
      top: -2,
      width: 15,
      height: 8,
      rgba: Buffer.from(encodePixelRuns(ink(15, 8))).toString('base64'),
      encoding: 'runs',
    });
    expect(frame.pixels.equals(base.raw)).toBe(false);
    const drawn = frame.pixels;
    releaseFrame(frame);

    const again = takeFrame(base);
    expect(again.pixels).toBe(drawn); // the same memory, reused
    expect(again.pixels.equals(base.raw)).toBe(true);
    releaseFrame(again);
  });

  it('copies another layer of the same size whole, and never hands one frame out twice', () => {
    const first = layer(20, 10, 2);
    const second = layer(20, 10, 3);
    const frame = takeFrame(first);
    blendInto(frame, 0, 0, 20, 10, ink(20, 10));
    releaseFrame(frame);
    const other = takeFrame(second);
    expect(other.pixels.equals(second.raw)).toBe(true);
    const another = takeFrame(second);
    expect(another.pixels).not.toBe(other.pixels);
    expect(another.pixels.equals(second.raw)).toBe(true);
    releaseFrame(other);
    releaseFrame(another);
  });
});
