/**
 * Which font families are the team's uploaded fonts (docs/editor.md "Editing rules": "Bold and
 * italic are not supported for uploaded fonts"; docs/editor.md "Messages" 'This action is not
 * supported for uploaded fonts!'). The bold and italic commands (./text.ts) read it in their
 * refusal, so the toolbar buttons and the Mod+B / Mod+I shortcuts share one rule; the
 * set-font-family command reads it to make a snippet plain when it switches to an uploaded font.
 *
 * Three sources fill it, for the current team:
 * - the team's uploaded fonts list (`GET /getCustomFonts`), read once as the editor opens
 *   (`loadUploadedFonts`, started by the text toolbar), so the rule does not wait for a family
 *   to be drawn first;
 * - every list the font loader learns (`onUploadedFonts`: the picker's read, an upload while
 *   the editor is open, the loader's own read);
 * - each family the font loader resolved as an upload (`source: 'custom'`, `noteUploadedFont`).
 * When the current team changes (`setFontTeam`, a switch without a page load), the set and the
 * list's request are forgotten. Family names compare without case, as CSS does. Until the list
 * has answered, a family the loader has not resolved counts as not uploaded
 * (docs/decisions.md).
 */
import { fetchCustomFonts } from '../../fonts/api.ts';
import { onUploadedFonts } from '../../fonts/loadFont.ts';

const uploaded = new Set<string>();
let listRequest: Promise<void> | undefined;

onUploadedFonts((custom) => {
  if (custom) custom.forEach((font) => noteUploadedFont(font.family));
  else forgetUploadedFonts();
});

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
  const request = (listRequest ??= read().then(
    (fonts) => {
      // Answered for the previous team: its families are not this team's.
      if (listRequest === request) fonts.forEach((font) => noteUploadedFont(font.family));
    },
    (error: unknown) => {
      if (listRequest === request) listRequest = undefined;
      console.error('the uploaded fonts list could not be read', error);
    },
  ));
  return request;
}

/** Forgets every family and the list's request (a team switch; tests). */
export function forgetUploadedFonts(): void {
  uploaded.clear();
  listRequest = undefined;
}
