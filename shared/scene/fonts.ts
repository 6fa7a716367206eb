/**
 * Font families the scene can draw with, shared by the editor and the render page.
 *
 * Every text layer is drawn with its own family first, then the default font (spec 000 §8
 * "Unknown fonts fall back to the default font": Journal, spec 000 §3), then the fallback
 * stack, so a value in a script the design's font lacks still shows (DESIGN.md §5, "Text
 * fitting"): Noto Sans (latin, cyrillic, greek, vietnamese), Arabic, Hebrew, Simplified Chinese
 * (which also covers most Japanese kanji and kana) and Noto Color Emoji, loaded through
 * `@font-face` from @fontsource in both the editor and the render page. Which files draw a
 * family (built-in, hosted, uploaded, CDN) is decided in shared/fonts/catalogue.ts.
 */
import { DEFAULT_FONT_FAMILY } from '../fonts/defaults.ts';

export const FALLBACK_STACK = [
  'Noto Sans',
  'Noto Sans Arabic',
  'Noto Sans Hebrew',
  // Before SC: Noto Sans SC also holds monochrome glyphs for some emoji code points.
  'Noto Color Emoji',
  'Noto Sans SC',
] as const;

/**
 * The CSS/canvas `font-family` list for a layer's family:
 * `"Family", "Journal", "Noto Sans", …, sans-serif`. A family without faces (unknown, or its
 * file failed to load) is skipped by the browser, so the default font draws it.
 */
export function fontFamilyList(family: string): string {
  const names = [family, DEFAULT_FONT_FAMILY, ...FALLBACK_STACK].filter(
    (f, i, all) => all.findIndex((g) => g.toLowerCase() === f.toLowerCase()) === i,
  );
  return [...names.map((n) => `"${n.replace(/["\\]/g, '')}"`), 'sans-serif'].join(', ');
}
