/**
 * Glyph coverage of the built render page (docs/fonts.md "The fallback stack"): every code point
 * of the name lists (test/fixtures/names.ts) has a glyph in a face the page ships, read from the
 * page's own `fonts/fonts.css` and woff2 files with fontkit (test/support/glyph-coverage.ts), and
 * each script is drawn by its own Noto family. The editor imports the same generated rules
 * (shared/fonts/stack), so this holds for it too.
 *
 * It also checks the generated coverage table of the "never tofu" rule
 * (shared/fonts/coverage.data.ts) against the built faces: each code point the table says is
 * drawable has a glyph in the page, so the rule never lets a box through.
 *
 * Needs the built page (`npm run build:render`); starts no services.
 * Mutation check (run): with the Noto Sans Tamil rules taken out of the built `fonts.css`, the
 * Tamil case fails on its characters and the table check fails on the Tamil block.
 */
import { describe, expect, it } from 'vitest';
import { STACK_COVERAGE } from '#shared/fonts/coverage.data.ts';
import { codePointLabel, decodeRanges } from '#shared/scene/glyphs.ts';
import { drawingFace, missingGlyphs } from '../support/glyph-coverage.ts';
import { NAMES_BY_SCRIPT } from '../fixtures/names.ts';

/** The family expected to draw a script's letters (the stack's order decides shared ones). */
const FAMILY_OF: Record<string, readonly string[]> = {
  Latin: ['Noto Sans'],
  Greek: ['Noto Sans'],
  Cyrillic: ['Noto Sans'],
  Devanagari: ['Noto Sans'],
  Arabic: ['Noto Sans Arabic'],
  Hebrew: ['Noto Sans Hebrew'],
  Thaana: ['Noto Sans Thaana'],
  Bengali: ['Noto Sans Bengali'],
  Gurmukhi: ['Noto Sans Gurmukhi'],
  Gujarati: ['Noto Sans Gujarati'],
  Oriya: ['Noto Sans Oriya'],
  Tamil: ['Noto Sans Tamil'],
  Telugu: ['Noto Sans Telugu'],
  Kannada: ['Noto Sans Kannada'],
  Malayalam: ['Noto Sans Malayalam'],
  Sinhala: ['Noto Sans Sinhala'],
  Thai: ['Noto Sans Thai'],
  Lao: ['Noto Sans Lao'],
  Khmer: ['Noto Sans Khmer'],
  Myanmar: ['Noto Sans Myanmar'],
  Georgian: ['Noto Sans Georgian'],
  Armenian: ['Noto Sans Armenian'],
  Ethiopic: ['Noto Sans Ethiopic'],
  'Simplified Chinese': ['Noto Sans SC'],
  // Kana and most kanji are in SC's faces too; the rest come from JP, then TC.
  'Traditional Chinese': ['Noto Sans SC', 'Noto Sans JP', 'Noto Sans TC'],
  Japanese: ['Noto Sans SC', 'Noto Sans JP', 'Noto Sans TC'],
  Korean: ['Noto Sans KR'],
  emoji: ['Noto Color Emoji'],
};

/** Letters, not marks, joiners or modifiers: the characters a script's own family must draw. */
const LETTER = /[\p{L}\p{Extended_Pictographic}]/u;

describe('every name of every script has a glyph in the built page', () => {
  it.each(Object.entries(NAMES_BY_SCRIPT))('%s', (script, names) => {
    for (const name of names) {
      expect(missingGlyphs(name), `characters of ${name} without a glyph`).toEqual([]);
      for (const char of name) {
        if (!LETTER.test(char)) continue;
        expect(FAMILY_OF[script], `${name}: ${char}`).toContain(drawingFace(char)?.family);
      }
    }
  });
});

describe('the never-tofu coverage table agrees with the built faces', () => {
  it('has a glyph in the page for every code point the table says is drawable', () => {
    const table = decodeRanges(STACK_COVERAGE);
    const missing: string[] = [];
    for (let i = 0; i < table.length; i += 2) {
      for (let code = table[i]!; code <= table[i + 1]!; code++) {
        if (code <= 0x20) continue; // controls and space: drawn as nothing
        if (missingGlyphs(String.fromCodePoint(code)).length > 0)
          missing.push(codePointLabel(code));
      }
    }
    expect(missing).toEqual([]);
  });

  it('has no glyph in the page for a script the table leaves out (Cherokee)', () => {
    expect(missingGlyphs('ᏣᎳᎩ')).toEqual(['Ꮳ', 'Ꮃ', 'Ꭹ']);
  });
});
