/**
 * The design title field's rules (docs/editor.md "Architecture": "Editable design title: saves on
 * blur, Enter key is blocked", docs/editor.md "Editing rules": "Design title"). The server applies
 * the same rules (functions/designs/titles.ts); the editor checks first so a bad title never leaves
 * the page.
 */

/** Longest title, characters (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore", docs/editor.md "Editing rules"). */
export const MAX_TITLE_LENGTH = 255;

/** The spec's message, word for word (docs/editor.md "Editing rules"). */
export const TITLE_TOO_LONG = 'The title may not be greater than 255 characters';

/** What to do with the title field's text when it loses focus. */
export type TitleEdit =
  | { kind: 'save'; title: string }
  /** Empty or only spaces: the field shows the old title again (docs/editor.md "Editing rules"). */
  | { kind: 'revert' }
  /** The same title (after trimming): nothing is saved (docs/editor.md "Editing rules"). */
  | { kind: 'unchanged' }
  /** Too long: the spec's message, and nothing is saved. */
  | { kind: 'invalid'; message: string };

/**
 * Decides what a title edit does (docs/editor.md "Editing rules"): trimmed first, as the server
 * trims; blank reverts, unchanged does nothing, over 255 characters is refused with the spec's
 * message.
 * @param saved the design's current title.
 * @param typed the field's text.
 */
export function titleEdit(saved: string, typed: string): TitleEdit {
  const title = typed.trim();
  if (title === '') return { kind: 'revert' };
  if (title.length > MAX_TITLE_LENGTH) return { kind: 'invalid', message: TITLE_TOO_LONG };
  if (title === saved) return { kind: 'unchanged' };
  return { kind: 'save', title };
}
