/**
 * Line breaking of a text layer (docs/editor.md "Text fitting"): pure, with the width of a
 * string given by the caller, so the render page and the editor (through shared/scene/draw.ts
 * `fitTextLayer`, measuring with fabric) and the unit tests (test/unit/line-break.test.ts)
 * break alike.
 */

/** Width of a string at the size being tried, px. */
export type Measure = (text: string) => number;

/** The lines of a layout and whether they fit without an in-word break or a cut. */
export interface LineLayout {
  lines: string[];
  /** False when a word was wider than the box (kept whole or broken) or lines were cut. */
  fits: boolean;
}

/** One piece between break opportunities: its drawn text and the spaces after it. */
interface Piece {
  text: string;
  space: string;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Hyphens a line may end after: hyphen-minus, hyphen, non-breaking is left out on purpose. */
const HYPHENS = new Set(['-', '\u2010']);

/** A grapheme that starts with a letter (of any script): a hyphen after one is a break. */
const LETTER = /^\p{L}/u;

/** CJK punctuation that never starts a line (it stays with the character before it). */
const CLOSING = new Set([...'，。、！？：；）」』】〉》〕,.!?)']);

/** Ideographs, kana and full-width forms: each one is a place a line may break. */
function isCjk(grapheme: string): boolean {
  const code = grapheme.codePointAt(0) ?? 0;
  return (
    (code >= 0x3000 && code <= 0x30ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xff00 && code <= 0xffef) ||
    (code >= 0x20000 && code <= 0x2fa1f)
  );
}

/** The graphemes of a string (an emoji with its joiners stays one). */
export function splitGraphemes(text: string): string[] {
  return Array.from(graphemes.segment(text), (s) => s.segment);
}

/**
 * Cuts one hard line (no `\n`) into pieces at its break opportunities: after a run of spaces
 * (the spaces belong to the piece before and vanish at a line's end), after a hyphen that
 * follows a letter (the hyphen stays on the line it ends), and before and after a CJK
 * character (but never before closing punctuation). Linear in the line's length.
 */
function pieces(line: string): Piece[] {
  const out: Piece[] = [];
  let current: Piece = { text: '', space: '' };
  let breakAfter = false;
  let previous = '';
  for (const g of splitGraphemes(line)) {
    if (g === ' ' || g === '\t') {
      if (current.text === '') current.text += g;
      else current.space += g;
      previous = g;
      continue;
    }
    const startsNew =
      current.space !== '' ||
      (current.text !== '' &&
        !CLOSING.has(g) &&
        !HYPHENS.has(g) &&
        (breakAfter || isCjk(g)) &&
        current.text.trim() !== '');
    if (startsNew) {
      out.push(current);
      current = { text: '', space: '' };
    }
    current.text += g;
    breakAfter = isCjk(g) || (HYPHENS.has(g) && LETTER.test(previous));
    previous = g;
  }
  out.push(current);
  return out;
}

/** Cached widths: each distinct piece, space run or grapheme is measured once per layout. */
function cachedMeasure(measure: Measure): Measure {
  const widths = new Map<string, number>();
  return (text) => {
    let width = widths.get(text);
    if (width === undefined) {
      width = text === '' ? 0 : measure(text);
      widths.set(text, width);
    }
    return width;
  };
}

/**
 * Cuts a word wider than the box into chunks of whole graphemes, each at most `width` px (a
 * grapheme wider than the box makes a chunk of its own). Widths are summed per grapheme.
 */
function breakWord(word: string, width: number, measure: Measure): string[] {
  const chunks: string[] = [];
  let chunk = '';
  let used = 0;
  for (const g of splitGraphemes(word)) {
    const w = measure(g);
    if (chunk !== '' && used + w > width) {
      chunks.push(chunk);
      chunk = '';
      used = 0;
    }
    chunk += g;
    used += w;
  }
  if (chunk !== '') chunks.push(chunk);
  return chunks;
}

/**
 * Ends a line with `…` within `width` px: graphemes are taken off its end until the line and
 * the ellipsis fit (the ellipsis alone when nothing else fits).
 */
function withEllipsis(line: string, width: number, measure: Measure): string {
  const kept = splitGraphemes(line.trimEnd());
  const limit = width - measure('…');
  let used = kept.reduce((sum, g) => sum + measure(g), 0);
  while (kept.length > 0 && (used > limit || kept.at(-1) === ' ')) used -= measure(kept.pop()!);
  return `${kept.join('')}…`;
}

/**
 * Breaks `text` into lines at most `width` px wide (docs/editor.md "Text fitting"):
 * - hard line breaks (`\n`) are kept;
 * - a line breaks at spaces first, then after hyphens (the hyphen ends the line), and between
 *   CJK characters, greedily (each line takes as many pieces as fit);
 * - a piece wider than the box is kept whole (`fits` false) unless `inWord`, when it is cut
 *   between graphemes;
 * - more than `maxLines` lines (at least 1) are cut to `maxLines`, the last one ending in `…`
 *   (`fits` false).
 * Line widths are the sums of the pieces' widths (kerning across a break opportunity is left
 * out; fabric sums the same way, so it never wraps these lines again). Linear in the text's length.
 * @param measure width of a string at the size being tried, px.
 */
export function breakLines(
  text: string,
  options: { width: number; maxLines: number; inWord: boolean },
  measure: Measure,
): LineLayout {
  const { width, inWord } = options;
  const maxLines = Math.max(1, Math.floor(options.maxLines));
  const m = cachedMeasure(measure);
  const lines: string[] = [];
  let fits = true;
  for (const hard of text.split('\n')) {
    let line = '';
    let lineSpace = '';
    let used = 0;
    for (const piece of pieces(hard)) {
      const w = m(piece.text);
      if (line !== '' && used + m(lineSpace) + w <= width) {
        line += lineSpace + piece.text;
        used += m(lineSpace) + w;
        lineSpace = piece.space;
        continue;
      }
      if (line !== '') lines.push(line);
      line = piece.text;
      used = w;
      lineSpace = piece.space;
      if (w <= width) continue;
      fits = false;
      if (!inWord) continue;
      const chunks = breakWord(piece.text, width, m);
      lines.push(...chunks.slice(0, -1));
      line = chunks.at(-1) ?? '';
      used = m(line);
    }
    lines.push(line);
  }
  if (lines.length <= maxLines) return { lines, fits };
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = withEllipsis(kept[maxLines - 1]!, width, m);
  return { lines: kept, fits: false };
}
