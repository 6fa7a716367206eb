/**
 * Reading send-list files (functions/send-lists/parse.ts; docs/adr/0053-send-list-files.md
 * "Send-list files"): CSV and XLSX rows, and each hostile file refused with its message. Hostile
 * files are made here, in memory or as lazy streams, never committed.
 */
import { Readable } from 'node:stream';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  readSendList,
  SendListFileError,
  spreadsheetSafe,
  type SendListReport,
  type SendListRow,
} from '#functions/send-lists/parse.ts';

const PARAMETERS = ['name', 'city'] as const;
const LIMITS = { parameters: PARAMETERS, maxRows: 1_000, maxBytes: 10_000_000 };

/** A byte source cut into `size`-byte chunks (to cross every boundary a reader has). */
const chunked = (bytes: Uint8Array, size = 7) =>
  Readable.from(
    (function* () {
      for (let at = 0; at < bytes.byteLength; at += size) yield bytes.subarray(at, at + size);
    })(),
  );

async function read(
  bytes: Uint8Array | string,
  options: Partial<Parameters<typeof readSendList>[1]> = {},
): Promise<{ rows: SendListRow[]; report: SendListReport }> {
  const data = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  const generator = readSendList(chunked(data, options.format === 'xlsx' ? 1_000 : 7), {
    format: 'csv',
    ...LIMITS,
    ...options,
  });
  const rows: SendListRow[] = [];
  for (;;) {
    const next = await generator.next();
    if (next.done) return { rows, report: next.value };
    rows.push(next.value);
  }
}

/** The message a file is refused with. */
async function refusal(
  bytes: Uint8Array | string | Readable,
  options: Partial<Parameters<typeof readSendList>[1]> = {},
): Promise<string> {
  try {
    if (bytes instanceof Readable) {
      for await (const _ of readSendList(bytes, { format: 'csv', ...LIMITS, ...options })) {
        // read on
      }
    } else await read(bytes, options);
  } catch (error) {
    expect(error).toBeInstanceOf(SendListFileError);
    expect((error as SendListFileError).field).toBe('file');
    return (error as Error).message;
  }
  throw new Error('the file was accepted');
}

// --- XLSX made here -------------------------------------------------------------------------

const escapeXml = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

const columnName = (index: number): string =>
  (index >= 26 ? columnName(Math.floor(index / 26) - 1) : '') +
  String.fromCharCode(65 + (index % 26));

/**
 * A minimal XLSX workbook of string rows, as shared strings (Excel's way) or inline strings;
 * `sheetFirst` stores the worksheet before the shared strings, as Excel does.
 */
