import { describe, expect, it } from 'vitest';
import {
  ALL_FONTS,
  UPLOADED,
  filterFonts,
  fontCategories,
  moveActive,
} from '../../web/src/features/fonts/pickerLogic.ts';
import { customFontsOf } from '../../web/src/features/fonts/api.ts';
import type { FontGroup } from '#shared/fonts/types.ts';

const groups: FontGroup[] = [
  {
    label: 'Handwriting',
    weight: 2,
    options: [
      { family: 'Caveat', category: 'handwriting' },
      { family: 'Pacifico', category: 'handwriting' },
    ],
  },
  {
    label: 'Built-in',
    weight: 0,
    options: [
      { family: 'Journal', category: 'handwriting' },
      { family: 'USPS IMB Standard', category: 'display', disabled: true },
      { family: 'Baloo', category: 'display' },
    ],
  },
  { label: 'Display', weight: 1, options: [{ family: 'Lobster', category: 'display' }] },
];
const custom = [
  { family: 'Acme Brand', url: '/files/fonts/custom/t/a.ttf', format: 'truetype' as const },
];

describe('font picker categories (spec 000 §9: All Fonts, Uploaded, the server groups)', () => {
  it('lists All Fonts and Uploaded, then the groups by weight', () => {
    expect(fontCategories(groups)).toEqual([
      ALL_FONTS,
      UPLOADED,
      'Built-in',
      'Display',
      'Handwriting',
    ]);
  });

  it('All Fonts lists the uploads, then every group in weight order', () => {
    expect(filterFonts(groups, custom, ALL_FONTS, '').map((o) => o.family)).toEqual([
      'Acme Brand',
      'Journal',
      'Baloo',
      'Lobster',
      'Caveat',
      'Pacifico',
    ]);
  });

  it('Uploaded lists only the team fonts; a group only its own', () => {
    expect(filterFonts(groups, custom, UPLOADED, '')).toEqual([
      { family: 'Acme Brand', category: 'display', uploaded: true },
    ]);
    expect(filterFonts(groups, custom, 'Display', '').map((o) => o.family)).toEqual(['Lobster']);
  });

  it('search ignores case and accents and puts names that start with it first', () => {
    expect(filterFonts(groups, custom, ALL_FONTS, 'CA').map((o) => o.family)).toEqual(['Caveat']);
    expect(filterFonts(groups, custom, ALL_FONTS, 'A').map((o) => o.family)).toEqual([
      'Acme Brand',
      'Journal',
      'Baloo',
      'Caveat',
      'Pacifico',
    ]);
    expect(filterFonts(groups, custom, ALL_FONTS, 'pàcï').map((o) => o.family)).toEqual([
      'Pacifico',
    ]);
    expect(filterFonts(groups, custom, ALL_FONTS, 'LOBSTÉR').map((o) => o.family)).toEqual([
      'Lobster',
    ]);
    expect(filterFonts(groups, custom, ALL_FONTS, 'zzz')).toEqual([]);
  });
});

describe('a family without files', () => {
  it("is listed only as the text's own family, disabled", () => {
    expect(filterFonts(groups, custom, 'Built-in', '').map((o) => o.family)).toEqual([
      'Journal',
      'Baloo',
    ]);
    expect(filterFonts(groups, custom, 'Built-in', '', 'USPS IMB Standard')).toEqual([
      { family: 'Journal', category: 'handwriting' },
      { family: 'USPS IMB Standard', category: 'display', disabled: true },
      { family: 'Baloo', category: 'display' },
    ]);
  });
});

describe('moveActive (listbox keyboard)', () => {
  // The text's family is the disabled one, so it is listed (and skipped by the keys).
  const options = filterFonts(groups, custom, ALL_FONTS, '', 'USPS IMB Standard');
  it('moves by one with the arrows and skips disabled rows', () => {
    expect(moveActive(options, -1, 'ArrowDown')).toBe(0);
    expect(moveActive(options, 1, 'ArrowDown')).toBe(3); // USPS IMB Standard (2) is disabled
    expect(moveActive(options, 3, 'ArrowUp')).toBe(1);
    expect(moveActive(options, 6, 'ArrowDown')).toBe(6);
    expect(moveActive(options, -1, 'ArrowUp')).toBe(6);
  });

  it('jumps with Home, End and the page keys, and ignores other keys', () => {
    expect(moveActive(options, 4, 'Home')).toBe(0);
    expect(moveActive(options, 0, 'End')).toBe(6);
    expect(moveActive(options, 0, 'PageDown')).toBe(6);
    expect(moveActive(options, 6, 'PageUp')).toBe(0);
    expect(moveActive(options, 3, 'a')).toBe(3);
  });
});

describe('customFontsOf (spec 000 §7 customFonts.names and customFonts.path)', () => {
  it('pairs names and paths and reads the format from the extension', () => {
    expect(
      customFontsOf({ names: ['A', 'B', 3], path: ['/f/a.otf', '/f/b.woff', '/f/c.ttf'] }),
    ).toEqual([
      { family: 'A', url: '/f/a.otf', format: 'opentype' },
      { family: 'B', url: '/f/b.woff', format: 'woff' },
    ]);
    expect(customFontsOf(undefined)).toEqual([]);
  });
});
