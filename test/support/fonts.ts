/**
 * Test helper: real font files for the upload tests, made from installed OFL fonts.
 *
 * Every font we host or list is in the catalogue, and an upload of a listed family is refused,
 * so the fixtures get a family name of their own: the `name` table is rewritten (Windows
 * Unicode records: family, subfamily, full name, PostScript name), and `bold` sets the
 * OS/2 and head flags of a bold face. `toWoff` wraps an SFNT as WOFF 1.0 (zlib per table).
 * Sources: `@fontsource/lobster`'s latin WOFF (OFL, unpacked to a TrueType SFNT) and
 * test/fixtures/fonts/NotoSansDevanagari-Regular.otf (OFL, from harfbuzzjs's test fonts; licence
 * beside it).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';

const ROOT = join(import.meta.dirname, '..', '..');

interface Sfnt {
  flavor: number;
  tables: Map<string, Buffer>;
}

function readSfnt(bytes: Buffer): Sfnt {
  const tables = new Map<string, Buffer>();
  const count = bytes.readUInt16BE(4);
  for (let i = 0; i < count; i++) {
    const at = 12 + i * 16;
    const tag = bytes.toString('latin1', at, at + 4);
    const offset = bytes.readUInt32BE(at + 8);
    const length = bytes.readUInt32BE(at + 12);
    tables.set(tag, Buffer.from(bytes.subarray(offset, offset + length)));
  }
  return { flavor: bytes.readUInt32BE(0), tables };
}

function fromWoff(bytes: Buffer): Sfnt {
  const tables = new Map<string, Buffer>();
  const count = bytes.readUInt16BE(12);
  for (let i = 0; i < count; i++) {
    const at = 44 + i * 20;
    const tag = bytes.toString('latin1', at, at + 4);
    const offset = bytes.readUInt32BE(at + 4);
    const compLength = bytes.readUInt32BE(at + 8);
    const origLength = bytes.readUInt32BE(at + 12);
    const data = bytes.subarray(offset, offset + compLength);
    tables.set(tag, compLength < origLength ? inflateSync(data) : Buffer.from(data));
  }
  return { flavor: bytes.readUInt32BE(4), tables };
}

const pad4 = (b: Buffer) => Buffer.concat([b, Buffer.alloc((4 - (b.length % 4)) % 4)]);

function checksum(b: Buffer): number {
  const padded = pad4(b);
  let sum = 0;
  for (let i = 0; i < padded.length; i += 4) sum = (sum + padded.readUInt32BE(i)) >>> 0;
  return sum;
}

function writeSfnt({ flavor, tables }: Sfnt): Buffer {
  const tags = [...tables.keys()].sort();
  const header = Buffer.alloc(12 + tags.length * 16);
  const pow = 2 ** Math.floor(Math.log2(tags.length));
  header.writeUInt32BE(flavor, 0);
  header.writeUInt16BE(tags.length, 4);
  header.writeUInt16BE(pow * 16, 6);
  header.writeUInt16BE(Math.log2(pow), 8);
  header.writeUInt16BE(tags.length * 16 - pow * 16, 10);
  const bodies: Buffer[] = [];
  let offset = header.length;
  tags.forEach((tag, i) => {
    const data = tables.get(tag)!;
    const at = 12 + i * 16;
    header.write(tag, at, 'latin1');
    header.writeUInt32BE(checksum(data), at + 4);
    header.writeUInt32BE(offset, at + 8);
    header.writeUInt32BE(data.length, at + 12);
    bodies.push(pad4(data));
    offset += pad4(data).length;
  });
  return Buffer.concat([header, ...bodies]);
}

/** A `name` table (format 0) with Windows Unicode BMP records for the given names. */
function nameTable(names: Record<number, string>): Buffer {
  const ids = Object.keys(names)
    .map(Number)
    .sort((a, b) => a - b);
  const strings = ids.map((id) => {
    const s = names[id]!;
    const b = Buffer.alloc(s.length * 2);
    for (let i = 0; i < s.length; i++) b.writeUInt16BE(s.charCodeAt(i), i * 2);
    return b;
  });
  const head = Buffer.alloc(6 + ids.length * 12);
  head.writeUInt16BE(0, 0);
  head.writeUInt16BE(ids.length, 2);
  head.writeUInt16BE(head.length, 4);
  let offset = 0;
  ids.forEach((id, i) => {
    const at = 6 + i * 12;
    head.writeUInt16BE(3, at); // Windows
    head.writeUInt16BE(1, at + 2); // Unicode BMP
    head.writeUInt16BE(0x409, at + 4); // en-US
    head.writeUInt16BE(id, at + 6);
    head.writeUInt16BE(strings[i]!.length, at + 8);
    head.writeUInt16BE(offset, at + 10);
    offset += strings[i]!.length;
  });
  return Buffer.concat([head, ...strings]);
}

