/**
 * Favourites (docs/adr/0021-sticker-library.md "Sticker library" `POST /addToFavorite`;
 * `is_favorite` on packs and library items). A
 * favourite belongs to the user, not the team (docs/adr/0021-sticker-library.md "Sticker library"):
 * it is a personal shortcut in the Favorites tab, like a bookmark.
 */
import { db } from '#lib/db/index.ts';
import { notFound } from '#lib/errors.ts';
import { STICKER_NOT_FOUND } from './library.ts';
import type { FavoriteKind } from './views.ts';

/**
 * Checks that the caller can see the pack, sticker or upload `id` of kind `kind`: an active pack,
 * a sticker of an active pack, or an upload of the caller's team.
 * @throws AppError 404 (`Sticker pack not found.` / `Sticker not found.`) otherwise; another
 *   team's upload answers like a missing one.
 */
async function checkVisible(kind: FavoriteKind, id: string, teamId: string): Promise<void> {
  if (kind === 'pack') {
    const pack = (await db().StickerPack.get({ packId: id }).go()).data;
    if (pack?.status !== 'active') throw notFound(STICKER_NOT_FOUND.pack);
    return;
  }
  if (kind === 'icon') {
    const sticker = (await db().Sticker.get({ stickerId: id }).go()).data;
    const pack = sticker && (await db().StickerPack.get({ packId: sticker.packId }).go()).data;
    if (pack?.status !== 'active') throw notFound(STICKER_NOT_FOUND.sticker);
    return;
  }
  const upload = (await db().StickerUpload.get({ stickerId: id }).go()).data;
  if (upload?.teamId !== teamId) throw notFound(STICKER_NOT_FOUND.sticker);
}

/**
 * Marks or unmarks a favourite for the user. Without `wanted` it toggles (the panel's star);
 * with it, it sets that state (idempotent).
 * @returns the new state.
 * @throws AppError 404 when the caller cannot see the item (see above).
 */
export async function setFavorite(
  user: { userId: string; teamId: string },
  kind: FavoriteKind,
  id: string,
  wanted?: boolean,
): Promise<boolean> {
  await checkVisible(kind, id, user.teamId);
  const key = { userId: user.userId, kind, targetId: id };
  const isFavorite = wanted ?? (await db().StickerFavorite.get(key).go()).data === null;
  if (isFavorite) await db().StickerFavorite.put(key).go();
  else await db().StickerFavorite.delete(key).go();
  return isFavorite;
}