function workbook(
  rows: (string | number | undefined)[][],
  { inline = false, sheetFirst = true } = {},
): Uint8Array {
  const strings: string[] = [];
  const sheetRows = rows.map((cells, r) => {
    const xml = cells.map((cell, c) => {
      if (cell === undefined) return '';
      const ref = `${columnName(c)}${r + 1}`;
      if (typeof cell === 'number') return `<c r="${ref}"><v>${cell}</v></c>`;
      if (inline) return `<c r="${ref}" t="inlineStr"><is><t>${escapeXml(cell)}</t></is></c>`;
      strings.push(cell);
      return `<c r="${ref}" t="s"><v>${strings.length - 1}</v></c>`;
    });
    return `<row r="${r + 1}">${xml.join('')}</row>`;
  });
  const sheet = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheetRows.join('')}</sheetData></worksheet>`;
  const shared = `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${strings
    .map((s, i) =>
      // every other string as rich text runs, plus a phonetic run that is not part of the text
      i % 2
        ? `<si><r><t>${escapeXml(s.slice(0, 1))}</t></r><r><t>${escapeXml(s.slice(1))}</t></r><rPh><t>x</t></rPh></si>`
        : `<si><t>${escapeXml(s)}</t></si>`,
    )
    .join('')}</sst>`;
  const files: Zippable = { '[Content_Types].xml': strToU8('<Types/>') };
  if (sheetFirst) files['xl/worksheets/sheet1.xml'] = strToU8(sheet);
  if (!inline) files['xl/sharedStrings.xml'] = strToU8(shared);
  if (!sheetFirst) files['xl/worksheets/sheet1.xml'] = strToU8(sheet);
  return zipSync(files);
}

// --- CSV ------------------------------------------------------------------------------------

describe('CSV', () => {
  it('reads rows by the header, with lines, email, quotes and CRLF', async () => {
    const { rows, report } = await read(
      'Name,email,City\r\nAnna,anna@example.com,"Berlin, DE"\r\n"Bo ""B""",,"New\nYork"\r\nCé,c@example.com,Zürich\r\n',
    );
    expect(rows).toEqual([
      { line: 2, values: { name: 'Anna', city: 'Berlin, DE' }, email: 'anna@example.com', cut: [] },
      { line: 4, values: { name: 'Bo "B"', city: 'New\nYork' }, cut: [] },
      { line: 5, values: { name: 'Cé', city: 'Zürich' }, email: 'c@example.com', cut: [] },
    ]);
    expect(report).toEqual({
      rows: 3,
      cutValues: 0,
      formulaValues: 0,
      unknownColumns: [],
      skippedEmptyRows: 0,
    });
  });

  it('strips a UTF-8 BOM and reads ; or tab as the delimiter', async () => {
    const bom = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('name;city\nÅsa;Malmö\n'),
    ]);
    expect((await read(bom)).rows[0]!.values).toEqual({ name: 'Åsa', city: 'Malmö' });
    expect((await read('name\tcity\nAl\tRome\n')).rows[0]!.values).toEqual({
      name: 'Al',
      city: 'Rome',
    });
  });

  it('transcodes UTF-16 with a BOM (Excel "Unicode Text"), little and big endian', async () => {
    const text = 'name\tcity\nŽofie\t東京\n';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(le);
    be.swap16();
    for (const file of [le, be])
      expect((await read(file)).rows).toEqual([
        { line: 2, values: { name: 'Žofie', city: '東京' }, cut: [] },
      ]);
  });

  it('refuses bytes that are not UTF-8, naming the line', async () => {
    const latin1 = Buffer.concat([
      Buffer.from('name,city\nAnna,Berlin\nRen'),
      Buffer.from([0xe9]),
      Buffer.from(',Paris\n'),
    ]);
    expect(await refusal(latin1)).toBe(
      'Line 3 holds bytes that are not UTF-8 text (the file may be saved as Windows-1252 or Latin-1). Save the list as "CSV UTF-8" and upload it again.',
    );
  });

  it('pads short rows, refuses values past the header with the line, skips empty rows', async () => {
    const { rows, report } = await read('name,city\nAnna\n,\n\nBo,Oslo,\n');
    expect(rows).toEqual([
      { line: 2, values: { name: 'Anna', city: '' }, cut: [] },
      { line: 5, values: { name: 'Bo', city: 'Oslo' }, cut: [] },
    ]);
    expect(report.skippedEmptyRows).toBe(2);
    expect(await refusal('name\nAnna,Berlin\n')).toMatch(
      /^Line 2 has 2 values but the header has 1 column\. /,
    );
    expect(await refusal('name,city\nAnna,Berlin\nBo,Oslo,Norway\n')).toBe(
      'Line 3 has 3 values but the header has 2 columns. Name the extra column in the header, or remove its values (a comma inside a value needs quotes).',
    );
  });

  it('reports unknown columns and ignores their values; refuses a header without parameters', async () => {
    const { rows, report } = await read('name,Shoe size,city,\nAnna,42,Berlin,\n');
    expect(rows[0]!.values).toEqual({ name: 'Anna', city: 'Berlin' });
    expect(report.unknownColumns).toEqual(['Shoe size']);
    expect(await refusal('first,last\nA,B\n')).toBe(
      "The header row names none of this design's parameters. The first row must name the columns: name, city (and optionally email).",
    );
    expect(await refusal('name,NAME\nA,B\n')).toBe(
      'The header names "name" twice (columns 1 and 2); keep one.',
    );
    expect(await refusal('')).toMatch(/^The file is empty\./);
  });

  it('cuts values over 255 characters, never inside a surrogate pair, and counts them', async () => {
    const long = 'a'.repeat(254) + '😀' + 'b';
    const { rows, report } = await read(`name,city\n${long},${'c'.repeat(255)}\n`);
    expect(rows[0]!.values.name).toBe('a'.repeat(254) + '😀');
    expect(rows[0]!.values.city).toBe('c'.repeat(255));
    expect(rows[0]!.cut).toEqual(['name']);
    expect(report.cutValues).toBe(1);
  });

  it('keeps formula-like values for rendering, counts them, and escapes them for spreadsheets', async () => {
    const { rows, report } = await read(
      'name,city\n"=HYPERLINK(""http://evil.example"",""x"")",+1\n@SUM(A1),-2\nplain,a=b\n',
    );
    expect(rows[0]!.values.name).toBe('=HYPERLINK("http://evil.example","x")');
    expect(report.formulaValues).toBe(4);
    expect(rows.flatMap((r) => Object.values(r.values).map(spreadsheetSafe))).toEqual([
      `'=HYPERLINK("http://evil.example","x")`,
      "'+1",
      "'@SUM(A1)",
      "'-2",
      'plain',
      'a=b',
    ]);
  });

  it('keeps a quote inside an unquoted value; refuses an unclosed quote with its line', async () => {
    expect((await read('name,city\n5" screen,Oslo\n')).rows[0]!.values.name).toBe('5" screen');
    expect(await refusal('name,city\nAnna,"Berlin\nBo,Oslo\n')).toMatch(
      /^A quoted value that starts on or before line \d+ is never closed/,
    );
  });
});

