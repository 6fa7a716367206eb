/**
 * Sticker packs in the admin kiosk (docs/kiosk.md "Sticker packs": "Kiosk" packs: `POST
 * /packs/search`, `GET /packs/getPacks`, `POST /packs/download`, `PATCH /packs/restorePack`,
 * `DELETE /packs/removePack` with packId; docs/accounts.md "Error answers in the SPA" pack
 * messages). The routes belong to the kiosk feature (functions/kiosk/packs.ts); the pack logic
 * lives here beside the library it changes.
 *
 * Removing a pack hides it, its stickers and favourites of them from every user's lists; its
 * images stay in the bucket, so designs that use its stickers keep drawing them, and restoring
 * brings the pack back where it was (docs/adr/0021-sticker-library.md "Sticker library").
 *
 * Importing a pack (functions/kiosk/pack-import.ts reads the archive) makes each sticker image
 * here: an SVG passes the render's SVG check (functions/render/svg.ts, docs/security.md "SVG
 * stickers") before sharp rasterises it, a PNG the upload checks (functions/lib/uploads.ts
 * `readImageFile`: magic bytes, 40 MP, decodable); both become 512 px PNGs like the seeded packs
 * (docs/kiosk.md "Sticker packs").
 */
import { randomUUID } from 'node:crypto';
import { db } from '#lib/db/index.ts';
import { AppError, conflict, notFound, validationFailed } from '#lib/errors.ts';
import { deleteUserFile, readImageFile, storeUserFile } from '#lib/uploads.ts';
import { svgRefusal } from '#functions/render/svg.ts';
import {
  PACK_IMPORT_MESSAGES,
  PACK_MESSAGES,
  type KioskPack,
} from '#shared/contract/kiosk-packs.ts';
import { stickerFromRaster, stickerFromSvg, type StickerPng } from './images.ts';
import { foldForSearch, pageOf, ranked, searchScore } from './library.ts';
import type { PackRecord } from './views.ts';

export { PACK_MESSAGES };
/** The kiosk's other lists (the global image library) page and search as the sticker lists do. */
export { foldForSearch, pageOf, ranked, searchScore };
export type { PackRecord };

/** A pack as the kiosk lists it: the library's fields plus its state. */
export function kioskPackView(pack: PackRecord): KioskPack {
  return {
    id: pack.packId,
    pack_name: pack.name,
    cover_image: `/${pack.coverKey}`,
    sticker_count: pack.stickerCount,
    attribution: pack.attribution,
    status: pack.status,
    position: pack.position,
    created_at: pack.createdAt ?? null,
  };
}

/**
 * Every pack, removed ones included, in library order; with a search, the packs whose name
 * matches, best first (library.ts `searchScore`).
 * @param page from 1; 24 a page.
 */
export async function kioskPacksPage(search: string, page: number) {
  const query = foldForSearch(search);
  const { data } = await db().StickerPack.query.all({}).go({ pages: 'all' });
  const shown = query ? ranked(data, (p) => searchScore(query, p.name)) : data;
  return { success: true, ...pageOf(shown.map(kioskPackView), page) };
}

/**
 * Sets a pack's state; setting the state it already has succeeds and changes nothing.
 * @returns the pack after the change.
 * @throws AppError 404 with `message` when there is no such pack.
 */
async function setPackStatus(packId: string, status: 'active' | 'removed', message: string) {
  const pack = (await db().StickerPack.get({ packId }).go()).data;
  if (!pack) throw notFound(message);
  if (pack.status === status) return pack;
  await db().StickerPack.patch({ packId }).set({ status }).go();
  return { ...pack, status };
}

/**
 * Removes a pack from the library (`DELETE /packs/removePack`).
 * @throws AppError 404 "The pack wasn't deleted." for an unknown pack.
 */
export async function removePack(packId: string) {
  const pack = await setPackStatus(packId, 'removed', PACK_MESSAGES.notDeleted);
  return { success: true, message: PACK_MESSAGES.deleted, pack: kioskPackView(pack) };
}

/**
 * Brings a removed pack back (`PATCH /packs/restorePack`).
 * @throws AppError 404 "The pack wasn't restored." for an unknown pack.
 */
export async function restorePack(packId: string) {
  const pack = await setPackStatus(packId, 'active', PACK_MESSAGES.notRestored);
  return { success: true, message: PACK_MESSAGES.restored, pack: kioskPackView(pack) };
}

/** Time the SVG check of one file may take, ms (a 2 MiB icon is checked in well under 100 ms). */
const SVG_CHECK_MS = 2000;

/** Refuses a file of the archive: 422 `{ archive: [message] }`. */
const refuseFile = (message: string) => validationFailed({ archive: [message] });

