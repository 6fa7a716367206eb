/**
 * Reading a send list (docs/adr/0053-send-list-files.md "Send-list files"): a CSV or XLSX file
 * whose header row names the design's parameters (and optionally `email`), streamed row by row,
 * never held whole. Every refusal is a {@link SendListFileError} whose message the user reads as it
 * is. Tests: test/unit/send-list-parse.test.ts.
 */
import { csvRows } from './csv.ts';
import { boundedBytes, SendListFileError, tooManyRows } from './limits.ts';
import { readHeader, readRow, type RawRow } from './rows.ts';
import { xlsxRows } from './xlsx.ts';

export { SendListFileError } from './limits.ts';
export { isFormula, spreadsheetSafe } from './rows.ts';

/** One recipient's row: its line (CSV) or row number (XLSX), its values by parameter name. */
export interface SendListRow {
  line: number;
  /** Every parameter column of the file, cut to 255 code points; '' where the cell is empty. */
  values: Record<string, string>;
  /** The `email` column's value (trimmed), when the file has one and the cell is not empty. */
  email?: string;
  /** Parameters whose value was cut to 255 characters. */
  cut: string[];
}

/** What the whole file held, returned when the last row has been read. */
export interface SendListReport {
  /** Rows yielded (the header and skipped empty rows not counted). */
  rows: number;
  /** Values cut to 255 characters. */
  cutValues: number;
  /** Values starting with `=`, `+`, `-`, `@`, tab or CR: kept, escaped by exports. */
  formulaValues: number;
  /** Header names that are neither a parameter nor `email`, in file order; their values ignored. */
  unknownColumns: string[];
  /** Rows whose cells were all empty. */
  skippedEmptyRows: number;
}

/**
 * Streams rows out of a CSV or XLSX body without holding the whole file.
 * @param input the upload's bytes.
 * @param options.format `csv` (UTF-8, or UTF-16 with a BOM; `,` `;` or tab) or `xlsx` (first
 *   worksheet).
 * @param options.parameters the design's parameter names; header names match them trimmed,
 *   exactly or else ignoring case.
 * @param options.maxRows the plan's row limit: one more row refuses the file. Rows before it
 *   have been yielded, so a caller writes nothing until the generator returns.
 * @param options.maxBytes the file's byte limit, checked while reading.
 * @returns the {@link SendListReport} once the last row is read.
 * @throws SendListFileError for a file too large, binary, not text in a known encoding, a zip
 *   bomb, a header with no parameter or over 256 columns, a row with values past the header, or
 *   more than `maxRows` rows; its message names the line.
 */
export async function* readSendList(
  input: NodeJS.ReadableStream,
  options: {
    format: 'csv' | 'xlsx';
    parameters: readonly string[];
    maxRows: number;
    maxBytes: number;
  },
): AsyncGenerator<SendListRow, SendListReport> {
  const bytes = boundedBytes(input, options.maxBytes);
  const raw: AsyncGenerator<RawRow> =
    options.format === 'csv' ? csvRows(bytes) : xlsxRows(bytes, options.maxRows);
  const report: SendListReport = {
    rows: 0,
    cutValues: 0,
    formulaValues: 0,
    unknownColumns: [],
    skippedEmptyRows: 0,
  };
  try {
    let header: RawRow | undefined;
    let columns: ReturnType<typeof readHeader> | undefined;
    for await (const record of raw) {
      if (!header || !columns) {
        if (record.cells.every((cell) => !cell || cell.trim() === '')) continue;
        header = record;
        columns = readHeader(record.cells, options.parameters);
        report.unknownColumns = columns.unknown;
        continue;
      }
      const row = readRow(record, header.cells, columns, report);
      if (!row) {
        report.skippedEmptyRows++;
        continue;
      }
      if (++report.rows > options.maxRows) throw tooManyRows(options.maxRows);
      yield row;
    }
    if (!header)
      throw new SendListFileError(
        'The file is empty. Its first row must name the columns, one per parameter of the design.',
      );
    return report;
  } finally {
    await raw.return(undefined);
    if ('destroy' in input && typeof input.destroy === 'function') input.destroy();
  }
}
