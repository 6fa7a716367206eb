/**
 * The design's JPEG output settings as the editor's "Output quality" control edits them
 * (docs/editor.md "Output quality"): the bounds of the quality number, reading what the user
 * typed, and the estimated file size next to the default's.
 */
import { DEFAULT_RENDER_QUALITY, type RenderQuality } from '#shared/design.ts';

/** The JPEG quality bounds, whole numbers (shared/design.ts `RenderQualitySchema`; test/unit/output-quality.test.ts keeps them equal). */
export const QUALITY_MIN = 1;
export const QUALITY_MAX = 100;

/** The field error for a quality outside the bounds or not a whole number. */
export const QUALITY_MESSAGE = `Enter a whole number from ${QUALITY_MIN} to ${QUALITY_MAX}.`;

/**
 * Reads the quality field as typed.
 * @param text the field's text ("86", " 90 ", "")
 * @returns the quality, or the message to show under the field (nothing is saved then).
 * @example readQuality('90') → { value: 90 }; readQuality('0') → { error: QUALITY_MESSAGE }
 */
export function readQuality(text: string): { value: number } | { error: string } {
  const trimmed = text.trim();
  if (!/^\d{1,3}$/.test(trimmed)) return { error: QUALITY_MESSAGE };
  const value = Number(trimmed);
  return value >= QUALITY_MIN && value <= QUALITY_MAX ? { value } : { error: QUALITY_MESSAGE };
}

/** The document's setting, today's defaults for a document without one. */
export const qualityOf = (quality: RenderQuality | undefined): RenderQuality =>
  quality ?? { ...DEFAULT_RENDER_QUALITY };

/** Whether the setting is today's default (the "Reset" button is off then). */
export const isDefaultQuality = (q: RenderQuality): boolean =>
  q.quality === DEFAULT_RENDER_QUALITY.quality &&
  q.progressive === DEFAULT_RENDER_QUALITY.progressive &&
  q.chromaSubsampling === DEFAULT_RENDER_QUALITY.chromaSubsampling;

/**
 * Measured file size relative to the default (quality 86, baseline, 4:2:0), by quality, for
 * 4:2:0 and 4:4:4 (baseline): the mean over the eight seed photos at 1000 × 625 px with a
 * headline and 18 px small print, sharp's libjpeg-turbo (docs/editor.md "Output quality").
 * Progressive files measured 1–6 % smaller than baseline ones.
 */
const SIZE_TABLE: ReadonlyArray<readonly [quality: number, s420: number, s444: number]> = [
  [1, 0.06, 0.11],
  [10, 0.14, 0.2],
  [20, 0.23, 0.31],
  [30, 0.31, 0.42],
  [40, 0.38, 0.5],
  [50, 0.44, 0.59],
  [60, 0.51, 0.68],
  [70, 0.62, 0.83],
  [80, 0.8, 1.08],
  [86, 1, 1.35],
  [90, 1.22, 1.65],
  [95, 1.8, 2.4],
  [100, 3.8, 5.84],
];

/**
 * The estimated file size of a setting next to the default's, interpolated in the measured
 * table (progressive counted as baseline).
 * @returns a ratio (1 = the default's size), rounded to two decimals.
 */
export function estimatedSize(q: RenderQuality): number {
  const column = q.chromaSubsampling === '4:4:4' ? 2 : 1;
  const quality = Math.min(QUALITY_MAX, Math.max(QUALITY_MIN, q.quality));
  let ratio = SIZE_TABLE[SIZE_TABLE.length - 1]![column];
  for (let i = 1; i < SIZE_TABLE.length; i++) {
    const lo = SIZE_TABLE[i - 1]!;
    const hi = SIZE_TABLE[i]!;
    if (quality <= hi[0]) {
      const t = (quality - lo[0]) / (hi[0] - lo[0]);
      ratio = lo[column] + t * (hi[column] - lo[column]);
      break;
    }
  }
  return Math.round(ratio * 100) / 100;
}

/**
 * The size hint under the controls.
 * @example sizeHint(default) → 'About the default file size.'
 * @example sizeHint({ quality: 90, … '4:2:0' }) → 'About 22 % larger than the default.'
 * @example sizeHint({ quality: 95, … '4:4:4' }) → 'About 2.4 × the default file size.'
 */
export function sizeHint(q: RenderQuality): string {
  const ratio = estimatedSize(q);
  if (ratio >= 0.95 && ratio <= 1.05) return 'About the default file size.';
  if (ratio < 1) return `About ${Math.round((1 - ratio) * 100)} % smaller than the default.`;
  if (ratio < 1.5) return `About ${Math.round((ratio - 1) * 100)} % larger than the default.`;
  return `About ${ratio.toFixed(1)} × the default file size.`;
}
