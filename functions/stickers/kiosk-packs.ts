/**
 * Sticker packs in the admin kiosk (spec 001 §7 "Kiosk" packs: `POST /packs/search`,
 * `GET /packs/getPacks`, `PATCH /packs/restorePack`, `DELETE /packs/removePack` with packId;
 * §8 pack messages). The routes belong to the kiosk feature (functions/kiosk/handler.ts); the
 * pack logic lives here beside the library it changes.
 *
 * Removing a pack hides it, its stickers and favourites of them from every user's lists; its
 * images stay in the bucket, so designs that use its stickers keep drawing them, and restoring
 * brings the pack back where it was (docs/decisions.md "Sticker library").
 */
import { db } from '#lib/db/index.ts';
import { notFound } from '#lib/errors.ts';
import { foldForSearch, pageOf, ranked, searchScore } from './library.ts';
import type { PackRecord } from './views.ts';

/** Spec 001 §8 pack messages. */
export const PACK_MESSAGES = {
  restored: 'The pack was successfully restored.',
  notRestored: "The pack wasn't restored.",
  deleted: 'The pack was successfully deleted.',
  notDeleted: "The pack wasn't deleted.",
} as const;

/** A pack as the kiosk lists it: the library's fields plus its state. */
export function kioskPackView(pack: PackRecord) {
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
