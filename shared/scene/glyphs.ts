/**
 * Never tofu (docs/fonts.md "Never tofu"; docs/adr/0004-render-slice.md "Render slice": "Text
 * fitting"): a character that no shipped face can draw is left out of the drawn text instead of
 * showing as a box. Used by the render service and the editor through `resolveScene`'s `glyphs`
 * option (shared/scene/resolve.ts), so the preview leaves out what the render leaves out.
 *
 * The faces' coverage is generated at build time (shared/fonts/generate-stack.ts →
 * shared/fonts/coverage.data.ts) from the shipped faces' `unicode-range`s and character maps:
 * a sorted list of ranges, searched by bisection, so a value costs O(n log r) for its n ≤ 255
 * characters. A layer is drawn with its own family, the default font and the fallback stack
 * (shared/scene/fonts.ts), so what it can draw is the stack's coverage plus what its own family
 * (a hosted or built-in one) adds. A character is left out with its whole grapheme cluster, so
 * a combining mark never remains on its own (the shaper would draw it on a dotted circle).
 * Unit-tested in test/unit/glyphs.test.ts.
 */
import { FAMILY_COVERAGE, STACK_COVERAGE } from '../fonts/coverage.data.ts';

/** Ranges as a flat array of inclusive bounds: `[from0, to0, from1, to1, …]`, sorted. */
export type RangeTable = Uint32Array;

/**
 * Decodes the generator's range text (`encodeRanges`: each range's distance from the previous
 * range's end and its length − 1, in base 36) into a range table.
 */
export function decodeRanges(text: string): RangeTable {
  if (text === '') return new Uint32Array(0);
  const parts = text.split(',');
  const table = new Uint32Array(parts.length);
  let previous = 0;
  for (let i = 0; i < parts.length; i += 2) {
    const from = previous + parseInt(parts[i]!, 36);
    const to = from + parseInt(parts[i + 1]!, 36);
    table[i] = from;
    table[i + 1] = to;
    previous = to;
  }
  return table;
}

/** Whether `code` is in the table: a bisection over the ranges. */
export function inRanges(table: RangeTable, code: number): boolean {
  let low = 0;
  let high = table.length / 2 - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (code < table[mid * 2]!) high = mid - 1;
    else if (code > table[mid * 2 + 1]!) low = mid + 1;
    else return true;
  }
  return false;
}

/**
 * Characters no font has to draw: white space, and the default-ignorable code points (joiners,
 * variation selectors, bidi controls, tags; Unicode's `Default_Ignorable_Code_Point`), which
 * the browser lays out without a glyph.
 */
// prettier-ignore
const INVISIBLE: RangeTable = new Uint32Array([
  0x09, 0x0d, 0x20, 0x20, 0x85, 0x85, 0xa0, 0xa0, 0xad, 0xad, 0x34f, 0x34f, 0x61c, 0x61c,
  0x115f, 0x1160, 0x1680, 0x1680, 0x17b4, 0x17b5, 0x180b, 0x180f, 0x2000, 0x200f,
  0x2028, 0x202f, 0x205f, 0x206f, 0x3000, 0x3000, 0x3164, 0x3164, 0xfe00, 0xfe0f,
  0xfeff, 0xfeff, 0xffa0, 0xffa0, 0xfff0, 0xfff8, 0x1bca0, 0x1bca3, 0x1d173, 0x1d17a,
  0xe0000, 0xe0fff,
]);

let stack: RangeTable | undefined;
const families = new Map<string, RangeTable | null>();

/** The extra coverage of a hosted or built-in family (none for the others). */
function familyTable(family: string): RangeTable | null {
  const key = family.trim().toLowerCase();
  let table = families.get(key);
  if (table === undefined) {
    const entry = Object.entries(FAMILY_COVERAGE).find(([name]) => name.toLowerCase() === key);
    table = entry ? decodeRanges(entry[1]) : null;
    families.set(key, table);
  }
  return table;
}

/**
 * Whether a layer of `fontFamily` draws `code` with a glyph, or needs none for it (white space,
 * joiners and other default-ignorable characters).
 */
export function isDrawable(code: number, fontFamily = ''): boolean {
  stack ??= decodeRanges(STACK_COVERAGE);
  if (inRanges(stack, code) || inRanges(INVISIBLE, code)) return true;
  const own = fontFamily ? familyTable(fontFamily) : null;
  return own !== null && inRanges(own, code);
}

let graphemes: Intl.Segmenter | undefined;

/** What `dropUndrawable` left of a text, and the code points it took out (each once, in order). */
export interface DrawableText {
  text: string;
  dropped: number[];
}

/**
 * `text` without the characters a layer of `fontFamily` cannot draw, each taken out with its
 * grapheme cluster (a base and its marks, an emoji sequence). A text it can draw whole is
 * returned as it is, after one pass over its code points.
 */
export function dropUndrawable(text: string, fontFamily = ''): DrawableText {
  const dropped: number[] = [];
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (!isDrawable(code, fontFamily) && !dropped.includes(code)) dropped.push(code);
  }
  if (dropped.length === 0) return { text, dropped };
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let kept = '';
  for (const { segment } of graphemes.segment(text)) {
    let drawable = true;
    for (const char of segment) {
      if (!isDrawable(char.codePointAt(0)!, fontFamily)) {
        drawable = false;
        break;
      }
    }
    if (drawable) kept += segment;
  }
  return { text: kept, dropped };
}

/** `U+1F9FF`: a code point as the logs and docs write it. */
export const codePointLabel = (code: number): string =>
  `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * The `glyphs` option of `resolveScene`: drops what a layer cannot draw and reports the code
 * points it dropped.
 * @param options.ownCoverage families whose faces' coverage is not known here (a team's uploaded
 *   font): their layers are left whole, so a glyph only the upload has still draws.
 * @param options.onDropped told the code points left out of each text (not called when none).
 */
export function glyphFilter(
  options: {
    ownCoverage?: (fontFamily: string) => boolean;
    onDropped?: (codes: number[]) => void;
  } = {},
): (text: string, fontFamily: string) => string {
  return (text, fontFamily) => {
    if (options.ownCoverage?.(fontFamily)) return text;
    const out = dropUndrawable(text, fontFamily);
    if (out.dropped.length > 0) options.onDropped?.(out.dropped);
    return out.text;
  };
}
