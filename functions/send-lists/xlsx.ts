/**
 * An XLSX send list as raw rows, streamed (docs/adr/0053-send-list-files.md "Send-list files"):
 * fflate's streaming `Unzip` inflates only the shared strings and the first worksheet, counting
 * every inflated byte against a total cap and a ratio to the bytes read (a zip bomb is refused
 * after at most one step), with a cap on entries; saxes reads their XML as it arrives (no DTD, so
 * no entity expansion). Rows come out as soon as their shared strings are known; a worksheet stored
 * before its shared strings keeps its rows (string indexes, at most `maxRows`) until they come.
 * Tests: test/unit/send-list-parse.test.ts.
 */
import { Unzip, UnzipInflate, UnzipPassThrough, type UnzipFile } from 'fflate';
import { SaxesParser } from 'saxes';
import {
  peek,
  SEND_LIST_LIMITS as LIMITS,
  SendListFileError,
  tooManyColumns,
  tooManyRows,
} from './limits.ts';
import type { RawRow } from './rows.ts';
import {
  serialToIso,
  stylesParser,
  STYLES,
  WORKBOOK,
  workbookParser,
  type WorkbookDates,
} from './xlsx-dates.ts';

const SHARED_STRINGS = 'xl/sharedStrings.xml';
const WORKSHEET = /^xl\/worksheets\/sheet\d{1,6}\.xml$/;

/** Code units of a shared string kept: enough to know it is over 255 code points. */
const KEPT_UNITS = LIMITS.valueChars * 2 + 1;

/**
 * A cell before shared strings and styles are known: text, an index into the shared strings, or
 * a number with a cell style (a date when the style's format is one: xlsx-dates.ts).
 */
type Cell = string | { shared: number } | { serial: string; style: number };

interface PendingRow {
  line: number;
  cells: Cell[];
}

const damaged = (what: string) =>
  new SendListFileError(
    `This workbook is damaged (${what}). Open it in Excel and save it again, or save the list as "CSV UTF-8".`,
  );

/** The 0-based column of a cell reference such as `AB12`, or -1 without letters. */
function columnOf(reference: string): number {
  let column = 0;
  let letters = 0;
  for (const char of reference) {
    const code = char.charCodeAt(0);
    if (code < 65 || code > 90) break;
    column = column * 26 + (code - 64);
    if (++letters > 3) break;
  }
  return letters === 0 ? -1 : column - 1;
}

/** Streams an XML entry's bytes into a saxes parser, decoding UTF-8 across chunk edges. */
function xmlSink(parser: SaxesParser) {
  const decoder = new TextDecoder('utf-8');
  return (data: Uint8Array, final: boolean) => {
    parser.write(decoder.decode(data, { stream: !final }));
    if (final) parser.close();
  };
}

/**
 * The shared-string table's parser: each `<si>`'s text, phonetic runs (`<rPh>`) left out.
 * @param maxStrings the most strings kept; one more refuses the file.
 * @throws SendListFileError past `maxStrings`.
 */
function sharedStringsParser(strings: string[], maxStrings: number) {
  const parser = new SaxesParser();
  let text: string | undefined;
  let inText = false;
  let phonetic = 0;
  parser.on('opentag', (tag) => {
    if (tag.name === 'si') text = '';
    else if (tag.name === 'rPh') phonetic++;
    else if (tag.name === 't') inText = phonetic === 0;
  });
  parser.on('text', (chunk) => {
    if (inText && text !== undefined && text.length < KEPT_UNITS)
      text = (text + chunk).slice(0, KEPT_UNITS);
  });
  parser.on('closetag', (tag) => {
    if (tag.name === 't') inText = false;
    else if (tag.name === 'rPh') phonetic--;
    else if (tag.name === 'si') {
      if (strings.length >= maxStrings)
        throw new SendListFileError(
          `This workbook holds more than ${maxStrings.toLocaleString('en-US')} distinct texts, more than its rows allowed can use, so it was refused. Save the list as "CSV UTF-8".`,
        );
      strings.push(text ?? '');
      text = undefined;
    }
  });
  return parser;
}

