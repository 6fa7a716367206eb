/**
 * Design title rules (docs/adr/0014-the-design-document-versions-and-restore.md "The design
 * document: versions and restore": "title (max 255)", docs/editor.md "Editing rules": "Design
 * title"): at most 255 characters, with the spec's message; an empty or whitespace-only title keeps
 * the old one; an unchanged title is not saved. Titles are trimmed first, as the spec's server
 * (Laravel's TrimStrings) did before validating.
 */
import { validationFailed } from '#lib/errors.ts';

/** Longest title, characters (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore", docs/editor.md "Editing rules"). */
export const MAX_TITLE_LENGTH = 255;

/** The spec's message, word for word (docs/editor.md "Editing rules"). */
export const TITLE_TOO_LONG = 'The title may not be greater than 255 characters';

/** Prefix of a clone's title (docs/editor.md "Editing rules": "titles the copy 'Copy of - ' in front"). */
export const COPY_TITLE_PREFIX = 'Copy of - ';

/**
 * The title to save, if any.
 * @param current the stored title.
 * @param submitted what the client sent (undefined or null: no title in the call).
 * @returns the trimmed new title, or undefined when nothing is to be saved (not sent, blank,
 *   or the same as the stored one).
 * @throws AppError 422 `{ title: ['The title may not be greater than 255 characters'] }`.
 */
export function titleChange(
  current: string,
  submitted: string | null | undefined,
): string | undefined {
  const title = submitted?.trim();
  if (!title) return undefined;
  if (title.length > MAX_TITLE_LENGTH) throw validationFailed({ title: [TITLE_TOO_LONG] });
  return title === current ? undefined : title;
}

/**
 * The title of a new design: the submitted one when it is not blank, else `fallback`.
 * @throws AppError 422 (`title`) when the submitted title is too long.
 */
export function newTitle(submitted: string | null | undefined, fallback: string): string {
  const title = submitted?.trim();
  if (!title) return fallback.slice(0, MAX_TITLE_LENGTH);
  if (title.length > MAX_TITLE_LENGTH) throw validationFailed({ title: [TITLE_TOO_LONG] });
  return title;
}

/** A clone's title: `Copy of - {title}`, cut to 255 characters. */
export const copyTitle = (title: string): string =>
  `${COPY_TITLE_PREFIX}${title}`.slice(0, MAX_TITLE_LENGTH);
