/**
 * Importing a sticker pack from an uploaded archive (docs/kiosk.md "Sticker packs" `POST
 * /packs/download`): a zip of SVG or PNG files with a
 * `manifest.json` naming the pack, its attribution and each sticker's file, name and tags
 * (shared/contract/kiosk-packs.ts `PackManifestSchema`). It replaces the icon service the spec's
 * original called: the product reaches no outside service for artwork.
 *
 * The archive is hostile until checked, and the whole archive is checked before anything is
 * written, so a refused archive stores nothing:
 * 1. the upload itself is at most `archiveBytes` (8 MB);
 * 2. the zip's central directory is walked once (fflate `unzipSync` with a `filter`, which sees
 *    each entry's name and declared sizes before inflating it): at most `entries` entries, no
 *    path that is absolute, has a drive letter, a backslash, a control character, an empty,
 *    `.` or `..` segment (zip-slip); no entry above `fileBytes` declared or stored; all declared
 *    sizes together at most `totalBytes`; deflate or stored only. fflate inflates an entry into a
 *    buffer of its declared size and never grows it, so a zip bomb that lies about its size
 *    gets a truncated file (which then fails to decode), never more memory;
 * 3. only `manifest.json` (at most 64 KiB) and the files it names are inflated;
 * 4. every named file becomes a 512 px PNG through functions/stickers/kiosk-packs.ts
 *    `packStickerImage` (SVG check then sharp, or the upload checks for PNG).
 * Every refusal is 422 `{ message, errors: { archive: [message] } }` naming the file.
 */
import { unzipSync } from 'fflate';
import { AppError, validationFailed } from '#lib/errors.ts';
import {
  createPack,
  packStickerImage,
  type NewPackSticker,
  type PackRecord,
} from '#functions/stickers/kiosk-packs.ts';
import {
  PACK_ARCHIVE_LIMITS as LIMITS,
  PACK_IMPORT_MESSAGES as MESSAGES,
  PACK_MANIFEST,
  PackManifestSchema,
  type PackManifest,
} from '#shared/contract/kiosk-packs.ts';

/** The multipart field that carries the archive. */
export const ARCHIVE_FIELD = 'archive';

/** Stickers rasterised at once (the machine's cores; sharp threads inside each). */
const RASTER_CONCURRENCY = 4;

/** Characters of an entry name quoted in a message (the name itself is the attacker's). */
const QUOTED_NAME = 80;

const refuse = (message: string) => validationFailed({ [ARCHIVE_FIELD]: [message] });

/** A control character or DEL (UTF-16 code unit). */
const isControl = (code: number) => code < 0x20 || code === 0x7f;

/** Whether a name holds a control character, DEL or a backslash (one pass). */
function hasUnsafeCharacter(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (isControl(code) || code === 0x5c) return true;
  }
  return false;
}

/**
 * Whether an entry's path stays inside the archive's folder: relative, `/`-separated, no empty,
 * `.` or `..` segment (a trailing `/` marks a folder), no drive letter, backslash or control
 * character, at most `nameLength` characters.
 */
export function isSafeEntryName(name: string): boolean {
  if (name.length === 0 || name.length > LIMITS.nameLength) return false;
  if (hasUnsafeCharacter(name) || name.startsWith('/') || /^[a-z]:/i.test(name)) return false;
  const segments = (name.endsWith('/') ? name.slice(0, -1) : name).split('/');
  return segments.every((s) => s !== '' && s !== '.' && s !== '..');
}

/** A name as a message quotes it: shortened, with nothing unprintable. */
const quoted = (name: string) =>
  Array.from(name.slice(0, QUOTED_NAME), (c) => (isControl(c.charCodeAt(0)) ? '?' : c)).join('');

/**
 * Inflates the entries `wanted` chooses, after checking every entry of the archive against
 * {@link LIMITS} (see the module comment).
 * @returns the chosen files by path (own properties only).
 * @throws AppError 422 for an unreadable zip or an entry over a limit.
 */