/** The worksheet's parser: rows of cells as `<row>`, `<c r t>`, `<v>` and `<is><t>` give them. */
function worksheetParser(onRow: (row: PendingRow) => void) {
  const parser = new SaxesParser();
  let row: PendingRow | undefined;
  let next = 0;
  let cell: { column: number; type: string; style: string | undefined; value: string } | undefined;
  let reading = false;
  parser.on('opentag', (tag) => {
    const attribute = (name: string) => {
      const value = tag.attributes[name];
      return typeof value === 'string' ? value : undefined;
    };
    if (tag.name === 'row') {
      const line = Number(attribute('r') ?? (row ? row.line + 1 : 1));
      row = { line: Number.isSafeInteger(line) ? line : 0, cells: [] };
      next = 0;
    } else if (tag.name === 'c' && row) {
      const reference = attribute('r');
      const column = reference ? columnOf(reference) : next;
      if (column < 0) throw damaged(`a cell reference "${reference?.slice(0, 12)}"`);
      if (column >= LIMITS.columns) throw tooManyColumns(column + 1);
      cell = { column, type: attribute('t') ?? 'n', style: attribute('s'), value: '' };
      next = column + 1;
    } else if (tag.name === 'v' || tag.name === 't') reading = cell !== undefined;
  });
  parser.on('text', (chunk) => {
    if (reading && cell && cell.value.length < KEPT_UNITS)
      cell.value = (cell.value + chunk).slice(0, KEPT_UNITS);
  });
  parser.on('closetag', (tag) => {
    if (tag.name === 'v' || tag.name === 't') reading = false;
    else if (tag.name === 'c' && row && cell) {
      row.cells[cell.column] = cellValue(cell.type, cell.value, cell.style);
      cell = undefined;
    } else if (tag.name === 'row' && row) {
      onRow(row);
    }
  });
  return parser;
}

/**
 * A cell's value as text: a shared-string index, a styled number (maybe a date), or its text,
 * number or boolean.
 */
function cellValue(type: string, value: string, style: string | undefined): Cell {
  if (type === 's') {
    const index = Number(value);
    if (!Number.isSafeInteger(index) || index < 0) throw damaged('a shared-string index');
    return { shared: index };
  }
  if (type === 'b') return value === '1' ? 'TRUE' : 'FALSE';
  if (type === 'e') return '';
  const index = Number(style);
  if (type === 'n' && value !== '' && Number.isSafeInteger(index) && index > 0)
    return { serial: value, style: index };
  return value;
}

/**
 * The rows of an XLSX workbook's first worksheet, each with its row number (1-based, the header
 * is usually row 1) and its cells as text (an empty string where a row has no cell).
 * @param maxRows the caller's row limit: more rows than that waiting for their shared strings
 *   are refused as too many.
 * @throws SendListFileError for a file that is not an XLSX archive, a zip bomb (over
 *   {@link LIMITS.xlsxInflatedBytes} inflated, or over {@link LIMITS.xlsxRatio} times the bytes
 *   read), too many entries, damaged XML, or a workbook without a worksheet.
 */
