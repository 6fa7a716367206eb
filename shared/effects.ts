/**
 * The base photo's filters and enhancements as data
 * (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and
 * restore"), without fabric: the Lambda validates with these, and `shared/scene/filters.ts` draws
 * them in the browser.
 */

/** The filter list of docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore", in the order they apply. */
export const FILTER_NAMES = [
  'Grayscale',
  'Invert',
  'Sepia',
  'BlackWhite',
  'Brownie',
  'Vintage',
  'Kodachrome',
  'Technicolor',
  'Polaroid',
] as const;
export type FilterName = (typeof FILTER_NAMES)[number];

/**
 * Enhancement ranges (docs/adr/0014-the-design-document-versions-and-restore.md "The design
 * document: versions and restore": Brightness, Contrast, Saturation -1..1; Hue -2..2; Blur 0..1);
 * Sharpen and Emboss are on/off as 1/0; Pixelate is a block size in canvas px, 0..100
 * (docs/editor.md "Editing rules": "Pixelate at 1 or below is ignored"; the 100 px cap is ours,
 * docs/adr/0050-pixelate-and-legacy-base-image-scaling.md "Pixelate and legacy base-image
 * scaling"). Values outside are clamped when drawn.
 */
export const ENHANCE_RANGES = {
  Brightness: [-1, 1],
  Contrast: [-1, 1],
  Saturation: [-1, 1],
  Hue: [-2, 2],
  Blur: [0, 1],
  Sharpen: [0, 1],
  Emboss: [0, 1],
  Pixelate: [0, 100],
} as const;
export type EnhanceName = keyof typeof ENHANCE_RANGES;

/** Largest pixelate block, canvas px (docs/adr/0050-pixelate-and-legacy-base-image-scaling.md "Pixelate and legacy base-image scaling"). */
export const PIXELATE_MAX_PX = ENHANCE_RANGES.Pixelate[1];

/**
 * The pixelate block size drawn for an `enhance.Pixelate` value (docs/editor.md "Editing rules";
 * test/unit/effects.test.ts): `null` (no pixelate) when absent, not a finite number, or at most 1;
 * otherwise rounded to whole px and capped at {@link PIXELATE_MAX_PX} (100 px).
 * @param value the stored value, canvas px.
 * @returns the block edge in canvas px (2..100), or null.
 */
export function pixelateBlockSize(value: number | undefined): number | null {
  if (value === undefined || !Number.isFinite(value) || value <= 1) return null;
  const size = Math.min(PIXELATE_MAX_PX, Math.round(value));
  return size > 1 ? size : null;
}

/**
 * Pixelates RGBA pixels in place (docs/editor.md "Editing rules"; docs/editor.md "Filters and
 * enhancements"): square blocks of `block` px from the top-left corner (the last row and column of
 * blocks may be narrower), each filled with its mean colour (every channel, alpha too, rounded).
 * The mean rather than one sample, so that two slightly different resamplings of a photo (the
 * editor's, the render's) give nearly the same blocks. A `block` of 1 or below changes nothing.
 * @param data `width`x`height` RGBA bytes, row by row (an ImageData's `data`).
 * @param block the block edge, px (from {@link pixelateBlockSize}).
 */
export function pixelateBlocks(
  data: Uint8ClampedArray,
  width: number,
  height: number,
  block: number,
): void {
  if (!(block > 1)) return;
  const sums = [0, 0, 0, 0];
  for (let top = 0; top < height; top += block) {
    const bottom = Math.min(top + block, height);
    for (let left = 0; left < width; left += block) {
      const right = Math.min(left + block, width);
      sums.fill(0);
      for (let y = top; y < bottom; y++)
        for (let x = left; x < right; x++)
          for (let c = 0; c < 4; c++) sums[c]! += data[(y * width + x) * 4 + c]!;
      const count = (bottom - top) * (right - left);
      const mean = sums.map((sum) => Math.round(sum / count));
      for (let y = top; y < bottom; y++)
        for (let x = left; x < right; x++)
          for (let c = 0; c < 4; c++) data[(y * width + x) * 4 + c] = mean[c]!;
    }
  }
}
