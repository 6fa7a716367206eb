/**
 * A CSV send list as raw records (docs/adr/0053-send-list-files.md "Send-list files"): bytes
 * sniffed for a binary file and a byte-order mark, decoded (UTF-8, or UTF-16 after its BOM) with
 * invalid bytes refused, the delimiter taken from the header line, a quote inside an unquoted value
 * kept as text (`5" screen`), and records read by `csv-parse` one at a time. Tests:
 * test/unit/send-list-parse.test.ts.
 */
import { CsvError, parse } from 'csv-parse';
import { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { peek, SEND_LIST_LIMITS, SendListFileError } from './limits.ts';
import type { RawRow } from './rows.ts';

/** Bytes looked at before reading: enough for a BOM and file-type's signatures. */
const SNIFF_BYTES = 4_100;

/** The delimiters a header line may use: Excel writes `;` in some locales, tab for "Text". */
const DELIMITERS = [',', ';', '\t'] as const;

interface Encoding {
  label: 'utf-8' | 'utf-16le' | 'utf-16be';
  bom: number;
}

/** The text encoding a file's first bytes announce; UTF-8 without a BOM by default. */
function encodingOf(head: Uint8Array): Encoding {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { label: 'utf-8', bom: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { label: 'utf-16le', bom: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { label: 'utf-16be', bom: 2 };
  return { label: 'utf-8', bom: 0 };
}

/**
 * Refuses a file whose first bytes are a known binary format (file-type) or, without a UTF-16
 * BOM, hold a NUL byte, which no CSV text has.
 */
async function refuseBinary(head: Uint8Array, encoding: Encoding): Promise<void> {
  const type = await fileTypeFromBuffer(head);
  if (type)
    throw new SendListFileError(
      type.ext === 'zip' || type.ext === 'xlsx'
        ? 'This file is a ZIP archive (an Excel workbook?), not CSV text. Upload a .xlsx file as XLSX, or save the list as "CSV UTF-8".'
        : `This file is a ${type.ext.toUpperCase()} file (${type.mime}), not CSV text. Save the list as "CSV UTF-8" and upload that.`,
    );
  if (encoding.label === 'utf-8' && head.includes(0))
    throw new SendListFileError(
      'This file is binary, not CSV text (it holds NUL bytes). Save the list as "CSV UTF-8" and upload that.',
    );
}

/** Newlines in a string (a line count for messages). */
function newlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * The file's text, decoded strictly: a byte sequence that is not valid in the encoding is
 * refused with the line it is on.
 */
async function* decoded(
  chunks: AsyncIterable<Uint8Array>,
  encoding: Encoding,
): AsyncGenerator<string> {
  const decoder = new TextDecoder(encoding.label, { fatal: true, ignoreBOM: false });
  let line = 1;
  const decode = (bytes?: Uint8Array) => {
    try {
      const text = bytes ? decoder.decode(bytes, { stream: true }) : decoder.decode();
      line += newlines(text);
      if (encoding.label !== 'utf-8' && text.includes('\0'))
        throw new SendListFileError('This file is binary, not CSV text (it holds NUL characters).');
      return text;
    } catch (error) {
      if (error instanceof SendListFileError) throw error;
      // the line of the first undecodable byte: the chunk decoded again, leniently
      const lenient = new TextDecoder(encoding.label).decode(bytes);
      line += newlines(lenient.slice(0, Math.max(0, lenient.indexOf('\uFFFD'))));
      throw new SendListFileError(
        encoding.label === 'utf-8'
          ? `Line ${line} holds bytes that are not UTF-8 text (the file may be saved as Windows-1252 or Latin-1). Save the list as "CSV UTF-8" and upload it again.`
          : `Line ${line} holds bytes that are not valid ${encoding.label.toUpperCase()} text. Save the list as "CSV UTF-8" and upload it again.`,
      );
    }
  };
  for await (const chunk of chunks) {
    const text = decode(chunk);
    if (text) yield text;
  }
  const tail = decode();
  if (tail) yield tail;
}

/** The delimiter the header line uses most: `,` `;` or tab (`,` when it has none). */
function delimiterOf(firstText: string): string {
  const end = firstText.indexOf('\n');
  const header = end === -1 ? firstText : firstText.slice(0, end);
  let best: string = DELIMITERS[0];
  let bestCount = 0;
  for (const delimiter of DELIMITERS) {
    const count = header.split(delimiter).length - 1;
    if (count > bestCount) [best, bestCount] = [delimiter, count];
  }
  return best;
}

/** A csv-parse error as the user reads it, with its line. */
function csvMessage(error: CsvError): string {
  const line = (error as CsvError & { lines?: number }).lines ?? 0;
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return `A quoted value that starts on or before line ${line} is never closed: add the closing quote (").`;
    case 'CSV_MAX_RECORD_SIZE':
      return `Line ${line} is longer than ${SEND_LIST_LIMITS.recordChars.toLocaleString('en-US')} characters, more than a send-list row can be.`;
    default:
      return `Line ${line} cannot be read as CSV: ${error.message}`;
  }
}

/**
 * The records of a CSV file, each with the line it ends on (1-based, the header is line 1).
 * @throws SendListFileError for a binary file, invalid text or a malformed record.
 */
export async function* csvRows(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<RawRow> {
  const { head, rest } = await peek(chunks, SNIFF_BYTES);
  const encoding = encodingOf(head);
  await refuseBinary(head, encoding);
  const text = decoded(
    (async function* () {
      let first = true;
      for await (const chunk of rest) {
        yield first ? chunk.subarray(encoding.bom) : chunk;
        first = false;
      }
    })(),
    encoding,
  );
  const firstText = await text.next();
  if (firstText.done) return;
  const parser = parse({
    delimiter: delimiterOf(firstText.value),
    relax_column_count: true,
    relax_quotes: true,
    info: true,
    max_record_size: SEND_LIST_LIMITS.recordChars,
  });
  const source = Readable.from(
    (async function* () {
      yield firstText.value;
      yield* text;
    })(),
  );
  source.on('error', (error) => parser.destroy(error));
  source.pipe(parser);
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>)
      yield { line: info.lines, cells: record };
  } catch (error) {
    if (error instanceof CsvError) throw new SendListFileError(csvMessage(error));
    throw error;
  } finally {
    source.destroy();
    parser.destroy();
  }
}