/**
 * Makes the 512 px PNG of one sticker file of an imported pack (docs/editor.md "Constants" sticker
 * size).
 * - `.svg`: refused when `svgRefusal` finds a script, a `<foreignObject>`, a DOCTYPE or
 *   processing instruction, a reference outside the file or a CSS escape (docs/security.md "SVG
 *   stickers"), or when it embeds any `data:` URL (an embedded raster could be a decompression
 *   bomb librsvg would decode unbounded); then rasterised by sharp at the density that makes its
 *   longer side 512 px.
 * - `.png`: the upload checks of functions/lib/uploads.ts (type by magic bytes, 40 MP,
 *   decodable), then fitted inside 512 px with its alpha.
 * @param file the path inside the archive, named in messages.
 * @param bytes the inflated file (at most PACK_ARCHIVE_LIMITS.fileBytes).
 * @throws AppError 422 `{ archive: [message] }` naming the file.
 */
export async function packStickerImage(file: string, bytes: Buffer): Promise<StickerPng> {
  if (/\.svg$/i.test(file)) {
    const text = bytes.toString('utf8');
    const refusal =
      (await svgRefusal(text, { deadline: performance.now() + SVG_CHECK_MS })) ??
      (text.toLowerCase().includes('data:') ? 'an embedded data: URL' : null);
    if (refusal) throw refuseFile(PACK_IMPORT_MESSAGES.refusedSvg(file));
    try {
      return await stickerFromSvg(bytes);
    } catch {
      throw refuseFile(PACK_IMPORT_MESSAGES.unreadable(file));
    }
  }
  try {
    const image = await readImageFile(
      { file: { filename: file, mimetype: 'image/png', encoding: 'binary', content: bytes } },
      'file',
      {
        missing: PACK_IMPORT_MESSAGES.unreadable(file),
        refused: PACK_IMPORT_MESSAGES.unreadable(file),
      },
    );
    return await stickerFromRaster(image.bytes);
  } catch (error) {
    if (error instanceof AppError) throw refuseFile(error.message);
    throw refuseFile(PACK_IMPORT_MESSAGES.unreadable(file));
  }
}

/** One sticker of a pack to create: its name, search words (lower case) and 512 px PNG. */
export interface NewPackSticker {
  name: string;
  keywords: string[];
  png: StickerPng;
}

/** A pack to create: its name, the artwork's attribution, its stickers and the cover's index. */
export interface NewPack {
  name: string;
  attribution: string;
  cover: number;
  stickers: NewPackSticker[];
}

/** The slug of a name for ids: `Summer Fun!` → `summer-fun`, at most 40 characters. */
const slugOf = (name: string) =>
  foldForSearch(name)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40) || 'pack';

/** Files written at once while storing a pack. */
const STORE_CONCURRENCY = 4;

/**
 * Creates a pack after the whole archive was checked: stores each sticker's PNG under
 * `files/stickers/{packId}/` (random keys; the picker shows the 512 px image itself, as for the
 * seeded packs), writes the `Sticker` items, then the `StickerPack` item last, at the end of the
 * library and active. If a step fails, the files and items already written are deleted, so a
 * failed import leaves nothing behind.
 * @returns the new pack.
 * @throws AppError 409 `A pack named "…" already exists.` when a pack's name folds (case and
 *   accents) to the same text; the S3 or DynamoDB error of a failed write.
 */
export async function createPack(pack: NewPack): Promise<PackRecord> {
  const packs = (await db().StickerPack.query.all({}).go({ pages: 'all' })).data;
  const folded = foldForSearch(pack.name);
  if (packs.some((p) => foldForSearch(p.name) === folded)) {
    throw conflict(PACK_IMPORT_MESSAGES.duplicate(pack.name));
  }
  const position = packs.reduce((max, p) => Math.max(max, p.position), 0) + 1;
  const packId = `pack-${slugOf(pack.name)}-${randomUUID().slice(0, 8)}`;
  const stored: string[] = [];
  const items: Array<{ stickerId: string }> = [];
  try {
    const keys = new Array<string>(pack.stickers.length);
    for (let i = 0; i < pack.stickers.length; i += STORE_CONCURRENCY) {
      await Promise.all(
        pack.stickers.slice(i, i + STORE_CONCURRENCY).map(async (sticker, j) => {
          const file = await storeUserFile(
            `stickers/${packId}`,
            sticker.png.bytes,
            'image/png',
            'png',
          );
          stored.push(file.url);
          keys[i + j] = file.key;
        }),
      );
    }
    const stickers = pack.stickers.map((sticker, i) => ({
      stickerId: `${packId.replace(/^pack-/, 'icon-')}-${i + 1}-${slugOf(sticker.name)}`,
      packId,
      name: sticker.name,
      keywords: sticker.keywords,
      key: keys[i]!,
      thumbKey: keys[i]!,
      width: sticker.png.width,
      height: sticker.png.height,
      position: i,
    }));
    items.push(...stickers);
    await db().Sticker.put(stickers).go({ concurrency: STORE_CONCURRENCY });
    return (
      await db()
        .StickerPack.create({
          packId,
          name: pack.name,
          position,
          coverKey: keys[pack.cover]!,
          stickerCount: stickers.length,
          attribution: pack.attribution,
          status: 'active',
        })
        .go()
    ).data;
  } catch (error) {
    if (items.length > 0) {
      await db()
        .Sticker.delete(items.map(({ stickerId }) => ({ stickerId })))
        .go()
        .catch(() => undefined);
    }
    await Promise.all(stored.map(deleteUserFile));
    throw error;
  }
}
