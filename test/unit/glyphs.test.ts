/**
 * Never tofu (docs/fonts.md "Never tofu"; shared/scene/glyphs.ts): what no shipped face draws
 * is left out of the drawn text, with its grapheme cluster; a value left empty shows the
 * fallback; the render logs each left-out code point once per design. The coverage table is the
 * generated one (shared/fonts/coverage.data.ts), so these cases also check that the generator
 * covered the name list of every script the stack ships for (test/fixtures/names.ts).
 *
 * Cherokee (U+13A0–13FF) stands for a script the stack has no face for, U+E000 for a private
 * use character, U+0378 for an unassigned one.
 */
import { describe, expect, it, vi } from 'vitest';
import { logUndrawable } from '#functions/render/fonts.ts';
import { logger } from '#lib/logger.ts';
import { encodeRanges, toRanges } from '#shared/fonts/generate-stack.ts';
import { CJK_FAMILY_COVERAGE } from '#shared/fonts/cjk-coverage.data.ts';
import { CJK_BLOCKS, FAMILY_COVERAGE, STACK_COVERAGE } from '#shared/fonts/coverage.data.ts';
import type { Parameter, TextSnippet } from '#shared/design.ts';
import {
  codePointLabel,
  decodeRanges,
  dropUndrawable,
  glyphFilter,
  inRanges,
  isDrawable,
} from '#shared/scene/glyphs.ts';
import { resolveParameter, resolveSnippetText } from '#shared/scene/resolve.ts';
import { NAMES_BY_SCRIPT } from '../fixtures/names.ts';

const CHEROKEE = 'ᏣᎳᎩ';

describe('the coverage table', () => {
  it('round-trips ranges through the generator’s encoding and finds codes by bisection', () => {
    const points = [0, 1, 2, 10, 0x41, 0x42, 0x43, 0xac00, 0x1f600, 0x10ffff];
    const table = decodeRanges(encodeRanges(toRanges(points)));
    expect([...table]).toEqual([
      0, 2, 10, 10, 0x41, 0x43, 0xac00, 0xac00, 0x1f600, 0x1f600, 0x10ffff, 0x10ffff,
    ]);
    for (let code = 0; code < 0x50; code++)
      expect(inRanges(table, code)).toBe(points.includes(code));
    expect(inRanges(table, 0x10ffff)).toBe(true);
    expect(inRanges(decodeRanges(''), 0x41)).toBe(false);
  });

  it.each(Object.entries(NAMES_BY_SCRIPT))('draws every name of the %s list', (_script, names) => {
    for (const name of names) expect(dropUndrawable(name)).toEqual({ text: name, dropped: [] });
  });

  it('has no face for Cherokee, private use or unassigned code points, nor lone surrogates', () => {
    for (const char of [...CHEROKEE, '\uE000', '\u0378', '\uD800'])
      expect(isDrawable(char.codePointAt(0)!), codePointLabel(char.codePointAt(0)!)).toBe(false);
  });

  it('needs no glyph for white space, joiners, variation selectors and bidi controls', () => {
    for (const code of [0x20, 0x0a, 0xa0, 0x200b, 0x200c, 0x200d, 0x200f, 0x202e, 0xfe0f, 0xe0067])
      expect(isDrawable(code), codePointLabel(code)).toBe(true);
  });

  it('adds what a hosted family draws beyond the stack to that family only', () => {
    const own = decodeRanges(FAMILY_COVERAGE['Roboto']!);
    const code = own[own.length - 1]!;
    expect(isDrawable(code)).toBe(false);
    expect(isDrawable(code, 'Roboto')).toBe(true);
    expect(isDrawable(code, 'roboto')).toBe(true);
    expect(isDrawable(code, 'Lato')).toBe(false);
  });

  it('marks the CJK blocks around every code point a CJK family draws first', () => {
    const stack = decodeRanges(STACK_COVERAGE);
    const blocks = decodeRanges(CJK_BLOCKS);
    for (const { ranges } of Object.values(CJK_FAMILY_COVERAGE)) {
      const table = decodeRanges(ranges);
      for (let i = 0; i < table.length; i += 2) {
        for (const code of [table[i]!, table[i + 1]!]) {
          expect(inRanges(blocks, code)).toBe(true);
          expect(inRanges(stack, code)).toBe(true);
        }
      }
    }
    expect(inRanges(blocks, 'A'.codePointAt(0)!)).toBe(false);
    expect(inRanges(blocks, '김'.codePointAt(0)!)).toBe(true);
  });
});

