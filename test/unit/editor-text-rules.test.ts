/**
 * The text toolbar's pure rules (docs/editor.md "Text tools"): linked minimum font size
 * (docs/editor.md "Commands"), ranges of angle and outline width (docs/editor.md "Editing rules"),
 * hex colours (docs/editor.md "Editing rules"), the recent-colours history per user
 * (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and
 * restore", docs/editor.md "Constants": 5 entries, most recent first, no duplicates), the canvas
 * clamps of a snippet (docs/editor.md "Editing rules"), and placeholders as whole units in the text
 * field (docs/editor.md "Editing rules", docs/editor.md "Commands": "Dragging a parameter").
 */
import { describe, expect, it } from 'vitest';
import { editorValues } from '../../web/src/features/editor/document/preview.ts';
import { snippetLabel } from '../../web/src/features/editor/document/snippets.ts';
import { demoDocument } from '../support/editor.ts';
import {
  clampSnippet,
  clampTextWidth,
  estimatedHeight,
} from '../../web/src/features/editor/document/clamps.ts';
import {
  movePlaceholder,
  placeholderAtCaret,
  placeholderRanges,
  shiftPlaceholder,
  snapSelection,
} from '../../web/src/features/editor/document/placeholders.ts';
import {
  clampAngle,
  clampStrokeWidth,
  parseHex,
  pushRecentColour,
  readColourHistory,
  rememberColour,
  withLinked,
  withMinFontSize,
  type ColourStorage,
} from '../../web/src/features/editor/document/textStyle.ts';

describe('linked minimum font size (spec 000 §4 "Linked font sizes", §5)', () => {
  it('linking sets the minimum to half the current size, rounded', () => {
    expect(withLinked({ fontSize: 45, minFontSize: 10 }, true)).toEqual({
      linked: true,
      minFontSize: 23,
    });
    expect(withLinked({ fontSize: 32, minFontSize: 30 }, true).minFontSize).toBe(16);
  });

  it('unlinking keeps the minimum', () => {
    expect(withLinked({ fontSize: 45, minFontSize: 10 }, false)).toEqual({
      linked: false,
      minFontSize: 10,
    });
  });

  it('an unlinked minimum is rounded and kept between 1 px and the font size', () => {
    const unlinked = { linked: false, fontSize: 40, minFontSize: 20 };
    expect(withMinFontSize(unlinked, 12.4).minFontSize).toBe(12);
    expect(withMinFontSize(unlinked, 55).minFontSize).toBe(40);
    expect(withMinFontSize(unlinked, 0).minFontSize).toBe(1);
  });

  it('a linked minimum stays half the size whatever is asked', () => {
    expect(withMinFontSize({ linked: true, fontSize: 40, minFontSize: 20 }, 5).minFontSize).toBe(
      20,
    );
  });
});

describe('ranges (spec 000 §5)', () => {
  it.each([
    [-10, 0],
    [0, 0],
    [45.26, 45.3],
    [360, 360],
    [400, 360],
    [Number.NaN, 0],
  ])('angle %d → %d', (input, expected) => expect(clampAngle(input)).toBe(expected));

  it.each([
    [-1, 0],
    [0, 0],
    [2.3, 2.5],
    [5, 5],
    [9, 5],
  ])('outline width %d → %d', (input, expected) => expect(clampStrokeWidth(input)).toBe(expected));

  it.each([
    ['#1F2937', '#1f2937'],
    ['1f2937', '#1f2937'],
    ['f80', '#ff8800'],
    ['#80', '#808080'],
    ['#1234', null],
    ['red', null],
    ['', null],
  ])('hex %j → %j (2, 3 or 6 characters)', (typed, expected) =>
    expect(parseHex(typed)).toBe(expected),
  );
});

/** A localStorage stand-in. */
function memoryStorage(initial: Record<string, string> = {}): ColourStorage & {
  data: Record<string, string>;
} {
  const data = { ...initial };
  return {
    data,
    getItem: (key) => data[key] ?? null,
    setItem: (key, value) => {
      data[key] = value;
    },
  };
}

describe('recent colours (spec 000 §3, §9: 5 per kind, per user)', () => {
  it('puts the newest first, keeps each colour once and at most 5', () => {
    let list: string[] = [];
    for (const c of ['#111111', '#222222', '#333333', '#444444', '#555555', '#666666'])
      list = pushRecentColour(list, c);
    expect(list).toEqual(['#666666', '#555555', '#444444', '#333333', '#222222']);
    list = pushRecentColour(list, '#333');
    expect(list).toEqual(['#333333', '#666666', '#555555', '#444444', '#222222']);
    expect(pushRecentColour(['#000000'], 'black')).toEqual(['#000000']);
  });

  it('is stored under the user id with the fields color and outline, per user', () => {
    const storage = memoryStorage({ 'user-b': JSON.stringify({ color: ['#abcdef'] }) });
    rememberColour(storage, 'user-a', 'color', '#FF0000');
    rememberColour(storage, 'user-a', 'outline', '#00ff00');
    const after = rememberColour(storage, 'user-a', 'color', '#0000ff');
    expect(after).toEqual({ color: ['#0000ff', '#ff0000'], outline: ['#00ff00'] });
    expect(JSON.parse(storage.data['user-a']!)).toEqual(after);
    expect(readColourHistory(storage, 'user-b')).toEqual({ color: ['#abcdef'], outline: [] });
    expect(readColourHistory(storage, 'user-c')).toEqual({ color: [], outline: [] });
  });

  it('reads broken stored data as empty and keeps the other stored fields', () => {
    const storage = memoryStorage({ 'user-a': '{not json', 'user-b': '{"other":1}' });
    expect(readColourHistory(storage, 'user-a')).toEqual({ color: [], outline: [] });
    rememberColour(storage, 'user-b', 'outline', '#fff');
    expect(JSON.parse(storage.data['user-b']!)).toEqual({
      other: 1,
      color: [],
      outline: ['#ffffff'],
    });
  });
});