// --- Hostile files --------------------------------------------------------------------------

describe('hostile files', () => {
  it('refuses a 1 GB file once past maxBytes, without reading the rest', async () => {
    let produced = 0;
    const row = Buffer.from('Anna,Berlin\n'.repeat(5_000)); // 60 kB
    const gigabyte = Readable.from(
      (function* () {
        yield Buffer.from('name,city\n');
        while (produced < 1_000_000_000) {
          produced += row.byteLength;
          yield row;
        }
      })(),
    );
    expect(await refusal(gigabyte, { maxBytes: 5_000_000, maxRows: 10_000_000 })).toBe(
      'The file is larger than 5 MB, the most a send list may be. Split it into smaller lists.',
    );
    expect(produced).toBeLessThan(6_000_000);
  });

  it('refuses a binary file: an image, and bytes with NULs', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    expect(await refusal(png)).toBe(
      'This file is a PNG file (image/png), not CSV text. Save the list as "CSV UTF-8" and upload that.',
    );
    const random = Buffer.alloc(5_000);
    for (let i = 0; i < random.length; i++) random[i] = (i * 7919) % 256;
    expect(await refusal(random)).toBe(
      'This file is binary, not CSV text (it holds NUL bytes). Save the list as "CSV UTF-8" and upload that.',
    );
    expect(await refusal(workbook([['name']]))).toMatch(/^This file is a ZIP archive/);
    expect(await refusal(Buffer.from('name,city\n'), { format: 'xlsx' })).toBe(
      'This file is not an XLSX workbook. Save the list from Excel as .xlsx or as "CSV UTF-8".',
    );
  });

  it('refuses a CSV with 10,000 columns', async () => {
    const header = Array.from({ length: 10_000 }, (_, i) => `c${i}`).join(',');
    expect(await refusal(`name,city,${header}\nA,B\n`)).toBe(
      'The header row has 10,002 columns; a send list may have at most 256 (one per parameter of the design, plus email).',
    );
  });

  it('refuses more rows than the plan allows, naming the limit', async () => {
    const csv = 'name,city\n' + 'Anna,Berlin\n'.repeat(1_001);
    expect(await refusal(csv)).toBe(
      'The list has more than 1,000 rows, the most your plan allows in one send list. Split it into smaller lists, or upgrade for a larger limit.',
    );
    expect((await read('name,city\n' + 'Anna,Berlin\n'.repeat(1_000))).report.rows).toBe(1_000);
  });

  it('refuses a zip bomb disguised as XLSX (one 16 MB entry stored in 16 kB)', async () => {
    const bomb = zipSync(
      { 'xl/worksheets/sheet1.xml': Buffer.alloc(16_000_000, '<worksheet>      ') },
      { level: 9 },
    );
    expect(bomb.byteLength).toBeLessThan(50_000);
    expect(await refusal(bomb, { format: 'xlsx' })).toBe(
      'This file inflates to far more data than a spreadsheet holds (a "zip bomb"), so it was refused. Save the list from Excel again, or as "CSV UTF-8".',
    );
  });

  it('refuses more shared strings than the rows allowed can use (a table of empty <si/>)', async () => {
    // A header and 1,000 rows of 256 columns can use 256,256 strings; this table has 300,000 empty
    // ones (1.5 MB of XML, stored: under the zip-bomb ratio, so only the count refuses it).
    const shared = `<sst>${'<si/>'.repeat(300_000)}</sst>`;
    const file = zipSync(
      {
        'xl/sharedStrings.xml': strToU8(shared),
        'xl/worksheets/sheet1.xml': strToU8('<worksheet><sheetData/></worksheet>'),
      },
      { level: 0 },
    );
    expect(await refusal(file, { format: 'xlsx' })).toBe(
      'This workbook holds more than 256,256 distinct texts, more than its rows allowed can use, so it was refused. Save the list as "CSV UTF-8".',
    );
    // Within the bound, the same table reads.
    const fewer = zipSync({
      'xl/sharedStrings.xml': strToU8(`<sst><si><t>name</t></si>${'<si/>'.repeat(1_000)}</sst>`),
      'xl/worksheets/sheet1.xml': strToU8(
        '<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData></worksheet>',
      ),
    });
    expect((await read(fewer, { format: 'xlsx' })).report.rows).toBe(0);
  });

  it('refuses an archive of too many entries', async () => {
    const many: Zippable = {};
    for (let i = 0; i < 2_000; i++) many[`xl/media/f${i}.bin`] = new Uint8Array(10);
    expect(await refusal(zipSync(many), { format: 'xlsx' })).toBe(
      'This workbook has more than 1,000 parts, far more than a send list needs, so it was refused.',
    );
  });

  it('refuses an old .xls file and damaged XML', async () => {
    const xls = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]);
    expect(await refusal(xls, { format: 'xlsx' })).toMatch(/^This is an old Excel 97–2003/);
    const broken = zipSync({ 'xl/worksheets/sheet1.xml': strToU8('<worksheet><row><c') });
    expect(await refusal(broken, { format: 'xlsx' })).toMatch(/^This workbook is damaged/);
  });
});

