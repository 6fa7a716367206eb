/**
 * Which font families are the team's uploaded fonts (spec 000 §5 "Bold and italic are not
 * supported for uploaded fonts"; §8 'This action is not supported for uploaded fonts!'). The
 * bold and italic commands (./text.ts) read it in their refusal, so the toolbar buttons and the
 * Mod+B / Mod+I shortcuts share one rule; the set-font-family command reads it to make a snippet
 * plain when it switches to an uploaded font.
 *
 * Two sources fill it, kept for the page's life:
 * - the team's uploaded fonts list (`GET /getCustomFonts`), read once as the editor opens
 *   (`loadUploadedFonts`, started by the text toolbar), so the rule does not wait for a family
 *   to be drawn first;
 * - each family the font loader resolved as an upload (`source: 'custom'`, `noteUploadedFont`),
 *   which also covers a font uploaded after the list was read.
 * Family names compare without case, as CSS does. Until the list has answered, a family the
 * loader has not resolved counts as not uploaded (docs/decisions.md).
 */
import { fetchCustomFonts } from '../../fonts/api.ts';

const uploaded = new Set<string>();
let listRequest: Promise<void> | undefined;

const keyOf = (family: string) => family.trim().toLowerCase();

/** Records that `family` is one of the team's uploaded fonts. */
export function noteUploadedFont(family: string): void {
  uploaded.add(keyOf(family));
}

/** Whether `family` is known to be an uploaded font. */
export const isUploadedFont = (family: string): boolean => uploaded.has(keyOf(family));

/**
 * Reads the team's uploaded fonts list once per page and notes each family. A failed read is
 * logged and tried again on the next call (the loader's notes still apply meanwhile).
 * @param read the list's request (tests pass a stand-in); families in `family`.
 * @returns when the list is noted (never rejects).
 */
export function loadUploadedFonts(
  read: () => Promise<readonly { family: string }[]> = fetchCustomFonts,
): Promise<void> {
  listRequest ??= read().then(
    (fonts) => fonts.forEach((font) => noteUploadedFont(font.family)),
    (error: unknown) => {
      listRequest = undefined;
      console.error('the uploaded fonts list could not be read', error);
    },
  );
  return listRequest;
}

/** Forgets every family and the list's request (tests). */
export function forgetUploadedFonts(): void {
  uploaded.clear();
  listRequest = undefined;
}
