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
});
