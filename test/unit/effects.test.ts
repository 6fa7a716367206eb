import { describe, expect, it } from 'vitest';
import { ENHANCE_RANGES, PIXELATE_MAX_PX, pixelateBlockSize } from '#shared/effects.ts';
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