/** Renames a font's family, and with `bold` marks it a bold face (OS/2 and head flags). */
function rename(sfnt: Sfnt, family: string, bold: boolean): Sfnt {
  const style = bold ? 'Bold' : 'Regular';
  const tables = new Map(sfnt.tables);
  tables.set(
    'name',
    nameTable({
      1: family,
      2: style,
      4: `${family} ${style}`,
      6: `${family.replace(/[^A-Za-z0-9]/g, '')}-${style}`,
    }),
  );
  const os2 = Buffer.from(tables.get('OS/2')!);
  const head = Buffer.from(tables.get('head')!);
  let selection = os2.readUInt16BE(62) & ~0x61; // clear italic, bold, regular
  let mac = head.readUInt16BE(44) & ~0x3;
  if (bold) {
    selection |= 0x20;
    mac |= 0x1;
    os2.writeUInt16BE(700, 4);
  } else {
    selection |= 0x40;
    os2.writeUInt16BE(400, 4);
  }
  os2.writeUInt16BE(selection, 62);
  head.writeUInt16BE(mac, 44);
  tables.set('OS/2', os2);
  tables.set('head', head);
  return { flavor: sfnt.flavor, tables };
}

/** Wraps an SFNT as WOFF 1.0 (each table zlib-compressed when that is smaller). */
export function toWoff(ttf: Buffer): Buffer {
  const { flavor, tables } = readSfnt(ttf);
  const tags = [...tables.keys()].sort();
  const header = Buffer.alloc(44 + tags.length * 20);
  const bodies: Buffer[] = [];
  let offset = header.length;
  tags.forEach((tag, i) => {
    const data = tables.get(tag)!;
    const packed = deflateSync(data);
    const stored = packed.length < data.length ? packed : data;
    const at = 44 + i * 20;
    header.write(tag, at, 'latin1');
    header.writeUInt32BE(offset, at + 4);
    header.writeUInt32BE(stored.length, at + 8);
    header.writeUInt32BE(data.length, at + 12);
    header.writeUInt32BE(checksum(data), at + 16);
    bodies.push(pad4(stored));
    offset += pad4(stored).length;
  });
  header.write('wOFF', 0, 'latin1');
  header.writeUInt32BE(flavor, 4);
  header.writeUInt32BE(offset, 8);
  header.writeUInt16BE(tags.length, 12);
  header.writeUInt32BE(writeSfnt({ flavor, tables }).length, 16);
  header.writeUInt16BE(1, 20);
  return Buffer.concat([header, ...bodies]);
}

/**
 * A TrueType font (Lobster's latin glyphs) under the family name `family`.
 * @param bold mark it as a bold face (the upload must refuse it).
 */
export function makeTtf(family: string, bold = false): Buffer {
  const woff = readFileSync(
    join(ROOT, 'node_modules/@fontsource/lobster/files/lobster-latin-400-normal.woff'),
  );
  return writeSfnt(rename(fromWoff(woff), family, bold));
}

/** An OpenType-named font (Noto Sans Devanagari's .otf fixture) under the family `family`. */
export function makeOtf(family: string): Buffer {
  const otf = readFileSync(join(ROOT, 'test/fixtures/fonts/NotoSansDevanagari-Regular.otf'));
  return writeSfnt(rename(readSfnt(otf), family, false));
}
