import { describe, expect, it } from 'vitest';
import {
  parseUnicodeRange,
  textsToRefresh,
  uncoveredCharacters,
  type CodeRange,
} from '../../web/src/features/editor/canvas/textFonts.ts';
import { fontFamilyList } from '#shared/scene/fonts.ts';

/** fontsource's Latin subset of Noto Sans and Caveat (Journal draws with Caveat). */
const LATIN =
  'U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD';
const ARABIC = 'U+0600-06FF,U+0750-077F,U+0870-088E,U+FB50-FDFF,U+FE70-FE74,U+FE76-FEFC';
const EMOJI = 'U+1F300-1F5FF,U+1F600-1F64F';

/** The registered faces of a page: the bundled stack, Journal, and one uploaded font. */
const REGISTERED: Record<string, string[]> = {
  'noto sans': [LATIN],
  journal: [LATIN],
  'noto sans arabic': [ARABIC, LATIN],
  'noto color emoji': [EMOJI],
  'acme brush': [''], // an upload: no unicode-range, so every character
};
const rangesOf = (family: string): CodeRange[] =>
  (REGISTERED[family.toLowerCase()] ?? []).flatMap((r) => parseUnicodeRange(r || 'U+0-10FFFF'));

const drawn = (key: string, family: string, text: string) => ({
  key,
  fontFamily: fontFamilyList(family),
  text,
});

describe('unicode-range parsing (the faces a text needs)', () => {
  it('reads single points, ranges and ? wildcards, and skips what is not a range', () => {
    expect(parseUnicodeRange('U+0000-00FF, U+0131,u+4??, bogus, U+20-10')).toEqual([
      [0x0, 0xff],
      [0x131, 0x131],
      [0x400, 0x4ff],
    ]);
  });

  it('lists the characters no range covers, once each and without spaces', () => {
    const latin = parseUnicodeRange(LATIN);
    expect(uncoveredCharacters('Hello, world!', latin)).toBe('');
    expect(uncoveredCharacters('Hi مرحبا 😀 مرحبا', latin)).toBe('مرحبا😀');
  });
});

describe('which drawn texts are measured again when faces finish loading', () => {
  const texts = [
    drawn('snippet:upload', 'Acme Brush', 'Hello'),
    drawn('snippet:noto', 'Noto Sans', 'Hello'),
    drawn('snippet:arabic', 'Noto Sans', 'Hi مرحبا'),
    drawn('snippet:unknown', 'Not A Font', 'Hello'),
  ];

  it("an uploaded font's face refreshes only the texts drawn in it", () => {
    const faces = [{ family: 'Acme Brush', unicodeRange: 'U+0-10FFFF' }];
    expect(textsToRefresh(texts, faces, rangesOf)).toEqual(['snippet:upload']);
  });

  it('the browser may quote the family: "Acme Brush" is the same family', () => {
    const faces = [{ family: '"Acme Brush"', unicodeRange: 'U+0-10FFFF' }];
    expect(textsToRefresh(texts, faces, rangesOf)).toEqual(['snippet:upload']);
  });

  it('a fallback face refreshes only the texts with characters their own family lacks', () => {
    const faces = [{ family: 'Noto Sans Arabic', unicodeRange: ARABIC }];
    expect(textsToRefresh(texts, faces, rangesOf)).toEqual(['snippet:arabic']);
  });

  it("a fallback family's Latin subset changes nothing a Latin family already draws", () => {
    const faces = [{ family: 'Noto Sans Arabic', unicodeRange: LATIN }];
    expect(textsToRefresh(texts, faces, rangesOf)).toEqual([]);
  });

  it('the default font refreshes the texts in an unknown family, which it draws (spec 000 §8)', () => {
    const faces = [{ family: 'Journal', unicodeRange: LATIN }];
    expect(textsToRefresh(texts, faces, rangesOf)).toEqual(['snippet:unknown']);
  });

  it('a face whose range misses every character of the text refreshes nothing', () => {
    const faces = [{ family: 'Noto Sans', unicodeRange: 'U+0400-045F' }];
    expect(textsToRefresh(texts, faces, rangesOf)).toEqual([]);
  });
});
