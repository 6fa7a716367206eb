/**
 * Font families the scene can draw with, shared by the editor and the render page.
 *
 * Every text layer is drawn with its own family first, then the fallback stack, so a value in a
 * script the design's font lacks still shows (DESIGN.md §5, "Text fitting"): Noto Sans (latin,
 * cyrillic, greek, vietnamese), Arabic, Hebrew, Simplified Chinese (which also covers most
 * Japanese kanji and kana) and Noto Color Emoji, loaded through `@font-face` from @fontsource
 * in both the editor and the render page.
 */
export const FALLBACK_STACK = [
  'Noto Sans',
  'Noto Sans Arabic',
  'Noto Sans Hebrew',
  // Before SC: Noto Sans SC also holds monochrome glyphs for some emoji code points.
  'Noto Color Emoji',
  'Noto Sans SC',
] as const;

/** The CSS/canvas `font-family` list for a layer's family: `"Family", "Noto Sans", sans-serif`. */
export function fontFamilyList(family: string): string {
  const names = [family, ...FALLBACK_STACK.filter((f) => f !== family)];
  return [...names.map((n) => `"${n.replace(/["\\]/g, '')}"`), 'sans-serif'].join(', ');
}
