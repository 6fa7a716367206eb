import { describe, expect, it } from 'vitest';
import {
  ENHANCE_RANGES,
  PIXELATE_MAX_PX,
  pixelateBlockSize,
  pixelateBlocks,
} from '#shared/effects.ts';
import { EffectsSchema } from '#shared/contract/designs.ts';

describe('pixelate (spec 000 §5 "Pixelate at 1 or below is ignored")', () => {
  it('ignores a value of 1 or below, and no value', () => {
    for (const value of [undefined, -5, 0, 0.5, 1, 1.4])
      expect(pixelateBlockSize(value)).toBe(null);
  });

  it('ignores values that are not finite numbers', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])
      expect(pixelateBlockSize(value)).toBe(null);
  });

  it('draws blocks of the value in whole px above 1', () => {
    expect(pixelateBlockSize(2)).toBe(2);
    expect(pixelateBlockSize(1.6)).toBe(2);
    expect(pixelateBlockSize(10)).toBe(10);
    expect(pixelateBlockSize(10.4)).toBe(10);
  });

  it('caps the block at 100 px', () => {
    expect(PIXELATE_MAX_PX).toBe(100);
    expect(pixelateBlockSize(100)).toBe(100);
    expect(pixelateBlockSize(101)).toBe(100);
    expect(pixelateBlockSize(1e9)).toBe(100);
  });

  it('is an enhancement the effects call accepts within 0..100', () => {
    expect(ENHANCE_RANGES.Pixelate).toEqual([0, 100]);
    expect(EffectsSchema.safeParse({ enhance: { Pixelate: 12 } }).success).toBe(true);
    expect(EffectsSchema.safeParse({ enhance: { Pixelate: 101 } }).success).toBe(false);
  });
});

describe('pixelateBlocks', () => {
  /** A `width`x`height` RGBA image whose red channel is `x + 10 * y`, opaque. */
  const ramp = (width: number, height: number) => {
    const data = new Uint8ClampedArray(width * height * 4);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        data[(y * width + x) * 4] = x + 10 * y;
        data[(y * width + x) * 4 + 3] = 255;
      }
    return data;
  };
  const red = (data: Uint8ClampedArray, width: number) =>
    Array.from({ length: data.length / 4 }, (_, i) => data[i * 4]).reduce<number[][]>(
      (rows, v, i) => {
        if (i % width === 0) rows.push([]);
        rows.at(-1)!.push(v!);
        return rows;
      },
      [],
    );

  it('fills each block with its mean colour, narrower blocks at the right and bottom edges', () => {
    const data = ramp(5, 3);
    pixelateBlocks(data, 5, 3, 2);
    // Blocks (x 0–1, 2–3, 4) × (y 0–1, 2): means of x + 10y.
    expect(red(data, 5)).toEqual([
      [6, 6, 8, 8, 9],
      [6, 6, 8, 8, 9],
      [21, 21, 23, 23, 24],
    ]);
    for (let i = 3; i < data.length; i += 4) expect(data[i]).toBe(255);
  });

  it('changes nothing with a block of 1 or below', () => {
    const data = ramp(4, 4);
    pixelateBlocks(data, 4, 4, 1);
    expect(data).toEqual(ramp(4, 4));
  });
});
