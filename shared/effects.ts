/**
 * The base photo's filters and enhancements as data (spec 000 §3), without fabric: the Lambda
 * validates with these, and `shared/scene/filters.ts` draws them in the browser.
 */

/** The filter list of spec 000 §3, in the order they apply. */
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
 * Enhancement ranges (spec 000 §3: Brightness, Contrast, Saturation -1..1; Hue -2..2; Blur
 * 0..1); Sharpen and Emboss are on/off as 1/0. Values outside are clamped when drawn.
 */
export const ENHANCE_RANGES = {
  Brightness: [-1, 1],
  Contrast: [-1, 1],
  Saturation: [-1, 1],
  Hue: [-2, 2],
  Blur: [0, 1],
  Sharpen: [0, 1],
  Emboss: [0, 1],
} as const;
export type EnhanceName = keyof typeof ENHANCE_RANGES;
