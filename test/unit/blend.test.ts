import { describe, expect, it } from 'vitest';
import { blendOver } from '#functions/render/renderer.ts';

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