export async function* xlsxRows(
  chunks: AsyncIterable<Uint8Array>,
  maxRows: number,
): AsyncGenerator<RawRow> {
  const { head, rest } = await peek(chunks, 8);
  if (head[0] === 0xd0 && head[1] === 0xcf && head[2] === 0x11 && head[3] === 0xe0)
    throw new SendListFileError(
      'This is an old Excel 97–2003 workbook (.xls). Save it as .xlsx or as "CSV UTF-8" and upload that.',
    );
  if (!(head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04))
    throw new SendListFileError(
      'This file is not an XLSX workbook. Save the list from Excel as .xlsx or as "CSV UTF-8".',
    );

  const strings: string[] = [];
  let stringsDone = false;
  const dates: WorkbookDates = { styles: [], date1904: false };
  let stylesDone = false;
  let workbookDone = false;
  let sheetSeen = false;
  const pending: PendingRow[] = [];
  let entries = 0;
  let read = 0;
  let inflated = 0;
  let failure: unknown;

  /** Whether a cell waits for a part not read yet. */
  const waits = (cell: Cell | undefined) =>
    typeof cell === 'object' && ('shared' in cell ? !stringsDone : !(stylesDone && workbookDone));

  const resolve = (row: PendingRow): RawRow => ({
    line: row.line,
    cells: Array.from(row.cells, (cell) => {
      if (cell === undefined || typeof cell === 'string') return cell ?? '';
      if ('serial' in cell) {
        const kind = dates.styles[cell.style];
        return (kind && serialToIso(Number(cell.serial), kind, dates.date1904)) ?? cell.serial;
      }
      const text = strings[cell.shared];
      if (text === undefined) throw damaged('a cell refers to a shared string that is missing');
      return text;
    }),
  });

  const consume = (file: UnzipFile, sink: (data: Uint8Array, final: boolean) => void) => {
    file.ondata = (error, data, final) => {
      if (failure) return;
      try {
        if (error) throw damaged('an entry cannot be inflated');
        inflated += data.byteLength;
        if (
          inflated > LIMITS.xlsxInflatedBytes ||
          inflated > read * LIMITS.xlsxRatio + LIMITS.xlsxRatioSlack
        )
          throw new SendListFileError(
            'This file inflates to far more data than a spreadsheet holds (a "zip bomb"), so it was refused. Save the list from Excel again, or as "CSV UTF-8".',
          );
        sink(data, final);
      } catch (caught) {
        failure = caught instanceof SendListFileError ? caught : damaged('its XML cannot be read');
      }
    };
    file.start();
  };

  const unzip = new Unzip((file) => {
    if (failure) return;
    if (++entries > LIMITS.xlsxEntries) {
      failure = new SendListFileError(
        `This workbook has more than ${LIMITS.xlsxEntries.toLocaleString('en-US')} parts, far more than a send list needs, so it was refused.`,
      );
      return;
    }
    if (file.name === SHARED_STRINGS) {
      // One per cell of the rows allowed (a header row and `maxRows` rows), capped.
      const parser = sharedStringsParser(
        strings,
        Math.min(LIMITS.xlsxSharedStrings, (maxRows + 1) * LIMITS.columns),
      );
      const sink = xmlSink(parser);
      consume(file, (data, final) => {
        sink(data, final);
        if (final) stringsDone = true;
      });
    } else if (file.name === STYLES || file.name === WORKBOOK) {
      const styles = file.name === STYLES;
      const sink = xmlSink(styles ? stylesParser(dates) : workbookParser(dates));
      consume(file, (data, final) => {
        sink(data, final);
        if (final && styles) stylesDone = true;
        else if (final) workbookDone = true;
      });
    } else if (!sheetSeen && WORKSHEET.test(file.name)) {
      sheetSeen = true;
      consume(
        file,
        xmlSink(
          worksheetParser((row) => {
            pending.push(row);
            if (pending.length > maxRows + 1 && pending[0]!.cells.some(waits))
              throw tooManyRows(maxRows);
          }),
        ),
      );
    }
  });
  unzip.register(UnzipInflate);
  unzip.register(UnzipPassThrough);

  const drain = function* (all: boolean): Generator<RawRow> {
    while (pending.length > 0) {
      const row = pending[0]!;
      if (!all && row.cells.some(waits)) return;
      pending.shift();
      yield resolve(row);
    }
  };

  const step = (bytes: Uint8Array, final: boolean) => {
    read += bytes.byteLength;
    try {
      unzip.push(bytes, final);
    } catch (error) {
      failure ??= error instanceof SendListFileError ? error : damaged('not a readable ZIP');
    }
    if (failure) throw failure;
  };

  for await (const chunk of rest) {
    for (let at = 0; at < chunk.byteLength; at += LIMITS.xlsxStepBytes) {
      step(chunk.subarray(at, at + LIMITS.xlsxStepBytes), false);
      yield* drain(false);
    }
  }
  step(new Uint8Array(0), true);
  if (!sheetSeen) throw new SendListFileError('This workbook has no worksheet.');
  yield* drain(true);
}
