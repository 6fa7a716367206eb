/**
 * Template tags (docs/templates.md "Model" Template `tags`, PicSnippet `image_tags`;
 * "Tags: empty or whitespace-only tags ignored; duplicates rejected with
 * 'Current tag is already added' shown for 3 seconds"). One set of rules for the editor's tag
 * editor and the server's `POST /admin/template/{action}`, so what the editor accepts the server
 * stores unchanged.
 *
 * A tag is stored normalised: trimmed, inner whitespace runs made one space, lower case (tags
 * are search words: `Sale` and `sale` are one tag), at most {@link MAX_TAG_LENGTH} characters.
 */

/** Longest tag, characters (a search word; the spec gives no limit, docs/templates.md). */
export const MAX_TAG_LENGTH = 50;

/** Most tags on one template (docs/templates.md). */
export const MAX_TAGS = 30;

/** Messages of the tag rules (docs/editor.md "Messages" for the duplicate). */
export const TAG_MESSAGES = {
  duplicate: 'Current tag is already added.',
  tooLong: `A tag may not be greater than ${MAX_TAG_LENGTH} characters.`,
  tooMany: `A template may have at most ${MAX_TAGS} tags.`,
  none: 'Add at least one tag.',
} as const;

/** How long the duplicate-tag message shows, ms (docs/templates.md "Model": "duplicate tag 3 s"). */
export const TAG_ERROR_MS = 3000;

/**
 * A tag as stored: trimmed, whitespace runs made single spaces, lower case (NFC).
 * @returns '' for an empty or whitespace-only tag (docs/templates.md "Model": ignored).
 */
export function normalizeTag(raw: string): string {
  return raw.normalize('NFC').replace(/\s+/gu, ' ').trim().toLowerCase();
}

/** The result of adding one tag: the new list, or why the tag was not added. */
export interface TagAddition {
  tags: string[];
  /** False when the tag was empty (ignored silently) or refused (`error`). */
  added: boolean;
  /** One of {@link TAG_MESSAGES} when the tag was refused. */
  error?: string;
}

/**
 * Adds a typed tag to a list (the tag editor's Enter or Shift+Enter, docs/templates.md "Model").
 * @param tags the current tags, already normalised.
 * @param raw what the user typed.
 * @returns the list with the normalised tag appended; unchanged with `added: false` for an
 *   empty tag (no error: docs/templates.md "Model": "ignored"), a duplicate
 *   (`TAG_MESSAGES.duplicate`), a tag over {@link MAX_TAG_LENGTH} characters, or a full list.
 */
export function addTag(tags: readonly string[], raw: string): TagAddition {
  const tag = normalizeTag(raw);
  const same = { tags: [...tags], added: false };
  if (tag === '') return same;
  if (tags.includes(tag)) return { ...same, error: TAG_MESSAGES.duplicate };
  if (tag.length > MAX_TAG_LENGTH) return { ...same, error: TAG_MESSAGES.tooLong };
  if (tags.length >= MAX_TAGS) return { ...same, error: TAG_MESSAGES.tooMany };
  return { tags: [...tags, tag], added: true };
}

/**
 * Checks a submitted list of tags as the server stores it: each normalised, empty ones
 * dropped (docs/templates.md "Model"), the rest all accepted or the list refused.
 * @returns the normalised tags, or the first error (a {@link TAG_MESSAGES} text); a list
 *   without any tag is refused with `TAG_MESSAGES.none` (a template is found by its tags, and
 *   the save modal's state depends on stored tags, docs/templates.md "Model").
 */
export function checkTags(raw: readonly string[]): { tags: string[] } | { error: string } {
  let tags: string[] = [];
  for (const item of raw) {
    const next = addTag(tags, item);
    if (next.error) return { error: next.error };
    tags = next.tags;
  }
  return tags.length === 0 ? { error: TAG_MESSAGES.none } : { tags };
}

/**
 * Tags related to a search (the tag editor's "related tags", docs/templates.md "Screens"): the
 * other tags of the templates that carry a tag matching `search`, most frequent first, then A to Z.
 * @param templates the tags of each template considered.
 * @param search a tag or the start of one; '' relates every tag.
 * @param exclude tags not to suggest (those already added).
 * @param limit most suggestions.
 */
export function relatedTags(
  templates: readonly (readonly string[])[],
  search: string,
  exclude: readonly string[] = [],
  limit = 10,
): string[] {
  const q = normalizeTag(search);
  const counts = new Map<string, number>();
  for (const tags of templates) {
    if (q !== '' && !tags.some((t) => t.startsWith(q))) continue;
    for (const tag of tags) {
      if (tag === q || exclude.includes(tag)) continue;
      counts.set(tag, (counts.get(tag) ?? 0) + 1);
    }
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([tag]) => tag);
}