describe('dropUndrawable', () => {
  it('returns a drawable text as it is', () => {
    const text = 'Hello Zoë 😀 李伟!';
    expect(dropUndrawable(text)).toEqual({ text, dropped: [] });
  });

  it('leaves out what no face draws and reports each code point once', () => {
    expect(dropUndrawable(`Ana ${CHEROKEE} \uE000\uE000!`)).toEqual({
      text: 'Ana  !',
      dropped: [0x13e3, 0x13b3, 0x13a9, 0xe000],
    });
  });

  it('takes a combining mark out with its base, so no mark is left on its own', () => {
    expect(dropUndrawable('\uE000\u0301x').text).toBe('x');
    expect(dropUndrawable('Ꮳ\u0301e\u0301').text).toBe('e\u0301');
  });

  it('keeps emoji sequences whole', () => {
    const text = '👩🏽‍💻🇯🇵❤️';
    expect(dropUndrawable(text).text).toBe(text);
  });

  it('does bounded work: a 255-character value with a gap every other character', () => {
    const value = Array.from({ length: 255 }, (_, i) => (i % 2 ? 'a' : 'Ꮳ')).join('');
    const out = dropUndrawable(value);
    expect(out.text).toBe('a'.repeat(127));
    expect(out.dropped).toEqual([0x13e3]);
  });
});

const parameter = (fallback: string): Parameter =>
  ({
    id: 'p1',
    param_name: 'first_name',
    param_default_value: fallback,
    text_transform: { checkFormating: false, formatOptionKey: null },
  }) as unknown as Parameter;

describe('resolution with the glyph filter (the render and the editor)', () => {
  const filter = glyphFilter();
  const drawable = (text: string) => filter(text, 'Journal');

  it('draws the drawable part of a value', () => {
    expect(resolveParameter(parameter('there'), `Ana${CHEROKEE}`, drawable)).toBe('Ana');
  });

  it('shows the fallback when nothing of the value is drawable', () => {
    expect(resolveParameter(parameter('there'), CHEROKEE, drawable)).toBe('there');
    expect(resolveParameter(parameter('there'), ` ${CHEROKEE} `, drawable)).toBe('there');
    expect(resolveParameter(parameter(`${CHEROKEE}`), CHEROKEE, drawable)).toBe('');
  });

  it('keeps every character without a filter (callers that do not draw)', () => {
    expect(resolveParameter(parameter('there'), CHEROKEE)).toBe(CHEROKEE);
  });

  it('filters the text around the values with the snippet’s family', () => {
    const snippet = {
      text: 'Hi \uE000{{first_name}}!',
      fontFamily: 'Roboto',
      parameters: [parameter('there')],
    } as unknown as TextSnippet;
    const roboto = decodeRanges(FAMILY_COVERAGE['Roboto']!);
    const onlyRoboto = String.fromCodePoint(roboto[roboto.length - 1]!);
    expect(resolveSnippetText(snippet, { first_name: `Ana${onlyRoboto}` }, filter)).toBe(
      `Hi Ana${onlyRoboto}!`,
    );
    expect(
      resolveSnippetText(
        { ...snippet, fontFamily: 'Lato' },
        { first_name: `Ana${onlyRoboto}` },
        filter,
      ),
    ).toBe('Hi Ana!');
  });

  it('leaves a family with its own coverage (a team’s upload) whole and reports what it drops', () => {
    const dropped: number[] = [];
    const upload = glyphFilter({
      ownCoverage: (family) => family === 'Acme Brand',
      onDropped: (codes) => dropped.push(...codes),
    });
    expect(upload(`A\uE000`, 'Acme Brand')).toBe('A\uE000');
    expect(dropped).toEqual([]);
    expect(upload(`A\uE000`, 'Lato')).toBe('A');
    expect(dropped).toEqual([0xe000]);
  });
});

describe('logUndrawable: once per design', () => {
  it('logs a design’s left-out code points once, and another design’s again', () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    try {
      expect(logUndrawable('design-a', [0x13a0, 0xe000])).toEqual([0x13a0, 0xe000]);
      expect(logUndrawable('design-a', [0xe000])).toEqual([]);
      expect(logUndrawable('design-a', [0xe000, 0x13a1])).toEqual([0x13a1]);
      expect(logUndrawable('design-b', [0xe000])).toEqual([0xe000]);
      expect(warn).toHaveBeenCalledTimes(3);
      expect(warn.mock.calls[0]![1]).toEqual({
        designId: 'design-a',
        codePoints: ['U+13A0', 'U+E000'],
      });
    } finally {
      warn.mockRestore();
    }
  });
});
