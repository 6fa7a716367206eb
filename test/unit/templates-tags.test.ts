/**
 * Template tags (shared/template-tags.ts; docs/templates.md "Model": "Tags: empty or
 * whitespace-only tags ignored; duplicates rejected with 'Current tag is already added'"): what the
 * tag editor and the server accept, and the related tags the tag editor suggests.
 */
import { describe, expect, it } from 'vitest';
import {
  addTag,
  checkTags,
  normalizeTag,
  relatedTags,
  TAG_MESSAGES,
} from '#shared/template-tags.ts';

describe('normalizeTag', () => {
  it('trims, folds whitespace runs and case, so "Sale" and " sale " are one tag', () => {
    expect(normalizeTag('  Black   Friday\t')).toBe('black friday');
    expect(normalizeTag('SALE')).toBe(normalizeTag(' sale '));
    expect(normalizeTag(' \n ')).toBe('');
  });
});

describe('addTag', () => {
  it('adds a new tag at the end', () => {
    expect(addTag(['sale'], ' Summer ')).toEqual({ tags: ['sale', 'summer'], added: true });
  });
  it('ignores an empty or whitespace-only tag without a message', () => {
    expect(addTag(['sale'], '   ')).toEqual({ tags: ['sale'], added: false });
  });
  it('refuses a duplicate, whatever its case or spacing, with the spec message', () => {
    const result = addTag(['black friday'], 'Black  FRIDAY');
    expect(result).toEqual({
      tags: ['black friday'],
      added: false,
      error: 'Current tag is already added.',
    });
  });
  it('refuses a tag over 50 characters and a 31st tag', () => {
    expect(addTag([], 'a'.repeat(51)).error).toBe(TAG_MESSAGES.tooLong);
    expect(addTag([], 'a'.repeat(50)).added).toBe(true);
    const full = Array.from({ length: 30 }, (_, i) => `tag ${i}`);
    expect(addTag(full, 'one more').error).toBe(TAG_MESSAGES.tooMany);
  });
});

describe('checkTags', () => {
  it('normalises a submitted list and drops empty entries', () => {
    expect(checkTags([' Sale', '', 'Beach  Party'])).toEqual({ tags: ['sale', 'beach party'] });
  });
  it('refuses duplicates and a list without any tag', () => {
    expect(checkTags(['sale', 'SALE'])).toEqual({ error: TAG_MESSAGES.duplicate });
    expect(checkTags(['  '])).toEqual({ error: TAG_MESSAGES.none });
  });
});

describe('relatedTags', () => {
  const templates = [
    ['sale', 'summer', 'beach'],
    ['sale', 'summer'],
    ['sale', 'winter'],
    ['coaching'],
  ];
  it('suggests the other tags of templates whose tag starts with the search, most used first', () => {
    expect(relatedTags(templates, 'sal')).toEqual(['sale', 'summer', 'beach', 'winter']);
    expect(relatedTags(templates, 'Sale')).toEqual(['summer', 'beach', 'winter']);
  });
  it('leaves out tags already added and keeps to the limit', () => {
    expect(relatedTags(templates, 'sale', ['summer'], 2)).toEqual(['beach', 'winter']);
  });
  it('has nothing to suggest for a search no template matches', () => {
    expect(relatedTags(templates, 'autumn')).toEqual([]);
  });
});
