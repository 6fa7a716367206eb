/**
 * The editor's "Output quality" control logic (docs/editor.md "Output quality"): the quality
 * field's bounds match the document schema's, what the user types is read or refused with one
 * message, and the size hint compares a setting with the default by the measured table.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_RENDER_QUALITY, RenderQualitySchema, type RenderQuality } from '#shared/design.ts';
import {
  QUALITY_MAX,
  QUALITY_MESSAGE,
  QUALITY_MIN,
  estimatedSize,
  isDefaultQuality,
  qualityOf,
  readQuality,
  sizeHint,
} from '../../web/src/features/editor/output/quality.ts';

const setting = (over: Partial<RenderQuality> = {}): RenderQuality => ({
  ...DEFAULT_RENDER_QUALITY,
  ...over,
});

describe('quality bounds', () => {
  it('are the schema’s: the ends are accepted, one past them refused', () => {
    for (const q of [QUALITY_MIN, QUALITY_MAX])
      expect(RenderQualitySchema.safeParse(setting({ quality: q })).success).toBe(true);
    for (const q of [QUALITY_MIN - 1, QUALITY_MAX + 1, 50.5])
      expect(RenderQualitySchema.safeParse(setting({ quality: q })).success).toBe(false);
  });
});

describe('readQuality', () => {
  it('reads whole numbers within 1–100, spaces around allowed', () => {
    expect(readQuality('1')).toEqual({ value: 1 });
    expect(readQuality(' 90 ')).toEqual({ value: 90 });
    expect(readQuality('100')).toEqual({ value: 100 });
  });

  it('refuses empty, out-of-range, decimal, signed and long input with the field message', () => {
    for (const text of ['', '0', '101', '86.5', '-5', '1e2', 'abc', '0000086'])
      expect(readQuality(text), text).toEqual({ error: QUALITY_MESSAGE });
    expect(QUALITY_MESSAGE).toBe('Enter a whole number from 1 to 100.');
  });
});

describe('defaults', () => {
  it('a document without the setting gets today’s values; only they count as the default', () => {
    expect(qualityOf(undefined)).toEqual({
      quality: 86,
      progressive: false,
      chromaSubsampling: '4:2:0',
    });
    expect(isDefaultQuality(setting())).toBe(true);
    expect(isDefaultQuality(setting({ quality: 85 }))).toBe(false);
    expect(isDefaultQuality(setting({ progressive: true }))).toBe(false);
    expect(isDefaultQuality(setting({ chromaSubsampling: '4:4:4' }))).toBe(false);
  });
});

describe('estimated size', () => {
  it('is the default’s at the default, grows with quality and with 4:4:4', () => {
    expect(estimatedSize(setting())).toBe(1);
    let last = 0;
    for (let q = QUALITY_MIN; q <= QUALITY_MAX; q++) {
      const size = estimatedSize(setting({ quality: q }));
      expect(size).toBeGreaterThanOrEqual(last);
      expect(estimatedSize(setting({ quality: q, chromaSubsampling: '4:4:4' }))).toBeGreaterThan(
        size,
      );
      last = size;
    }
    expect(estimatedSize(setting({ quality: 88 }))).toBeCloseTo(1.11, 2);
    expect(estimatedSize(setting({ progressive: true }))).toBe(1);
  });

  it('says it in words a user reads', () => {
    expect(sizeHint(setting())).toBe('About the default file size.');
    expect(sizeHint(setting({ quality: 70 }))).toBe('About 38 % smaller than the default.');
    expect(sizeHint(setting({ quality: 90 }))).toBe('About 22 % larger than the default.');
    expect(sizeHint(setting({ chromaSubsampling: '4:4:4' }))).toBe(
      'About 35 % larger than the default.',
    );
    expect(sizeHint(setting({ quality: 95, chromaSubsampling: '4:4:4' }))).toBe(
      'About 2.4 × the default file size.',
    );
  });
});