function unzipChecked(zip: Uint8Array, wanted: (name: string) => boolean): Map<string, Buffer> {
  let entries = 0;
  let declared = 0;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip, {
      filter: (entry) => {
        entries += 1;
        if (entries > LIMITS.entries) throw refuse(MESSAGES.tooManyEntries);
        if (!isSafeEntryName(entry.name)) throw refuse(MESSAGES.unsafeName(quoted(entry.name)));
        if (entry.name.endsWith('/')) return false;
        const size = Math.max(entry.size, entry.originalSize);
        if (size > LIMITS.fileBytes) throw refuse(MESSAGES.fileTooBig(quoted(entry.name)));
        declared += size;
        if (declared > LIMITS.totalBytes) throw refuse(MESSAGES.tooBig);
        if (entry.compression !== 0 && entry.compression !== 8) {
          throw refuse(MESSAGES.unsupported(quoted(entry.name)));
        }
        return wanted(entry.name);
      },
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw refuse(MESSAGES.notZip);
  }
  const out = new Map<string, Buffer>();
  for (const [name, bytes] of Object.entries(files)) {
    if (Object.hasOwn(files, name)) out.set(name, Buffer.from(bytes));
  }
  return out;
}

/**
 * Reads and checks a pack archive: its entries, its manifest and that every file the manifest
 * names is in it. Nothing is decoded as an image here.
 * @param zip the uploaded bytes (at most `archiveBytes`).
 * @returns the manifest and the named files by path.
 * @throws AppError 422 `{ archive: [message] }`: not a zip, an entry over a limit or with an
 *   unsafe path, no or invalid manifest (each manifest problem as its own message), a named file
 *   missing.
 */
export function readPackArchive(zip: Uint8Array): {
  manifest: PackManifest;
  files: Map<string, Buffer>;
} {
  const manifestFile = unzipChecked(zip, (name) => name === PACK_MANIFEST).get(PACK_MANIFEST);
  if (!manifestFile) throw refuse(MESSAGES.noManifest);
  if (manifestFile.length > LIMITS.manifestBytes) {
    throw refuse(`The ${PACK_MANIFEST} may not be greater than 64 KB.`);
  }
  let json: unknown;
  try {
    json = JSON.parse(manifestFile.toString('utf8'));
  } catch {
    throw refuse(MESSAGES.badManifest);
  }
  const parsed = PackManifestSchema.safeParse(json);
  if (!parsed.success) {
    const messages = parsed.error.issues.slice(0, 5).map((i) => `${PACK_MANIFEST}: ${i.message}`);
    throw validationFailed({ [ARCHIVE_FIELD]: messages });
  }
  const manifest = parsed.data;
  const named = new Set(manifest.stickers.map((s) => s.file));
  const files = unzipChecked(zip, (name) => named.has(name));
  const missing = manifest.stickers.find((s) => !files.has(s.file));
  if (missing) throw refuse(MESSAGES.missingFile(quoted(missing.file)));
  return { manifest, files };
}

/**
 * `POST /packs/download`: imports the pack of the multipart field `archive`.
 * @param body the parsed multipart body.
 * @returns the new pack (active, last in the library).
 * @throws AppError 422 `{ archive: [message] }` for a missing, oversized or refused archive or
 *   sticker file (see {@link readPackArchive} and `packStickerImage`); 409 when a pack of that
 *   name exists. Nothing is written in either case.
 */
export async function importPack(body: unknown): Promise<PackRecord> {
  const file =
    typeof body === 'object' && body !== null
      ? (body as Record<string, unknown>)[ARCHIVE_FIELD]
      : undefined;
  const content = (file as { content?: unknown } | undefined)?.content;
  if (!Buffer.isBuffer(content) || content.length === 0) throw refuse(MESSAGES.missing);
  if (content.length > LIMITS.archiveBytes) throw refuse(MESSAGES.tooLarge);
  const { manifest, files } = readPackArchive(content);
  const stickers: NewPackSticker[] = [];
  for (let i = 0; i < manifest.stickers.length; i += RASTER_CONCURRENCY) {
    const batch = manifest.stickers.slice(i, i + RASTER_CONCURRENCY);
    const pngs = await Promise.all(batch.map((s) => packStickerImage(s.file, files.get(s.file)!)));
    batch.forEach((s, j) => stickers.push({ name: s.name, keywords: s.tags, png: pngs[j]! }));
  }
  const cover = Math.max(
    0,
    manifest.stickers.findIndex((s) => s.file === manifest.cover),
  );
  return createPack({
    name: manifest.name,
    attribution: manifest.attribution,
    cover,
    stickers,
  });
}
