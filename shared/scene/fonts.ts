/**
 * Font families the scene can draw with, shared by the editor and the render page.
 *
 * Every text layer is drawn with its own family first, then the fallback stack, so a value in a
 * script the design's font lacks still shows (DESIGN.md §5, "Text fitting"). The foundation
 * ships Noto Sans (latin, cyrillic, greek, vietnamese); the render issue adds Noto Sans Arabic,
 * Hebrew, SC/JP/KR and Noto Color Emoji to this stack.
 */
export const FALLBACK_STACK = ['Noto Sans'] as const;

/** The CSS/canvas `font-family` list for a layer's family: `"Family", "Noto Sans", sans-serif`. */
export function fontFamilyList(family: string): string {
  const names = [family, ...FALLBACK_STACK.filter((f) => f !== family)];
  return [...names.map((n) => `"${n.replace(/["\\]/g, '')}"`), 'sans-serif'].join(', ');
}
