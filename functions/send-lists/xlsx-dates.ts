/**
 * Dates in an XLSX send list (docs/send-lists.md "Send-list files"): Excel stores a date as a
 * number of days (its serial number) and shows it as a date only through the cell's style's
 * number format. The styles (`xl/styles.xml`: custom `<numFmt>`s and the `<cellXfs>` list a
 * cell's `s` attribute points into) and the workbook's date system (`xl/workbook.xml`
 * `<workbookPr date1904>`) say which numbers are dates; those are written as ISO 8601 text.
 * Tests: test/unit/send-list-parse.test.ts.
 */
import { SaxesParser } from 'saxes';

export const STYLES = 'xl/styles.xml';
export const WORKBOOK = 'xl/workbook.xml';

/** What a number format shows: a date, a time of day, both, or neither (null). */
export type DateKind = 'date' | 'time' | 'datetime';

/** Most cell styles kept (Excel allows 64,000). */
const MAX_STYLES = 65_536;

/**
 * Built-in number formats that show dates or times (ECMA-376 Part 1, 18.8.30 `numFmt`, and the
 * East Asian date formats 27–36 and 50–58). 46 (`[h]:mm:ss`, a duration) is not among them.
 */
const BUILT_IN: ReadonlyMap<number, DateKind> = new Map<number, DateKind>([
  ...[14, 15, 16, 17].map((id) => [id, 'date'] as const),
  ...[18, 19, 20, 21, 45, 47].map((id) => [id, 'time'] as const),
  [22, 'datetime'],
  ...Array.from({ length: 10 }, (_, i) => [27 + i, 'date'] as const),
  ...Array.from({ length: 9 }, (_, i) => [50 + i, 'date'] as const),
]);

/**
 * A format section's tokens: quoted text, escaped (`\x`), padding (`_x`, `*x`) characters and
 * bracketed parts (`[Red]`, `[$-409]`) left out, in lower case; null for an elapsed-time part
 * (`[h]`, `[mm]`, `[ss]`). One pass, linear.
 */
function tokensOf(section: string): string | null {
  let tokens = '';
  for (let i = 0; i < section.length; i++) {
    const c = section[i]!;
    if (c === '"' || c === '[') {
      const end = section.indexOf(c === '"' ? '"' : ']', i + 1);
      const inside = section.slice(i + 1, end < 0 ? section.length : end).toLowerCase();
      if (c === '[' && /^(?:h+|m+|s+)$/.test(inside)) return null;
      i = end < 0 ? section.length : end;
    } else if (c === '\\' || c === '_' || c === '*') i++;
    else tokens += c.toLowerCase();
  }
  return tokens;
}

/**
 * What a custom number format's code shows. Only its first section (before `;`) counts; text in
 * quotes and bracketed parts are not tokens. `y` or `d` is a date, `h` or `s` a time, an `m`
 * alone a month; an elapsed-time format (`[h]`, `[mm]`) is a duration, not a date: null.
 */
export function formatKind(code: string): DateKind | null {
  const tokens = tokensOf(code.slice(0, 256).split(';')[0]!);
  if (tokens === null || tokens.includes('general')) return null;
  const time = /[hs]/.test(tokens);
  const date = /[yd]/.test(tokens) || (!time && tokens.includes('m'));
  return date && time ? 'datetime' : date ? 'date' : time ? 'time' : null;
}

/** The latest serial number Excel has, 9999-12-31. */
const MAX_SERIAL = 2_958_465;
const DAY_MS = 86_400_000;

/**
 * A date serial number as ISO 8601 text: `2024-03-05` (date), `18:30:00` (time of day) or
 * `2024-03-05T18:30:00` (both), to the nearest second, no time zone (Excel has none).
 * @param date1904 the workbook counts days from 1904-01-01 (old Mac Excel), not 1900.
 * @returns undefined for a number that is not a serial Excel can show as a date.
 */
export function serialToIso(serial: number, kind: DateKind, date1904: boolean): string | undefined {
  if (!Number.isFinite(serial) || serial < 0 || serial > MAX_SERIAL) return undefined;
  // Excel counts a 1900-02-29 that never was: serials before it start a day later.
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, serial < 60 ? 31 : 30);
  const iso = new Date(Math.round((epoch + serial * DAY_MS) / 1000) * 1000).toISOString();
  return kind === 'date'
    ? iso.slice(0, 10)
    : kind === 'time'
      ? iso.slice(11, 19)
      : iso.slice(0, 19);
}

/** What the styles and workbook parts say of dates, filled in as they are read. */
export interface WorkbookDates {
  /** Each cell style's kind (`<cellXfs>` order; a cell's `s` is the index), null: a number. */
  styles: (DateKind | null)[];
  date1904: boolean;
}

/** The parser of `xl/styles.xml`: custom formats, then each `<cellXfs>` style's kind. */
export function stylesParser(into: WorkbookDates): SaxesParser {
  const parser = new SaxesParser();
  const custom = new Map<number, DateKind | null>();
  let inCellXfs = false;
  parser.on('opentag', (tag) => {
    const attribute = (name: string) => {
      const value = tag.attributes[name];
      return typeof value === 'string' ? value : undefined;
    };
    if (tag.name === 'numFmt' && custom.size < MAX_STYLES)
      custom.set(Number(attribute('numFmtId')), formatKind(attribute('formatCode') ?? ''));
    else if (tag.name === 'cellXfs') inCellXfs = true;
    else if (tag.name === 'xf' && inCellXfs && into.styles.length < MAX_STYLES) {
      const id = Number(attribute('numFmtId') ?? 0);
      into.styles.push(custom.has(id) ? custom.get(id)! : (BUILT_IN.get(id) ?? null));
    }
  });
  parser.on('closetag', (tag) => {
    if (tag.name === 'cellXfs') inCellXfs = false;
  });
  return parser;
}

/** The parser of `xl/workbook.xml`: only `<workbookPr date1904>`. */
export function workbookParser(into: WorkbookDates): SaxesParser {
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => {
    if (tag.name !== 'workbookPr') return;
    const value = tag.attributes.date1904;
    into.date1904 = value === '1' || value === 'true';
  });
  return parser;
}
