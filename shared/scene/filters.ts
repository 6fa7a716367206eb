/**
 * The base image's filters and enhancements as fabric filters
 * (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and
 * restore"), shared by the editor and the render page so both show the same picture. Browser-only.
 */
import { Canvas2dFilterBackend, filters, setFilterBackend } from 'fabric';

export { ENHANCE_RANGES, FILTER_NAMES } from '../effects.ts';
import { ENHANCE_RANGES, FILTER_NAMES } from '../effects.ts';
import { STICKER_COLOUR_MODE } from './sticker-filters.ts';

const clamp = (v: number, [lo, hi]: readonly [number, number]) => Math.min(hi, Math.max(lo, v));

/**
 * The CPU filter backend everywhere: WebGL output differs by GPU, and the render page runs on a
 * software GL; the 2D backend gives the editor and the render the same pixels.
 */
export function selectDeterministicFilterBackend(): void {
  setFilterBackend(new Canvas2dFilterBackend());
}

/**
 * Builds the fabric filter chain for a design's `filters` and `enhance` maps. `enhance.Pixelate`
 * is not in it: shared/scene/draw.ts applies it after the chain (`pixelateBlocks`, block means,
 * whichever filter backend fabric picked), so every pixel of a block is one colour.
 */
export function fabricFilters(
  on: Record<string, boolean>,
  enhance: Record<string, number>,
): filters.BaseFilter<string>[] {
  const out: filters.BaseFilter<string>[] = [];
  const fixed: Record<(typeof FILTER_NAMES)[number], () => filters.BaseFilter<string>> = {
    Grayscale: () => new filters.Grayscale(),
    Invert: () => new filters.Invert(),
    Sepia: () => new filters.Sepia(),
    BlackWhite: () => new filters.BlackWhite(),
    Brownie: () => new filters.Brownie(),
    Vintage: () => new filters.Vintage(),
    Kodachrome: () => new filters.Kodachrome(),
    Technicolor: () => new filters.Technicolor(),
    Polaroid: () => new filters.Polaroid(),
  };
  for (const name of FILTER_NAMES) if (on[name]) out.push(fixed[name]());
  const e = (name: keyof typeof ENHANCE_RANGES) =>
    enhance[name] === undefined || Number.isNaN(enhance[name])
      ? 0
      : clamp(enhance[name]!, ENHANCE_RANGES[name]);
  if (e('Brightness') !== 0) out.push(new filters.Brightness({ brightness: e('Brightness') }));
  if (e('Contrast') !== 0) out.push(new filters.Contrast({ contrast: e('Contrast') }));
  if (e('Saturation') !== 0) out.push(new filters.Saturation({ saturation: e('Saturation') }));
  if (e('Hue') !== 0) out.push(new filters.HueRotation({ rotation: e('Hue') }));
  if (e('Blur') !== 0) out.push(new filters.Blur({ blur: e('Blur') }));
  if (e('Sharpen') > 0)
    out.push(new filters.Convolute({ matrix: [0, -1, 0, -1, 5, -1, 0, -1, 0] }));
  if (e('Emboss') > 0)
    out.push(new filters.Convolute({ matrix: [1, 1, 1, 1, 0.7, -1, -1, -1, -1] }));
  return out;
}

/**
 * The fabric filters that draw a sticker's colour (shared/scene/sticker-filters.ts `stickerColour`): one `BlendColor` in mode screen at full
 * strength, or none when `colour` is undefined.
 */
export function stickerColourFilters(colour: string | undefined): filters.BlendColor[] {
  if (colour === undefined) return [];
  return [new filters.BlendColor({ color: colour, mode: STICKER_COLOUR_MODE, alpha: 1 })];
}
