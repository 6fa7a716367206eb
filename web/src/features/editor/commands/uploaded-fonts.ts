/**
 * Which font families are the team's uploaded fonts, as far as the editor has learnt (spec 000
 * §5 "Bold and italic are not supported for uploaded fonts"; §8 'This action is not supported
 * for uploaded fonts!'). The bold and italic commands (./text.ts) read it in their refusal, so
 * the toolbar buttons and the Mod+B / Mod+I shortcuts share one rule.
 *
 * The document only names a family; whether it is an upload is known once the font loader has
 * resolved it (`loadFont` answers `source: 'custom'`). The text toolbar reports each uploaded
 * family it resolved here (`noteUploadedFont`); the knowledge is kept for the page's life, so
 * selecting the snippet again does not open a gap while the loader answers again. Family names
 * compare without case, as CSS does. A family never resolved yet counts as not uploaded: only a
 * shortcut pressed in the first moments after first selecting such a snippet could slip through
 * (docs/decisions.md).
 */

const uploaded = new Set<string>();

const keyOf = (family: string) => family.trim().toLowerCase();

/** Records that the font loader resolved `family` as an uploaded font (`source: 'custom'`). */
export function noteUploadedFont(family: string): void {
  uploaded.add(keyOf(family));
}

/** Whether `family` is known to be an uploaded font. */
export const isUploadedFont = (family: string): boolean => uploaded.has(keyOf(family));

/** Forgets every family (tests). */
export function forgetUploadedFonts(): void {
  uploaded.clear();
}
