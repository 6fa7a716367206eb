/**
 * From raw records to send-list rows, the same for CSV and XLSX (docs/adr/0053-send-list-files.md
 * "Send-list files"): the header maps columns to the design's parameters and `email`, values are
 * cut to 255 characters, formula-like values are counted, empty rows skipped, ragged rows refused.
 * Tests: test/unit/send-list-parse.test.ts.
 */
import { counted, SEND_LIST_LIMITS, SendListFileError, tooManyColumns } from './limits.ts';

/** One record as a format reader gives it: its line (CSV) or row number (XLSX), and its cells. */
export interface RawRow {
  line: number;
  cells: string[];
}

/** What each column of the file is: a parameter (by the design's spelling), email, or unknown. */
export interface Columns {
  parameters: (string | undefined)[];
  email: number | undefined;
  unknown: string[];
}

const EMAIL = 'email';

/** Characters that make a spreadsheet read a cell as a formula (OWASP "CSV Injection"). */
const FORMULA_STARTS = new Set(['=', '+', '-', '@', '\t', '\r']);

/**
 * Whether a value would be read as a formula by a spreadsheet: it starts with `=`, `+`, `-`,
 * `@`, a tab or a carriage return. Such a value is kept for rendering; an export writes it
 * through {@link spreadsheetSafe}.
 */
export const isFormula = (value: string) => value.length > 0 && FORMULA_STARTS.has(value[0]!);

/**
 * A value as a CSV export for spreadsheets writes it: a formula-like value gets a leading `'`,
 * which Excel, LibreOffice and Google Sheets show as text (docs/adr/0053-send-list-files.md
 * "Send-list files").
 */
export const spreadsheetSafe = (value: string) => (isFormula(value) ? `'${value}` : value);

/**
 * A value cut to `max` code points (a surrogate pair is never split).
 * @returns the value and whether anything was cut.
 */
export function cutValue(value: string, max = SEND_LIST_LIMITS.valueChars) {
  if (value.length <= max) return { value, cut: false };
  let units = 0;
  for (let points = 0; points < max && units < value.length; points++) {
    const code = value.charCodeAt(units);
    units += code >= 0xd800 && code <= 0xdbff && units + 1 < value.length ? 2 : 1;
  }
  return units < value.length ? { value: value.slice(0, units), cut: true } : { value, cut: false };
}

/**
 * The header's columns matched to the design's parameters: trimmed, matched exactly or, failing
 * that, ignoring case; `email` in any case. A column named twice, or a header naming no
 * parameter, is refused.
 * @throws SendListFileError naming the column or listing the design's parameters.
 */
export function readHeader(cells: string[], parameters: readonly string[]): Columns {
  if (cells.length > SEND_LIST_LIMITS.columns) throw tooManyColumns(cells.length);
  const exact = new Map(parameters.map((p) => [p, p]));
  const folded = new Map(parameters.map((p) => [p.toLowerCase(), p]));
  const seen = new Map<string, number>();
  const columns: Columns = { parameters: [], email: undefined, unknown: [] };
  cells.forEach((cell, index) => {
    const name = cell.trim();
    if (name === '') return;
    const parameter = exact.get(name) ?? folded.get(name.toLowerCase());
    const key = parameter ?? (name.toLowerCase() === EMAIL ? EMAIL : undefined);
    if (key === undefined) {
      columns.unknown.push(name);
      return;
    }
    const first = seen.get(key);
    if (first !== undefined)
      throw new SendListFileError(
        `The header names "${key}" twice (columns ${first + 1} and ${index + 1}); keep one.`,
      );
    seen.set(key, index);
    if (parameter === undefined) columns.email = index;
    else columns.parameters[index] = parameter;
  });
  if (!columns.parameters.some(Boolean))
    throw new SendListFileError(
      parameters.length === 0
        ? 'This design has no parameters, so there is nothing to pre-render from a list.'
        : `The header row names none of this design's parameters. The first row must name the columns: ${parameters.join(', ')} (and optionally email).`,
    );
  return columns;
}

/** Counts one row adds to the report. */
export interface RowCounts {
  cutValues: number;
  formulaValues: number;
}

/**
 * One record as a send-list row, or `undefined` when every cell is empty (skipped).
 * @throws SendListFileError when the record has a value past the header's last column.
 */
export function readRow(raw: RawRow, header: string[], columns: Columns, counts: RowCounts) {
  for (let i = header.length; i < raw.cells.length; i++)
    if (raw.cells[i] !== '' && raw.cells[i] !== undefined)
      throw new SendListFileError(
        `Line ${counted(raw.line)} has ${raw.cells.length} values but the header has ${header.length} column${header.length === 1 ? '' : 's'}. ` +
          'Name the extra column in the header, or remove its values (a comma inside a value needs quotes).',
      );
  if (raw.cells.every((cell) => !cell || cell.trim() === '')) return undefined;
  const values: Record<string, string> = {};
  const cut: string[] = [];
  columns.parameters.forEach((parameter, index) => {
    if (parameter === undefined) return;
    const kept = cutValue(raw.cells[index] ?? '');
    values[parameter] = kept.value;
    if (kept.cut) {
      cut.push(parameter);
      counts.cutValues++;
    }
    if (isFormula(kept.value)) counts.formulaValues++;
  });
  const email =
    columns.email === undefined ? '' : cutValue((raw.cells[columns.email] ?? '').trim()).value;
  return { line: raw.line, values, cut, ...(email ? { email } : {}) };
}
