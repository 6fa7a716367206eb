/**
 * The checked path from an uploaded file to a font we may store (docs/fonts.md "Uploads": "Custom
 * font upload: .ttf, .otf, .woff only … Bold and italic are not supported for uploaded fonts";
 * docs/fonts.md): the extension, a size cap, the magic bytes (`file-type`, never the name or the
 * browser's type), a full parse with fontkit, the face's style, and its family name from the font's
 * own name table. Nothing is stored here.
 */
import { fileTypeFromBuffer } from 'file-type';
import * as fontkit from 'fontkit';
import { validationFailed } from '#lib/errors.ts';
import { BUNDLED_FAMILIES, builtInFont, fontCatalogue } from '#shared/fonts/catalogue.ts';

/** docs/fonts.md "Uploads" / docs/editor.md "Messages": the message for a file with another extension. */
export const FONT_EXTENSION_MESSAGE = 'Allowed extensions are: .ttf, .otf, .woff';
/** docs/fonts.md "Uploads": uploaded fonts are regular faces only. */
export const FONT_STYLE_MESSAGE = 'Bold and italic are not supported for uploaded fonts.';
export const FONT_MISSING_MESSAGE = 'Please choose a font file to upload.';
export const FONT_REFUSED_MESSAGE = 'The file is not a readable TrueType, OpenType or WOFF font.';

/**
 * Largest font accepted, bytes (docs/adr/0030-fonts.md "Fonts"): a full Latin font is 50–300 kB and
 * a large multi-script one 2–4 MB; the editor downloads the file whole (no unicode-range).
 */
export const MAX_FONT_BYTES = 5 * 1024 * 1024;

/** Longest family name kept, characters. */
export const MAX_FAMILY_LENGTH = 100;

/** The spec's extensions (docs/fonts.md "Uploads"). */
const EXTENSIONS = /\.(ttf|otf|woff)$/i;

/** Font types by magic bytes, with the `@font-face` format and the stored extension. */
const TYPES: Record<string, { format: 'truetype' | 'opentype' | 'woff'; extension: string }> = {
  'font/ttf': { format: 'truetype', extension: 'ttf' },
  'font/otf': { format: 'opentype', extension: 'otf' },
  'font/woff': { format: 'woff', extension: 'woff' },
};

/** A font that passed every check. */
export interface CheckedFont {
  bytes: Buffer;
  family: string;
  format: 'truetype' | 'opentype' | 'woff';
  extension: string;
}

/** One file of a multipart body (@middy/http-multipart-body-parser). */
interface MultipartFile {
  filename: string;
  content: Buffer;
}

const isFile = (value: unknown): value is MultipartFile =>
  typeof value === 'object' &&
  value !== null &&
  Buffer.isBuffer((value as { content?: unknown }).content) &&
  typeof (value as { filename?: unknown }).filename === 'string';

/** The fontkit font of a parsed file: the fields read here. */
interface ParsedFont {
  familyName?: string;
  subfamilyName?: string;
  italicAngle?: number;
  numGlyphs?: number;
  getName?: (name: string) => string | null;
  'OS/2'?: { fsSelection?: { bold?: boolean; italic?: boolean }; usWeightClass?: number };
  head?: { macStyle?: { bold?: boolean; italic?: boolean } };
}

/** Drops control characters and runs of spaces from a name-table string. */
const cleanName = (name: string): string =>
  name
    .replace(/\p{Cc}/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_FAMILY_LENGTH);

/** True when a face is bold or italic by any of the font's own flags. */
function isBoldOrItalic(font: ParsedFont): boolean {
  const os2 = font['OS/2'];
  const mac = font.head?.macStyle;
  return (
    os2?.fsSelection?.bold === true ||
    os2?.fsSelection?.italic === true ||
    mac?.bold === true ||
    mac?.italic === true ||
    (os2?.usWeightClass ?? 400) >= 600 ||
    Math.abs(font.italicAngle ?? 0) > 0.5 ||
    /\b(bold|italic|oblique|black|heavy)\b/i.test(font.subfamilyName ?? '')
  );
}

/**
 * Checks the multipart field `file` of `POST /storeFont`.
 * @returns the bytes as sent, the family name from the font's name table (typographic family
 *   when present), and its format by magic bytes.
 * @throws AppError 422 `{ file: [message] }`: no file; another extension
 *   ({@link FONT_EXTENSION_MESSAGE}); over {@link MAX_FONT_BYTES}; bytes that are not a TTF,
 *   OTF or WOFF by their magic bytes or do not parse with fontkit (a collection, a WOFF2, a
 *   renamed PNG); a bold or italic face ({@link FONT_STYLE_MESSAGE}); no family name; a family
 *   of the built-in fonts or the catalogue (it would clash with the one in the list).
 */
export async function readFontFile(body: unknown): Promise<CheckedFont> {
  const file =
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>).file : undefined;
  const refuse = (message: string) => validationFailed({ file: [message] });
  if (!isFile(file) || file.content.length === 0) throw refuse(FONT_MISSING_MESSAGE);
  if (!EXTENSIONS.test(file.filename)) throw refuse(FONT_EXTENSION_MESSAGE);
  if (file.content.length > MAX_FONT_BYTES) {
    throw refuse(`The font may not be greater than ${MAX_FONT_BYTES / 1024 / 1024} MB.`);
  }
  const type = TYPES[(await fileTypeFromBuffer(file.content))?.mime ?? ''];
  if (!type) throw refuse(FONT_REFUSED_MESSAGE);
  let font: ParsedFont;
  try {
    font = fontkit.create(file.content) as unknown as ParsedFont;
    if (!font.numGlyphs || font.numGlyphs < 1) throw new Error('no glyphs');
  } catch {
    throw refuse(FONT_REFUSED_MESSAGE);
  }
  if (isBoldOrItalic(font)) throw refuse(FONT_STYLE_MESSAGE);
  const family = cleanName(font.getName?.('preferredFamily') || font.familyName || '');
  if (!family) throw refuse('The font has no family name.');
  const key = family.toLowerCase();
  const listed =
    builtInFont(family) ||
    [...BUNDLED_FAMILIES.keys(), ...fontCatalogue().keys()].some((f) => f.toLowerCase() === key);
  if (listed) throw refuse(`“${family}” is already in the font list.`);
  return { bytes: file.content, family, ...type };
}
