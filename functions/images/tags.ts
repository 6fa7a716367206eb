/**
 * An image's suggested tags (docs/adr/0017-user-files.md "User files" `GET /image/{imageId}/tags` →
 * `result.tags[].tag.en`; the tag editor's related tags, docs/adr/0017-user-files.md "User files").
 * The answer keeps the spec's shape, which is that of an auto-tagging service; the suggestions come
 * from the product's own data, with no outside call:
 * 1. the tags of templates made from the same image (docs/adr/0017-user-files.md "User files"
 *    Template `image_id`, `tags`), most used first, confidence = share of those templates carrying
 *    the tag (0–100);
 * 2. then the words of the image's title (a library photo's "Autumn by the lake" gives
 *    `autumn`, `lake`), confidence 10, skipping short and common words.
 * Tags are normalised as the tag editor stores them (shared/template-tags.ts).
 */
import type { TagSuggestion } from '#shared/contract/images.ts';
import { normalizeTag, MAX_TAG_LENGTH } from '#shared/template-tags.ts';
import { readTemplates, tagsOf } from '#functions/templates/catalogue.ts';
import { parseDesignDocument } from '#shared/design.ts';
import { visibleImage } from './library.ts';

/** Most suggestions answered. */
export const MAX_SUGGESTED_TAGS = 20;
/** Confidence given to a word of the image's title, 0–100. */
const TITLE_WORD_CONFIDENCE = 10;
/** Title words that say nothing about a picture. */
const STOP_WORDS = new Set(
  'a an and at by for from in into of on or the to with over under upload photo image img jpg jpeg png'.split(
    ' ',
  ),
);

/**
 * The suggested tags of an image the team may see.
 * @returns `{ result: { tags } }`, at most {@link MAX_SUGGESTED_TAGS}, best first.
 * @throws AppError 404 for an image the team cannot see (visibleImage).
 */
export async function imageTags(
  teamId: string,
  imageId: string,
): Promise<{ result: { tags: TagSuggestion[] } }> {
  const image = await visibleImage(teamId, imageId);
  const templates = [
    ...(await readTemplates('active')),
    ...(await readTemplates('archived')),
  ].filter((t) => parseDesignDocument(t.document).image_id === imageId);
  const counts = new Map<string, number>();
  for (const t of templates)
    for (const tag of new Set(tagsOf(t))) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  const tags: TagSuggestion[] = [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([en, n]) => ({ confidence: Math.round((n / templates.length) * 100), tag: { en } }));
  const seen = new Set(tags.map((t) => t.tag.en));
  for (const word of image.title.split(/[^\p{L}\p{N}]+/u)) {
    const tag = normalizeTag(word).slice(0, MAX_TAG_LENGTH);
    if (tag.length < 3 || STOP_WORDS.has(tag) || /^\d+$/.test(tag) || seen.has(tag)) continue;
    seen.add(tag);
    tags.push({ confidence: TITLE_WORD_CONFIDENCE, tag: { en: tag } });
  }
  return { result: { tags: tags.slice(0, MAX_SUGGESTED_TAGS) } };
}
