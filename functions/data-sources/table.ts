/**
 * Reading a data store's file (docs/data-sources.md "Uploading a table"): a CSV or XLSX whose
 * header row names the columns, one of them the key column. The bytes go through the same
 * streaming readers as send lists (functions/send-lists: csv-parse for CSV; fflate and saxes
 * with the zip-bomb caps for XLSX), so both formats, encodings and refusals behave the same.
 * The whole file is read and checked before anything is written: a refused file writes nothing.
 * Tests: test/unit/data-store-table.test.ts.
 */
import { Readable } from 'node:stream';
import { DATA_SOURCE_LIMITS } from '#shared/contract/data-sources.ts';
import { csvRows } from '#functions/send-lists/csv.ts';
import { boundedBytes, counted, SendListFileError } from '#functions/send-lists/limits.ts';
import { cutValue, type RawRow } from '#functions/send-lists/rows.ts';
import { xlsxRows } from '#functions/send-lists/xlsx.ts';

/** A file refused; `message` is shown as it is, on the form field `field`. */
export class TableFileError extends Error {
  constructor(
    message: string,
    readonly field = 'file',
  ) {
    super(message);
    this.name = 'TableFileError';
  }
}

/** One record of the file: its key (trimmed) and every column's value by header name. */
export interface TableRecord {
  key: string;
  fields: Record<string, string>;
}

/** A file read whole: its columns in order, its records, and what was cut or skipped. */
export interface Table {
  columns: string[];
  records: TableRecord[];
  cutValues: number;
  skippedEmptyRows: number;
}

/** The format of a file by its name: `.xlsx` is XLSX, anything else is read as CSV. */
export const formatOf = (fileName: string): 'csv' | 'xlsx' =>
  fileName.toLowerCase().endsWith('.xlsx') ? 'xlsx' : 'csv';

const isBlank = (cell: string | undefined) => !cell || cell.trim() === '';

/** The header's column names, trimmed; refused when empty, too wide, repeated or without the key. */
function readHeader(cells: string[], keyColumn: string): { names: string[]; key: number } {
  const names = cells.map((c) => (c ?? '').trim());
  while (names.length > 0 && names[names.length - 1] === '') names.pop();
  if (names.length > DATA_SOURCE_LIMITS.columns)
    throw new TableFileError(
      `The header row has ${counted(names.length)} columns; a data store may have at most ${DATA_SOURCE_LIMITS.columns}.`,
    );
  const seen = new Set<string>();
  names.forEach((name, index) => {
    if (name === '')
      throw new TableFileError(
        `Column ${index + 1} of the header row has no name. Name it, or remove the column.`,
      );
    const folded = name.toLowerCase();
    if (seen.has(folded)) throw new TableFileError(`The header names "${name}" twice; keep one.`);
    seen.add(folded);
  });
  const wanted = keyColumn.trim().toLowerCase();
  const key = names.findIndex((n) => n.toLowerCase() === wanted);
  if (key === -1)
    throw new TableFileError(
      `The header row has no column "${keyColumn.trim()}", the store's key column. Its columns: ${names.slice(0, 10).join(', ')}${names.length > 10 ? ', …' : ''}.`,
    );
  return { names, key };
}

/**
 * Reads a data store's file whole, within its bounds.
 * @param bytes the uploaded file.
 * @param options.format `csv` or `xlsx` ({@link formatOf}).
 * @param options.keyColumn the store's key column, matched to a header name ignoring case.
 * @param options.maxRows the plan's row limit (`dataStoreRowsOf`).
 * @returns the columns (header spelling), the records, counts of cut values and skipped rows.
 * @throws TableFileError for a file larger than 5 MB, binary or not text, a zip bomb, a header
 *   without the key column, over 50 columns, a repeated or unnamed column, a row with values past
 *   the header, an empty or too long key, a key given twice, or more rows than `maxRows`; the
 *   message names the line.
 */
export async function readTable(
  bytes: Buffer,
  options: { format: 'csv' | 'xlsx'; keyColumn: string; maxRows: number },
): Promise<Table> {
  const input = Readable.from([bytes]);
  const chunks = boundedBytes(
    input,
    DATA_SOURCE_LIMITS.fileBytes,
    "a data store's file",
    'Split it, or remove columns no design uses.',
  );
  const raw: AsyncGenerator<RawRow> =
    options.format === 'csv' ? csvRows(chunks) : xlsxRows(chunks, options.maxRows + 1);
  const table: Table = { columns: [], records: [], cutValues: 0, skippedEmptyRows: 0 };
  const lines = new Map<string, number>();
  let header: { names: string[]; key: number } | undefined;
  try {
    for await (const record of raw) {
      if (!header) {
        if (record.cells.every(isBlank)) continue;
        header = readHeader(record.cells, options.keyColumn);
        table.columns = header.names;
        continue;
      }
      const { names, key } = header;
      for (let i = names.length; i < record.cells.length; i++)
        if (!isBlank(record.cells[i]))
          throw new TableFileError(
            `Line ${counted(record.line)} has a value past the header's ${names.length} columns. Name the column in the header, or remove the value.`,
          );
      if (record.cells.every(isBlank)) {
        table.skippedEmptyRows++;
        continue;
      }
      if (table.records.length >= options.maxRows)
        throw new TableFileError(
          `The file has more than ${counted(options.maxRows)} rows, the most your plan allows in a data store. Remove rows, or upgrade for a larger limit.`,
        );
      const keyText = (record.cells[key] ?? '').trim();
      if (keyText === '')
        throw new TableFileError(
          `Line ${counted(record.line)} has no ${names[key]}: every row needs its key.`,
        );
      if (keyText.length > DATA_SOURCE_LIMITS.keyChars)
        throw new TableFileError(
          `The ${names[key]} on line ${counted(record.line)} is longer than ${DATA_SOURCE_LIMITS.keyChars} characters.`,
        );
      const first = lines.get(keyText);
      if (first !== undefined)
        throw new TableFileError(
          `The ${names[key]} "${keyText.slice(0, 40)}" is on line ${counted(first)} and line ${counted(record.line)}; a key may be given once.`,
        );
      lines.set(keyText, record.line);
      const fields: Record<string, string> = {};
      names.forEach((name, index) => {
        const kept = cutValue(record.cells[index] ?? '', DATA_SOURCE_LIMITS.valueChars);
        if (kept.cut) table.cutValues++;
        fields[name] = kept.value;
      });
      table.records.push({ key: keyText, fields });
    }
  } catch (error) {
    if (error instanceof SendListFileError) throw new TableFileError(error.message);
    throw error;
  } finally {
    await raw.return(undefined);
    input.destroy();
  }
  if (!header)
    throw new TableFileError(
      `The file is empty. Its first row must name the columns, among them "${options.keyColumn.trim()}".`,
    );
  return table;
}
