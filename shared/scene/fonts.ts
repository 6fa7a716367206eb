/**
 * Font families the scene can draw with, shared by the editor and the render page.
 *
 * Every text layer is drawn with its own family first, then the default font (docs/editor.md
 * "Messages" "Unknown fonts fall back to the default font": Journal,
 * docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and
 * restore"), then the fallback stack, so a value in a script the design's font lacks still shows
 * (docs/adr/0004-render-slice.md "Render slice", "Text fitting"; docs/fonts.md "The fallback
 * stack"). Its faces come from @fontsource (and the emoji font's own package), declared with
 * `unicode-range` so a render or an editor session downloads only the subsets its text uses;
 * shared/fonts/generate-stack.ts writes their `@font-face` rules for both. Which files draw a
 * design's family (built-in, hosted, uploaded, CDN) is decided in shared/fonts/catalogue.ts.
 */
import { DEFAULT_FONT_FAMILY } from '../fonts/defaults.ts';

/**
 * The fallback stack, in the order the browser tries it for a character the layer's family
 * lacks. The first five are the stack of earlier releases, kept in front and in their order so
 * that every character they drew is drawn as before; each family added after them draws only
 * what none before it does (their latin subsets are never shipped, generate-stack.ts).
 */
export const FALLBACK_STACK = [
  // Latin, Greek, Cyrillic, Vietnamese, Devanagari.
  'Noto Sans',
  'Noto Sans Arabic',
  'Noto Sans Hebrew',
  // Before SC: Noto Sans SC also holds monochrome glyphs for some emoji code points.
  'Noto Color Emoji',
  // Simplified Chinese, with kana for most Japanese.
  'Noto Sans SC',
  'Noto Sans Thaana',
  'Noto Sans Bengali',
  'Noto Sans Gurmukhi',
  'Noto Sans Gujarati',
  'Noto Sans Oriya',
  'Noto Sans Tamil',
  'Noto Sans Telugu',
  'Noto Sans Kannada',
  'Noto Sans Malayalam',
  'Noto Sans Sinhala',
  'Noto Sans Thai',
  'Noto Sans Lao',
  'Noto Sans Khmer',
  'Noto Sans Myanmar',
  'Noto Sans Georgian',
  'Noto Sans Armenian',
  'Noto Sans Ethiopic',
  // Kanji and Han characters SC lacks, then Traditional Chinese, then Hangul.
  'Noto Sans JP',
  'Noto Sans TC',
  'Noto Sans KR',
] as const;

/**
 * The families of the stack a text snippet can also be set in (the font picker offers them, as
 * before the stack grew): their faces are shipped whole, latin subsets included, so text set in
 * one draws as it always did. The others are there for the fallback only.
 */
export const STACK_TEXT_FAMILIES: readonly string[] = [
  'Noto Sans',
  'Noto Sans Arabic',
  'Noto Sans Hebrew',
  'Noto Sans SC',
];

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
