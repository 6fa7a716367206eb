import { describe, expect, it } from 'vitest';
import { blendLayer, blendOver, blendPixelRuns } from '#functions/render/blend.ts';
import { decodePixelRuns, encodePixelRuns } from '#shared/scene/pixel-runs.ts';

describe('blendOver: source-over in 8-bit sRGB, as canvas blends', () => {
  it('replaces opaque pixels, keeps transparent ones, mixes partial alpha', () => {
    const target = Buffer.from([10, 20, 30, 10, 20, 30, 10, 20, 30]); // 3 x 1 px
    const rgba = new Uint8Array([255, 255, 255, 255, 0, 0, 0, 0, 200, 100, 0, 128]);
    blendOver(target, 3, 1, 0, 0, 3, 1, rgba);
    expect([...target]).toEqual([255, 255, 255, 10, 20, 30, 105, 60, 15]);
  });

  it('clips regions that reach past the edges', () => {
    const target = Buffer.alloc(2 * 2 * 3, 0);
    blendOver(target, 2, 2, 1, 1, 2, 2, new Uint8Array(16).fill(255));
    expect([...target]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255]);
  });

  it('gives ⌊(src·a + dst·(255−a) + 127) / 255⌋ for every source, target and alpha byte', () => {
    // One pixel per (src, dst) pair, for each alpha: the integer division form in blendOver
    // must equal the rounded division by 255 everywhere.
    const target = Buffer.alloc(256 * 256 * 3);
    const rgba = new Uint8Array(256 * 256 * 4);
    for (let a = 1; a < 255; a++) {
      for (let i = 0; i < 256 * 256; i++) {
        target[i * 3] = i & 255;
        target[i * 3 + 1] = i >> 8;
        target[i * 3 + 2] = 255 - (i & 255);
        rgba[i * 4] = i >> 8;
        rgba[i * 4 + 1] = i & 255;
        rgba[i * 4 + 2] = i >> 8;
        rgba[i * 4 + 3] = a;
      }
      const expected = target.map((d, k) =>
        Math.floor((rgba[Math.floor(k / 3) * 4 + (k % 3)]! * a + d * (255 - a) + 127) / 255),
      );
      blendOver(target, 256, 256, 0, 0, 256, 256, rgba);
      expect(target.equals(expected)).toBe(true);
    }
  });

  it('clips a region at every edge, and skips one wholly outside', () => {
    const target = Buffer.alloc(4 * 3 * 3, 9); // 4 x 3 px
    const rgba = new Uint8Array(3 * 2 * 4).fill(255);
    blendOver(target, 4, 3, -1, -1, 3, 2, rgba); // covers (0..1, 0)
    blendOver(target, 4, 3, 3, 2, 3, 2, rgba); // covers (3, 2)
    blendOver(target, 4, 3, 4, 0, 3, 2, rgba); // right of the target
    blendOver(target, 4, 3, 0, -2, 3, 2, rgba); // above the target
    const lit = [0, 1, 11];
    expect([...target]).toEqual(
      Array.from({ length: 36 }, (_, k) => (lit.includes(Math.floor(k / 3)) ? 255 : 9)),
    );
  });
});

/** A text-like region of `w` × `h` px from a seed: gaps, runs of one colour (opaque or not), edges. */
function textLikeRegion(w: number, h: number, seed: number): Uint8Array {
  let x = seed;
  const next = () => {
    x = (x * 1103515245 + 12345) >>> 0;
    return x >>> 24;
  };
  const out = new Uint8Array(w * h * 4);
  for (let p = 0; p < w * h;) {
    const kind = next() % 3;
    const run = 1 + (next() % 12);
    const colour = [next(), next(), next(), next() % 2 ? 255 : next()];
    for (let k = 0; k < run && p < w * h; k++, p++) {
      if (kind === 0) continue;
      out.set(kind === 1 ? colour : [next(), next(), next(), next()], p * 4);
    }
  }
  return out;
}

describe("blendPixelRuns: the page's pixel runs blended without expanding them", () => {
  it('gives the same bytes as blendOver of the expanded runs, wherever the region lies', () => {
    const width = 23;
    const height = 17;
    for (let seed = 1; seed <= 60; seed++) {
      const w = 1 + (seed % 19);
      const h = 1 + ((seed * 7) % 13);
      const rgba = textLikeRegion(w, h, seed);
      const runs = encodePixelRuns(rgba);
      // Inside, across every edge, and wholly outside.
      for (const [left, top] of [
        [2, 3],
        [-5, -4],
        [width - 3, height - 2],
        [-w, 0],
        [width, height],
      ] as const) {
        const base = Buffer.from(
          Array.from({ length: width * height * 3 }, (_, k) => (k * 31) & 255),
        );
        const expected = Buffer.from(base);
        blendOver(expected, width, height, left, top, w, h, decodePixelRuns(runs, w * h));
        blendPixelRuns(base, width, height, left, top, w, h, runs);
        expect(base.equals(expected)).toBe(true);
      }
    }
  });

  it('blends a region as the page hands it over, as runs or raw', () => {
    const rgba = textLikeRegion(9, 5, 3);
    const layer = { left: 1, top: 1, width: 9, height: 5 };
    const fromRuns = Buffer.alloc(12 * 8 * 3, 40);
    const fromRaw = Buffer.alloc(12 * 8 * 3, 40);
    const runs = Buffer.from(encodePixelRuns(rgba)).toString('base64');
    blendLayer(fromRuns, 12, 8, { ...layer, rgba: runs, encoding: 'runs' });
    blendLayer(fromRaw, 12, 8, { ...layer, rgba: Buffer.from(rgba).toString('base64') });
    expect(fromRuns.equals(fromRaw)).toBe(true);
    expect(fromRuns.equals(Buffer.alloc(12 * 8 * 3, 40))).toBe(false);
  });

  it('refuses malformed runs', () => {
    const target = Buffer.alloc(4 * 4 * 3);
    const runs = encodePixelRuns(textLikeRegion(4, 4, 5));
    expect(() => blendPixelRuns(target, 4, 4, 0, 0, 4, 3, runs)).toThrow(/past the region/);
    expect(() => blendPixelRuns(target, 4, 4, 0, 0, 4, 5, runs)).toThrow(/expected 20/);
    expect(() => blendPixelRuns(target, 4, 4, 0, 0, 1, 1, new Uint8Array([9, 1]))).toThrow(
      /unknown tag/,
    );
    expect(() => blendPixelRuns(target, 4, 4, 0, 0, 1, 1, new Uint8Array([2, 1, 0]))).toThrow(
      /cut short/,
    );
  });
});
