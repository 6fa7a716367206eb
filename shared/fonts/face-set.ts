/**
 * Registers `@font-face` rules as FontFace objects, once each: the one registration path of the
 * editor (web/src/features/fonts/loadFont.ts) and the render page
 * (functions/render/page/src/main.ts), so both ask the browser for the same faces.
 * Browser-only (FontFace, FontFaceSet); imports no catalogue data.
 */
import { cssFamily } from './css.ts';
import type { FontFaceRule } from './types.ts';

/** The faces registered so far in this document, by family, url, weight and style. */
const registered = new Map<string, FontFace>();

/** How many faces this module added or removed so far (a change counter for caches). */
let changes = 0;

/**
 * A counter of the faces this module added to or removed from `document.fonts`: a cache of the
 * document's faces (the editor's unicode-range index) is stale when it differs.
 */
export const fontFaceChanges = (): number => changes;

const keyOf = (r: FontFaceRule) => `${r.family}\n${r.url}\n${r.weight}\n${r.style}`;

/**
 * Adds each rule not yet registered to `document.fonts` as a FontFace. Nothing downloads until
 * text needs a face (`document.fonts.load` or drawing).
 * @param resolveUrl turns a rule's URL into the one the document fetches (the render page
 *   puts its own origin in front of `/files/fonts/…`).
 * @returns how many rules were new.
 */
export function registerFontFaces(
  rules: readonly FontFaceRule[],
  resolveUrl: (url: string) => string = (url) => url,
): number {
  let added = 0;
  for (const rule of rules) {
    const key = keyOf(rule);
    if (registered.has(key)) continue;
    const face = new FontFace(
      rule.family,
      `url("${encodeURI(resolveUrl(rule.url))}") format("${rule.format}")`,
      {
        weight: String(rule.weight),
        style: rule.style,
        display: 'block',
        ...(rule.unicodeRange ? { unicodeRange: rule.unicodeRange } : {}),
      },
    );
    // FontFaceSet is set-like (add); the Node project's DOM types lack dom.iterable.
    (document.fonts as unknown as { add(face: FontFace): void }).add(face);
    registered.set(key, face);
    changes++;
    added++;
  }
  return added;
}

/**
 * Takes the faces of `rules` out of `document.fonts` (the editor, when the current team changes:
 * the previous team's uploaded fonts must not draw its next design). Text drawn later in those
 * families falls back as for an unknown family; rules never registered are skipped.
 * @returns how many faces were removed.
 */
export function unregisterFontFaces(rules: readonly FontFaceRule[]): number {
  let removed = 0;
  for (const rule of rules) {
    const key = keyOf(rule);
    const face = registered.get(key);
    if (!face) continue;
    (document.fonts as unknown as { delete(face: FontFace): boolean }).delete(face);
    registered.delete(key);
    changes++;
    removed++;
  }
  return removed;
}

/**
 * Loads the faces of `family` that `text` needs at a style and weight, unless they are loaded.
 * @returns true when at least one face of the family is loaded for the text afterwards.
 */
export async function loadFontFaces(
  family: string,
  text: string,
  style: 'normal' | 'italic' = 'normal',
  weight: 'normal' | 'bold' = 'normal',
): Promise<boolean> {
  const spec = `${style} ${weight} 16px ${cssFamily(family)}`;
  const faces = await document.fonts.load(spec, text || ' ');
  return faces.some((f) => f.status === 'loaded');
}
