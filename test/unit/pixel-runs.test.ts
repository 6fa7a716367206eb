import { describe, expect, it } from 'vitest';
import { decodePixelRuns, encodePixelRuns, pixelRunsBound } from '#shared/scene/pixel-runs.ts';
import { layerPixels } from '#functions/render/blend.ts';

/** A deterministic pseudo-random byte source (xorshift32), so a failure can be replayed. */
function bytes(seed: number) {
  let x = seed || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) & 255;
  };
}

/**
 * A text-like region: transparent gaps, runs of the fill colour, anti-aliased edges of
 * every alpha, and a few pixels with alpha 0 but colour bytes set (not canvas output, kept too).
 */
function textLike(pixels: number, seed: number): Uint8Array {
  const next = bytes(seed);
  const out = new Uint8Array(pixels * 4);
  let p = 0;
  while (p < pixels) {
    const kind = next() % 4;
    const run = Math.min(pixels - p, 1 + (next() % 40));
    for (let k = 0; k < run; k++, p++) {
      const at = p * 4;
      if (kind === 0) continue; // transparent
      if (kind === 1) out.set([20, 30, 200, 255], at); // fill colour
      if (kind === 2) out.set([next(), next(), next(), next()], at); // edges
      if (kind === 3) out.set([next(), 0, 0, 0], at); // alpha 0, colour set
    }
  }
  return out;
}

describe('pixel runs: the render page hands text regions over as runs', () => {
  it('gives back exactly the bytes encoded, for text-like and random regions', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const pixels = 1 + ((seed * 7919) % 5000);
      for (const rgba of [
        textLike(pixels, seed),
        Uint8Array.from({ length: pixels * 4 }, bytes(seed)),
      ]) {
        const runs = encodePixelRuns(rgba);
        expect(Buffer.from(decodePixelRuns(runs, pixels)).equals(Buffer.from(rgba))).toBe(true);
        expect(runs.length).toBeLessThanOrEqual(pixels * 6 + 8);
      }
    }
  });

  it('makes a typical text region far smaller than its raw RGBA', () => {
    const rgba = textLike(30_000, 7);
    expect(encodePixelRuns(rgba).length).toBeLessThan(rgba.length * 0.6);
    // A blank region is a handful of bytes.
    expect(encodePixelRuns(new Uint8Array(4 * 100_000)).length).toBeLessThanOrEqual(4);
  });

  it('handles the edges: nothing, one pixel, long runs past one varint byte', () => {
    expect(encodePixelRuns(new Uint8Array(0)).length).toBe(0);
    expect([...decodePixelRuns(new Uint8Array(0), 0)]).toEqual([]);
    const one = new Uint8Array([1, 2, 3, 4]);
    expect([...decodePixelRuns(encodePixelRuns(one), 1)]).toEqual([1, 2, 3, 4]);
    const long = new Uint8Array(4 * 70_000);
    for (let p = 0; p < 70_000; p++) long.set([9, 8, 7, 255], p * 4);
    const runs = encodePixelRuns(long);
    expect(runs.length).toBe(1 + 3 + 4); // tag, a three-byte count, the pixel
    expect(Buffer.from(decodePixelRuns(runs, 70_000)).equals(Buffer.from(long))).toBe(true);
  });

  it('writes into a scratch buffer big enough for the worst case, and only then', () => {
    const rgba = textLike(2000, 9);
    const alone = encodePixelRuns(rgba);
    const scratch = new Uint8Array(pixelRunsBound(2000));
    const shared = encodePixelRuns(rgba, scratch);
    expect(Buffer.from(shared).equals(Buffer.from(alone))).toBe(true);
    expect(shared.buffer).toBe(scratch.buffer);
    const small = new Uint8Array(pixelRunsBound(2000) - 1);
    const own = encodePixelRuns(rgba, small);
    expect(own.buffer).not.toBe(small.buffer);
    expect(Buffer.from(own).equals(Buffer.from(alone))).toBe(true);
  });

  it('refuses malformed runs instead of handing over wrong pixels', () => {
    const runs = encodePixelRuns(textLike(500, 3));
    expect(() => decodePixelRuns(runs, 499)).toThrow(/past the region/);
    expect(() => decodePixelRuns(runs, 501)).toThrow(/expected 501/);
    expect(() => decodePixelRuns(runs.subarray(0, runs.length - 1), 500)).toThrow();
    expect(() => decodePixelRuns(new Uint8Array([7, 1]), 1)).toThrow(/unknown tag/);
    expect(() => decodePixelRuns(new Uint8Array([0, 0]), 1)).toThrow(/past the region/);
    expect(() => decodePixelRuns(new Uint8Array([0, 0x80, 0x80, 0x80, 0x80, 0x80]), 1)).toThrow(
      /bad count/,
    );
    expect(() => decodePixelRuns(new Uint8Array([1, 1, 5]), 1)).toThrow(/cut short/);
  });

  it('is what the render reads from a region handed over as runs, or as raw RGBA', () => {
    const rgba = textLike(1200, 11);
    const region = { left: 0, top: 0, width: 40, height: 30 };
    const asRuns = layerPixels({
      ...region,
      rgba: Buffer.from(encodePixelRuns(rgba)).toString('base64'),
      encoding: 'runs',
    });
    const asRaw = layerPixels({ ...region, rgba: Buffer.from(rgba).toString('base64') });
    expect(Buffer.from(asRuns).equals(Buffer.from(rgba))).toBe(true);
    expect(Buffer.from(asRaw).equals(Buffer.from(rgba))).toBe(true);
  });
});