// --- XLSX -----------------------------------------------------------------------------------

describe('XLSX', () => {
  const table = [
    ['name', 'Email', 'Extra', 'city'],
    ['Anna', 'anna@example.com', 'x', 'Berlin'],
    [], // an empty row Excel keeps
    ['Bo', undefined, undefined, '=1+1'],
    ['Zoë', undefined, undefined, 'x'.repeat(300)],
    [42, undefined, undefined, 'Oslo'],
  ];
  const expected = [
    { line: 2, values: { name: 'Anna', city: 'Berlin' }, email: 'anna@example.com', cut: [] },
    { line: 4, values: { name: 'Bo', city: '=1+1' }, cut: [] },
    { line: 5, values: { name: 'Zoë', city: 'x'.repeat(255) }, cut: ['city'] },
    { line: 6, values: { name: '42', city: 'Oslo' }, cut: [] },
  ];

  it.each([
    ['shared strings after the worksheet (as Excel stores them)', { sheetFirst: true }],
    ['shared strings before the worksheet', { sheetFirst: false }],
    ['inline strings', { inline: true }],
  ])('reads the first worksheet with %s', async (_, layout) => {
    const { rows, report } = await read(workbook(table, layout), { format: 'xlsx' });
    expect(rows).toEqual(expected);
    expect(report).toEqual({
      rows: 4,
      cutValues: 1,
      formulaValues: 1,
      unknownColumns: ['Extra'],
      skippedEmptyRows: 1,
    });
  });

  it('refuses a worksheet with 10,000 columns, and values past the header', async () => {
    const wide = [Array.from({ length: 10_000 }, (_, i) => (i < 2 ? PARAMETERS[i] : `c${i}`))];
    expect(await refusal(workbook(wide, { inline: true }), { format: 'xlsx' })).toBe(
      'The header row has 257 columns; a send list may have at most 256 (one per parameter of the design, plus email).',
    );
    const ragged = [
      ['name', 'city'],
      ['A', 'B', 'C'],
    ];
    expect(await refusal(workbook(ragged), { format: 'xlsx' })).toMatch(
      /^Line 2 has 3 values but the header has 2 columns/,
    );
  });

  it('refuses more rows than the plan allows while they wait for their shared strings', async () => {
    const rows = [['name', 'city'], ...Array.from({ length: 30 }, (_, i) => [`n${i}`, 'c'])];
    expect(await refusal(workbook(rows), { format: 'xlsx', maxRows: 20 })).toMatch(
      /^The list has more than 20 rows/,
    );
  });
});