describe('snippet clamps (spec 000 §5)', () => {
  const canvas = { width: 600, height: 400 };
  const base = { left: 100, top: 100, width: 200, height: null, fontSize: 20, text: 'Hi' };

  it('estimates one line at 1.5 times the font size per line break', () => {
    expect(estimatedHeight(base)).toBe(30);
    expect(estimatedHeight({ ...base, text: 'a\nb\nc' })).toBe(90);
    expect(estimatedHeight({ ...base, height: 47 })).toBe(47);
  });

  it('keeps the box 5 px inside, no wider than the canvas allows, re-centres far outside', () => {
    expect(clampSnippet(base, canvas)).toEqual({ left: 100, top: 100, width: 200 });
    expect(clampSnippet({ ...base, left: -50, top: 390 }, canvas)).toEqual({
      left: 5,
      top: 365,
      width: 200,
    });
    expect(clampSnippet({ ...base, width: 800 }, canvas)).toEqual({
      left: 5,
      top: 100,
      width: 590,
    });
    expect(clampSnippet({ ...base, left: 2000, top: -900 }, canvas)).toEqual({
      left: 200,
      top: 185,
      width: 200,
    });
  });

  it('never lets the width go under the widest line', () => {
    expect(clampTextWidth(40, 120, canvas)).toBe(120);
    expect(clampTextWidth(300.4, 120, canvas)).toBe(300);
    expect(clampTextWidth(900, 0, canvas)).toBe(590);
  });
});

describe('placeholders as whole units (spec 000 §5)', () => {
  const text = 'Hi {{first_name}} there';
  const [range] = placeholderRanges(text);

  it('finds each placeholder with its offsets', () => {
    expect(placeholderRanges('{{a}} and {{ b }}')).toEqual([
      { start: 0, end: 5, name: 'a' },
      { start: 10, end: 17, name: 'b' },
    ]);
    expect(range).toEqual({ start: 3, end: 17, name: 'first_name' });
  });

  it('lets the caret skip over a placeholder in the direction it moves', () => {
    expect(snapSelection(text, { start: 4, end: 4 }, { start: 3, end: 3 })).toEqual({
      start: 17,
      end: 17,
    });
    expect(snapSelection(text, { start: 16, end: 16 }, { start: 17, end: 17 })).toEqual({
      start: 3,
      end: 3,
    });
  });

  it('selects the whole placeholder on a click inside it, and grows a range over it', () => {
    expect(snapSelection(text, { start: 8, end: 8 }, { start: 0, end: 0 })).toEqual({
      start: 3,
      end: 17,
    });
    expect(snapSelection(text, { start: 1, end: 6 }, null)).toEqual({ start: 1, end: 17 });
    expect(snapSelection(text, { start: 0, end: 2 }, null)).toEqual({ start: 0, end: 2 });
    expect(snapSelection(text, { start: 17, end: 17 }, null)).toEqual({ start: 17, end: 17 });
  });

  it('finds the placeholder Backspace or Delete removes whole', () => {
    expect(placeholderAtCaret(text, { start: 17, end: 17 }, 'Backspace')).toEqual(range);
    expect(placeholderAtCaret(text, { start: 3, end: 3 }, 'Delete')).toEqual(range);
    expect(placeholderAtCaret(text, { start: 3, end: 3 }, 'Backspace')).toBeNull();
    expect(placeholderAtCaret(text, { start: 3, end: 17 }, 'Backspace')).toBeNull();
  });

  it('moves a placeholder to a drop position, never into another placeholder', () => {
    expect(movePlaceholder(text, range!, 0)).toEqual({
      text: '{{first_name}}Hi  there',
      selection: { start: 0, end: 14 },
    });
    expect(movePlaceholder(text, range!, text.length).text).toBe('Hi  there{{first_name}}');
    expect(movePlaceholder(text, range!, 10).text).toBe(text);
    const two = '{{a}} x {{bb}}';
    const [a] = placeholderRanges(two);
    expect(movePlaceholder(two, a!, 10).text).toBe(' x {{bb}}{{a}}');
  });

  it('shifts a placeholder one word left or right (the keyboard alternative)', () => {
    expect(shiftPlaceholder(text, range!, 'right')).toEqual({
      text: 'Hi there {{first_name}}',
      selection: { start: 9, end: 23 },
    });
    expect(shiftPlaceholder(text, range!, 'left')).toEqual({
      text: '{{first_name}} Hi there',
      selection: { start: 0, end: 14 },
    });
    const edge = '{{a}} b';
    expect(shiftPlaceholder(edge, placeholderRanges(edge)[0]!, 'left').text).toBe(edge);
  });
});

describe('what the editor shows (spec 000 §5)', () => {
  it('draws a parameter with an empty or one-space fallback as its name, others as their fallback', () => {
    const doc = demoDocument();
    const snippet = doc.text_snippets[0]!;
    snippet.text = 'Hi {{first_name}} from {{city}}';
    snippet.parameters.push({
      ...snippet.parameters[0]!,
      id: 'p2',
      param_name: 'city',
      param_default_value: ' ',
    });
    expect(editorValues(doc)).toEqual({ city: 'city' });
  });

  it('lists a clone by its title, others by their text', () => {
    expect(snippetLabel({ text: ' Hi ', display_info: null })).toBe('Hi');
    expect(snippetLabel({ text: '', display_info: null })).toBe('(empty)');
    expect(snippetLabel({ text: 'Hi', display_info: { title: 'Copy of - Hi' } })).toBe(
      'Copy of - Hi',
    );
  });
});
