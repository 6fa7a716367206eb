/**
 * Data sources' pure parts (docs/data-sources.md): field paths into a web API's JSON ("Field
 * paths"), URL templates filled with encoded values ("Web APIs"), and a data store's file read
 * whole with its refusals ("Uploading a table").
 */
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { CreateApiBody, DATA_SOURCE_MESSAGES } from '#shared/contract/data-sources.ts';
import { parsePath, PathError, readPath } from '#shared/data-path.ts';
import { urlValuesOf } from '#functions/data-sources/resolve.ts';
import { readTable, TableFileError } from '#functions/data-sources/table.ts';
import { fillTemplate, templateParameters } from '#functions/data-sources/web-api.ts';

const read = (path: string, json: unknown) => readPath(json, parsePath(path));

describe('field paths', () => {
  const answer = {
    items: [{ name: 'Blue mug', price: 12.5, stock: 0, on_sale: false }],
    'odd key': { 'a.b': 'dotted' },
    nothing: null,
    nested: { list: [[1, 2], [3]] },
  };

  it('reads members, indexes and quoted names', () => {
    expect(read('items[0].name', answer)).toBe('Blue mug');
    expect(read('$.items[0].price', answer)).toBe('12.5');
    expect(read('$items[0].stock', answer)).toBe('0');
    expect(read('items[0].on_sale', answer)).toBe('false');
    expect(read('["odd key"]["a.b"]', answer)).toBe('dotted');
    expect(read('nested.list[1][0]', answer)).toBe('3');
    expect(read('', 'plain')).toBe('plain');
    expect(read('$', 7)).toBe('7');
  });

  it('gives no value for what is missing, null or not a scalar', () => {
    expect(read('items[1].name', answer)).toBeUndefined();
    expect(read('items[0].colour', answer)).toBeUndefined();
    expect(read('nothing', answer)).toBeUndefined();
    expect(read('items', answer)).toBeUndefined();
    expect(read('items[0]', answer)).toBeUndefined();
    expect(read('items.name', answer)).toBeUndefined();
    expect(read('[0]', answer)).toBeUndefined();
  });

  it('follows own members only', () => {
    expect(read('constructor', {})).toBeUndefined();
    expect(read('__proto__', {})).toBeUndefined();
    expect(read('toString', { a: 1 })).toBeUndefined();
    expect(read('["__proto__"]', JSON.parse('{"__proto__":"own"}'))).toBe('own');
  });

  it('refuses what is not a path, saying where', () => {
    for (const bad of ['a..b', 'a[', 'a[x]', 'a[1234567]', '["open', '["\\n"]', 'a b', '.a', 'a]'])
      expect(() => parsePath(bad), bad).toThrow(PathError);
    expect(() => parsePath('a[x]')).toThrow(/character 3/);
    expect(() => parsePath('a'.repeat(257))).toThrow('A path has at most 256 characters.');
    expect(() => parsePath(Array(33).fill('a').join('.'))).toThrow('at most 32 steps');
  });

  it('reads a long hostile path in linear time', () => {
    const started = performance.now();
    for (let i = 0; i < 2000; i++) {
      expect(() => parsePath(`["${'\\"'.repeat(120)}`)).toThrow(PathError);
      expect(() => parsePath('[0]'.repeat(85))).toThrow(PathError);
    }
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('URL templates', () => {
  it('fills each placeholder with the encoded value, or nothing', () => {
    const template = 'https://api.example.com/products/{sku}?lang={lang}&x={missing}';
    expect(templateParameters(template)).toEqual(['sku', 'lang', 'missing']);
    expect(fillTemplate(template, { sku: 'A/1?b=2#c', lang: 'fr fr' })).toBe(
      'https://api.example.com/products/A%2F1%3Fb%3D2%23c?lang=fr%20fr&x=',
    );
    // the host is fixed when the API is saved: no placeholder may stand in it
    const url = (u: string) => CreateApiBody.safeParse({ name: 'x', url: u });
    expect(url('https://api.example.com/p/{sku}?q={q}').success).toBe(true);
    for (const bad of ['https://{host}.example.com/', 'https://{a}/', 'https://a{b}.com/x'])
      expect(url(bad).error?.issues[0]?.message, bad).toBe(DATA_SOURCE_MESSAGES.placeholderInHost);
    expect(url('https://x.com:{port}/').success).toBe(false);
    expect(url('ftp://x.com/{a}').error?.issues[0]?.message).toBe(DATA_SOURCE_MESSAGES.url);
  });

  it("fills a binding's placeholders from the parameter or fixed value it names", () => {
    const template = 'https://api.example.com/products/{sku}?lang={lang}&k={__proto__}';
    const query = { code: 'A 1', sku: 'ignored', other: 'x' };
    const values = urlValuesOf(
      {
        url_values: [
          { name: 'sku', param: 'code', value: '' },
          { name: 'lang', param: '', value: 'fr' },
          { name: '__proto__', param: 'absent', value: 'unused' },
        ],
      },
      query,
    );
    expect(fillTemplate(template, values)).toBe(
      'https://api.example.com/products/A%201?lang=fr&k=',
    );
    // a binding saved without the list: each placeholder takes its own name's value
    expect(fillTemplate(template, urlValuesOf({}, query))).toBe(
      'https://api.example.com/products/ignored?lang=&k=',
    );
    expect(query).toEqual({ code: 'A 1', sku: 'ignored', other: 'x' });
  });
});

/** A one-sheet workbook of inline strings. */
function workbook(rows: string[][]): Buffer {
  const cells = (row: string[], r: number) =>
    row
      .map(
        (v, c) =>
          `<c r="${String.fromCharCode(65 + c)}${r + 1}" t="inlineStr"><is><t>${v}</t></is></c>`,
      )
      .join('');
  const sheet = `<worksheet><sheetData>${rows.map((row, r) => `<row r="${r + 1}">${cells(row, r)}</row>`).join('')}</sheetData></worksheet>`;
  return Buffer.from(zipSync({ 'xl/worksheets/sheet1.xml': strToU8(sheet) }));
}

const csv = (text: string) => Buffer.from(text);
const options: { format: 'csv' | 'xlsx'; keyColumn: string; maxRows: number } = {
  format: 'csv',
  keyColumn: 'sku',
  maxRows: 3,
};

async function refusal(bytes: Buffer, more: Partial<typeof options> = {}): Promise<string> {
  const error = await readTable(bytes, { ...options, ...more }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TableFileError);
  return (error as Error).message;
}

describe('a data store file', () => {
  it('reads CSV and XLSX the same: columns, keys trimmed, fields by header name', async () => {
    const text = 'SKU;Name;Price\n A1 ;Blue mug;12\n\nB2;"Red; mug";9\n';
    const fromCsv = await readTable(csv(text), options);
    expect(fromCsv.columns).toEqual(['SKU', 'Name', 'Price']);
    expect(fromCsv.records).toEqual([
      { key: 'A1', fields: { SKU: ' A1 ', Name: 'Blue mug', Price: '12' } },
      { key: 'B2', fields: { SKU: 'B2', Name: 'Red; mug', Price: '9' } },
    ]);
    expect(fromCsv.skippedEmptyRows).toBe(1);
    const fromXlsx = await readTable(
      workbook([
        ['SKU', 'Name', 'Price'],
        [' A1 ', 'Blue mug', '12'],
        ['B2', 'Red; mug', '9'],
      ]),
      { ...options, format: 'xlsx' },
    );
    expect(fromXlsx.records).toEqual(fromCsv.records);
  });

  it('cuts values to 255 characters and counts them', async () => {
    const table = await readTable(csv(`sku,text\nk,${'é'.repeat(300)}\n`), options);
    expect(table.records[0]!.fields.text).toHaveLength(255);
    expect(table.cutValues).toBe(1);
  });

  it('refuses each bad file with a message naming the line or column', async () => {
    expect(await refusal(csv('name,price\nmug,1\n'))).toBe(
      'The header row has no column "sku", the store\'s key column. Its columns: name, price.',
    );
    expect(await refusal(csv('sku,name,Name\n'))).toBe('The header names "Name" twice; keep one.');
    expect(await refusal(csv('sku,,price\n'))).toMatch(/^Column 2 of the header row has no name/);
    expect(await refusal(csv('sku,name\nA,1\nA,2\n'))).toBe(
      'The sku "A" is on line 2 and line 3; a key may be given once.',
    );
    expect(await refusal(csv('sku,name\n,1\n'))).toBe(
      'Line 2 has no sku: every row needs its key.',
    );
    expect(await refusal(csv(`sku\n${'k'.repeat(256)}\n`))).toMatch(/longer than 255 characters/);
    expect(await refusal(csv('sku,name\nA,1,extra\n'))).toMatch(/^Line 2 has a value past/);
    expect(await refusal(csv('sku\n1\n2\n3\n4\n'))).toBe(
      'The file has more than 3 rows, the most your plan allows in a data store. Remove rows, or upgrade for a larger limit.',
    );
    expect(
      await refusal(csv(`sku,${Array.from({ length: 50 }, (_, i) => `c${i}`).join(',')}\n`)),
    ).toMatch(/has 51 columns; a data store may have at most 50/);
    expect(await refusal(csv(''))).toMatch(/^The file is empty/);
    expect(await refusal(Buffer.alloc(5_000_001, 'a'))).toBe(
      "The file is larger than 5 MB, the most a data store's file may be. Split it, or remove columns no design uses.",
    );
    expect(await refusal(workbook([['sku']]).subarray(0, 30), { format: 'xlsx' })).toMatch(
      /workbook|XLSX/,
    );
    expect(await refusal(workbook([['sku'], ['a']]))).toMatch(/ZIP archive/);
  });
});
