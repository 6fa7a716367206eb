/**
 * Sticker search and paging rules (library.ts): what a user typing in the Stickers panel's
 * search box finds, in which order, and how lists are cut into pages.
 */
import { describe, expect, it } from 'vitest';
import { foldForSearch, pageOf, ranked, searchScore, STICKER_PAGE_SIZE } from './library.ts';

describe('sticker search', () => {
  it('ignores case, accents, punctuation and extra spaces', () => {
    expect(foldForSearch('  Crème   BRÛLÉE! ')).toBe('creme brulee');
    expect(searchScore(foldForSearch('CRÈME'), 'creme brulee')).not.toBeNull();
  });

  it('needs every word, in the name or the keywords', () => {
    expect(searchScore('party', 'party popper', ['tada'])).toBe(1);
    expect(searchScore('tada', 'party popper', ['tada', 'hooray'])).toBe(3);
    expect(searchScore('party tada', 'party popper', ['tada'])).toBe(3);
    expect(searchScore('party cake', 'party popper', ['tada'])).toBeNull();
  });

  it('ranks the exact name, then names starting with the search, then other names, then keywords', () => {
    const names = [
      { name: 'red heart', keywords: [] },
      { name: 'heart with ribbon', keywords: [] },
      { name: 'love letter', keywords: ['heart'] },
      { name: 'heart', keywords: [] },
      { name: 'pizza', keywords: [] },
    ];
    expect(
      ranked(names, (n) => searchScore('heart', n.name, n.keywords)).map((n) => n.name),
    ).toEqual(['heart', 'heart with ribbon', 'red heart', 'love letter']);
  });
});

describe('sticker pages', () => {
  const items = Array.from({ length: 50 }, (_, i) => i);

  it(`cuts ${STICKER_PAGE_SIZE} a page and says which is the last`, () => {
    expect(pageOf(items, 1)).toMatchObject({
      data: items.slice(0, 24),
      current_page: 1,
      last_page: 3,
      per_page: 24,
      total: 50,
    });
    expect(pageOf(items, 3).data).toEqual([48, 49]);
    expect(pageOf(items, 4).data).toEqual([]);
  });

  it('has one (empty) page when there is nothing', () => {
    expect(pageOf([], 1)).toMatchObject({ data: [], last_page: 1, total: 0 });
  });
});
