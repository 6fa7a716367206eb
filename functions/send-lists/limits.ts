/**
 * The bounds a send-list file is read within, and the error every refusal throws
 * (docs/adr/0053-send-list-files.md "Send-list files"; test/unit/send-list-parse.test.ts).
 */

/** The parse's own bounds; the row and byte limits come from the caller (the plan). */
export const SEND_LIST_LIMITS = {
  /** Characters (code points) a value keeps; the rest is cut and counted. */
  valueChars: 255,
  /** Columns a header may have: the design's parameters plus `email` and some unknown ones. */
  columns: 256,
  /** Characters one CSV record may hold (1 MiB of text); a longer line is refused. */
  recordChars: 1_048_576,
  /** Entries an XLSX archive may hold (a workbook from Excel has about 10 to 30). */
  xlsxEntries: 1_000,
  /** Bytes an XLSX archive may inflate to, all entries together (256 MiB). */
  xlsxInflatedBytes: 256 * 1_048_576,
  /** Inflated bytes per compressed byte read so far (plus {@link xlsxRatioSlack}). */
  xlsxRatio: 100,
  /** Inflated bytes allowed before the ratio applies (1 MiB). */
  xlsxRatioSlack: 1_048_576,
  /**
   * Shared strings an XLSX file may hold at most: one per cell of the rows allowed, and never
   * more than 4 million (each costs a slot and a string even when empty; an unbounded table of
   * `<si/>` let a 5 MB file fill ~430 MB).
   */
  xlsxSharedStrings: 4_000_000,
  /** Compressed bytes handed to the inflater at once, so one step inflates at most ~17 MB. */
  xlsxStepBytes: 16_384,
} as const;

/**
 * A send-list file refused, or a line of it that cannot be read. `message` is shown to the user
 * as it is: it names the line, column or limit concerned. `field` is the form field it belongs
 * to (`file`).
 */
export class SendListFileError extends Error {
  readonly field?: string;
  constructor(message: string, field = 'file') {
    super(message);
    this.name = 'SendListFileError';
    this.field = field;
  }
}

/** A count as a message writes it: `250,000`. */
export const counted = (n: number) => n.toLocaleString('en-US');

/** A size as a message writes it: whole MB (10⁶ bytes) from 1 MB up, else KB. */
export function sized(bytes: number): string {
  if (bytes >= 1_000_000) return `${counted(Math.floor(bytes / 1_000_000))} MB`;
  return `${counted(Math.max(1, Math.floor(bytes / 1_000)))} KB`;
}

/** The refusal of a list longer than the plan's limit, the same for CSV and XLSX. */
export const tooManyRows = (maxRows: number) =>
  new SendListFileError(
    `The list has more than ${counted(maxRows)} rows, the most your plan allows in one send list. ` +
      'Split it into smaller lists, or upgrade for a larger limit.',
  );

/** The refusal of a header wider than {@link SEND_LIST_LIMITS.columns}. */
export const tooManyColumns = (columns: number) =>
  new SendListFileError(
    `The header row has ${counted(columns)} columns; a send list may have at most ` +
      `${SEND_LIST_LIMITS.columns} (one per parameter of the design, plus email).`,
  );

/**
 * The input's bytes, passed on as they come, refused with a message once more than `maxBytes`
 * have been read: the rest of the file is never read.
 * @param subject what the file is, for the message (`a send list`, `a data store's file`).
 * @param advice the sentence after it.
 * @throws SendListFileError past `maxBytes`, or when the input yields something not bytes.
 */
export async function* boundedBytes(
  input: NodeJS.ReadableStream,
  maxBytes: number,
  subject = 'a send list',
  advice = 'Split it into smaller lists.',
): AsyncGenerator<Uint8Array> {
  let total = 0;
  for await (const chunk of input as AsyncIterable<unknown>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (!(bytes instanceof Uint8Array)) throw new SendListFileError('The upload is not a file.');
    total += bytes.byteLength;
    if (total > maxBytes)
      throw new SendListFileError(
        `The file is larger than ${sized(maxBytes)}, the most ${subject} may be. ${advice}`,
      );
    yield bytes;
  }
}

/**
 * The first `min` bytes of a byte stream (fewer only if the stream is shorter), and the stream
 * with those bytes still in front, for sniffing a format before reading it.
 */
export async function peek(
  chunks: AsyncIterable<Uint8Array>,
  min: number,
): Promise<{ head: Uint8Array; rest: AsyncGenerator<Uint8Array> }> {
  const iterator = chunks[Symbol.asyncIterator]();
  const taken: Uint8Array[] = [];
  let length = 0;
  let done = false;
  while (length < min) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    taken.push(next.value);
    length += next.value.byteLength;
  }
  const head = Buffer.concat(taken);
  async function* rest(): AsyncGenerator<Uint8Array> {
    if (head.byteLength > 0) yield head;
    if (done) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next())
      yield next.value;
  }
  return { head, rest: rest() };
}
