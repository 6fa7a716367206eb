/**
 * Line breaking of text layers (shared/scene/line-break.ts; docs/editor.md "Text fitting"),
 * with a monospace measure: every grapheme 10 px wide.
 */
import { describe, expect, it } from 'vitest';
import { breakLines, splitGraphemes } from '../../shared/scene/line-break.ts';

const mono = (text: string) => splitGraphemes(text).length * 10;
const NAME = 'Hi Bartholomew-Alexandrina von Longname-Smythe';

describe('breakLines', () => {
  it('breaks the long hyphenated name at spaces and after hyphens, never inside a word', () => {
    const { lines, fits } = breakLines(NAME, { width: 160, maxLines: 10, inWord: false }, mono);
    expect(lines).toEqual(['Hi Bartholomew-', 'Alexandrina von', 'Longname-Smythe']);
    expect(fits).toBe(true);
  });

  it('prefers a space to a hyphen when both fit, and keeps short text on one line', () => {
    expect(
      breakLines('Anne-Marie Smith', { width: 110, maxLines: 5, inWord: false }, mono),
    ).toEqual({
      lines: ['Anne-Marie', 'Smith'],
      fits: true,
    });
    expect(breakLines(NAME, { width: 1000, maxLines: 1, inWord: false }, mono).lines).toEqual([
      NAME,
    ]);
  });

  it('keeps hard line breaks and leaves a leading hyphen or a dash between spaces alone', () => {
    expect(
      breakLines('-5 °C\nnow - later', { width: 60, maxLines: 9, inWord: false }, mono).lines,
    ).toEqual(['-5 °C', 'now -', 'later']);
  });

  it('breaks after a hyphen only when a letter comes before it, not inside numbers', () => {
    expect(
      breakLines('Call 555-1234 now', { width: 90, maxLines: 9, inWord: false }, mono),
    ).toEqual({
      lines: ['Call', '555-1234', 'now'],
      fits: true,
    });
    expect(breakLines('Zoë-Łucja', { width: 60, maxLines: 9, inWord: false }, mono).lines).toEqual([
      'Zoë-',
      'Łucja',
    ]);
  });

  it('keeps a word wider than the box whole and says it does not fit, unless in-word breaks are allowed', () => {
    const word = 'Wolfeschlegelsteinhausenbergerdorff';
    const whole = breakLines(`Hi ${word}`, { width: 100, maxLines: 9, inWord: false }, mono);
    expect(whole).toEqual({ lines: ['Hi', word], fits: false });
    const broken = breakLines(`Hi ${word} Jr`, { width: 100, maxLines: 9, inWord: true }, mono);
    expect(broken.lines).toEqual(['Hi', 'Wolfeschle', 'gelsteinha', 'usenberger', 'dorff Jr']);
    expect(broken.lines.every((l) => mono(l) <= 100)).toBe(true);
  });

  it('breaks CJK text between characters without an in-word break, never before closing punctuation', () => {
    const { lines, fits } = breakLines(
      '王小明，欢迎光临',
      { width: 40, maxLines: 9, inWord: false },
      mono,
    );
    expect(lines).toEqual(['王小明，', '欢迎光临']);
    expect(fits).toBe(true);
  });

  it('breaks text with no space only between graphemes, an emoji kept whole', () => {
    const { lines } = breakLines('abcdef👩🏽‍💻gh', { width: 60, maxLines: 9, inWord: true }, mono);
    expect(lines).toEqual(['abcdef', '👩🏽‍💻gh']);
  });

  it('cuts a 255-character value to the lines the box holds, the last ending in an ellipsis within the width', () => {
    const value = 'Wolfeschlegelsteinhausenbergerdorff Maximiliana-Alexandra '
      .repeat(6)
      .slice(0, 255);
    const { lines, fits } = breakLines(value, { width: 200, maxLines: 3, inWord: true }, mono);
    expect(fits).toBe(false);
    expect(lines).toHaveLength(3);
    expect(lines[2]!.endsWith('…')).toBe(true);
    expect(lines.every((l) => mono(l) <= 200)).toBe(true);
  });
});