describe('XLSX dates', () => {
  /**
   * A workbook whose cells are numbers with a style: `xf` lists each style's number format id
   * (164 on: the custom `formats`), written in Excel's order (workbook, worksheet, styles) or
   * with the styles first.
   */
  function dated(
    cells: Array<{ name: string; value: number; style: number }>,
    {
      xf,
      formats = {},
      date1904 = false,
      stylesFirst = false,
    }: {
      xf: number[];
      formats?: Record<number, string>;
      date1904?: boolean;
      stylesFirst?: boolean;
    },
  ): Uint8Array {
    const header = cells
      .map((c, i) => `<c r="${columnName(i)}1" t="inlineStr"><is><t>${c.name}</t></is></c>`)
      .join('');
    const row = cells
      .map((c, i) => `<c r="${columnName(i)}2" s="${c.style}"><v>${c.value}</v></c>`)
      .join('');
    const sheet = `<worksheet><sheetData><row r="1">${header}</row><row r="2">${row}</row></sheetData></worksheet>`;
    const numFmts = Object.entries(formats)
      .map(([id, code]) => `<numFmt numFmtId="${id}" formatCode="${escapeXml(code)}"/>`)
      .join('');
    // cellStyleXfs come first in a real styles part: their <xf>s are not cell styles.
    const styles = `<styleSheet><numFmts>${numFmts}</numFmts><cellStyleXfs><xf numFmtId="14"/></cellStyleXfs><cellXfs>${xf
      .map((id) => `<xf numFmtId="${id}"/>`)
      .join('')}</cellXfs></styleSheet>`;
    const files: Zippable = {
      'xl/workbook.xml': strToU8(
        `<workbook><workbookPr date1904="${date1904 ? 1 : 0}"/></workbook>`,
      ),
    };
    if (stylesFirst) files['xl/styles.xml'] = strToU8(styles);
    files['xl/worksheets/sheet1.xml'] = strToU8(sheet);
    if (!stylesFirst) files['xl/styles.xml'] = strToU8(styles);
    return zipSync(files);
  }

  const valuesOf = async (bytes: Uint8Array, parameters: readonly string[]) => {
    const { rows } = await read(bytes, { format: 'xlsx', parameters });
    expect(rows).toHaveLength(1);
    return rows[0]!.values;
  };

  it.each([
    ['after the worksheet (as Excel stores them)', false],
    ['before the worksheet', true],
  ])('writes date cells as ISO dates, styles %s', async (_, stylesFirst) => {
    const cells = [
      { name: 'short', value: 45356, style: 1 }, // built-in 14, m/d/yyyy
      { name: 'european', value: 45356, style: 2 }, // dd/mm/yyyy
      { name: 'stamp', value: 45356.771, style: 3 }, // yyyy-mm-dd hh:mm (18:30:14)
      { name: 'clock', value: 0.5, style: 4 }, // built-in 20, h:mm
      { name: 'month', value: 45356, style: 5 }, // mmmm "of" yyyy, quoted text ignored
      { name: 'money', value: 42.5, style: 6 }, // 0.00: a number, as stored
      { name: 'duration', value: 1.5, style: 7 }, // [h]:mm: elapsed time, as stored
      { name: 'plain', value: 45356, style: 0 }, // General
    ];
    const values = await valuesOf(
      dated(cells, {
        xf: [0, 14, 164, 165, 20, 166, 2, 167],
        formats: {
          164: 'dd/mm/yyyy',
          165: 'yyyy-mm-dd hh:mm',
          166: 'mmmm "of" yyyy;@',
          167: '[h]:mm',
        },
        stylesFirst,
      }),
      cells.map((c) => c.name),
    );
    expect(values).toEqual({
      short: '2024-03-05',
      european: '2024-03-05',
      stamp: '2024-03-05T18:30:14',
      clock: '12:00:00',
      month: '2024-03-05',
      money: '42.5',
      duration: '1.5',
      plain: '45356',
    });
  });

  it('counts from 1904 in a 1904 workbook, and before Excel’s 29 February 1900', async () => {
    const mac = dated([{ name: 'day', value: 43894, style: 1 }], { xf: [0, 14], date1904: true });
    expect(await valuesOf(mac, ['day'])).toEqual({ day: '2024-03-05' });
    const early = dated([{ name: 'day', value: 1, style: 1 }], { xf: [0, 14] });
    expect(await valuesOf(early, ['day'])).toEqual({ day: '1900-01-01' });
  });
});
