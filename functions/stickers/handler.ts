/**
 * The `stickers` feature (docs/adr/0021-sticker-library.md "Sticker library": "Images, stickers,
 * fonts"; docs/adr/0020-dashboard-spa.md "Dashboard SPA" Stickers panel;
 * docs/adr/0021-sticker-library.md "Sticker library"): the library of packs, a pack's stickers, the
 * team's uploads, the user's favourites and the dynamic stickers. Sticker uploads arrive through
 * `POST /image` with `type=asIcon` (functions/images/handler.ts calls `storeStickerUpload`).
 *
 * The list calls take an optional `{ search }` body and `?page=` (from 1, 24 a page) and answer
 * `{ success, data, current_page, last_page, per_page, total }`; see library.ts for each list.
 */
import type { AuthUser } from '#lib/auth.ts';
import { forbidden } from '#lib/errors.ts';
import { featureHandler, json, route } from '#lib/http.ts';
import { setFavorite } from './favorites.ts';
import { favoritesPage, libraryPage, packPage, uploadsPage } from './library.ts';
import {
  DeleteUploadBody,
  FavoriteBody,
  PackStickersBody,
  SearchBody,
  StickerPageQuery,
} from '#shared/contract/stickers.ts';
import { deleteStickerUpload } from './uploads.ts';

/** The caller and the current team every sticker call acts for. */
function callerOf(user: AuthUser | undefined): { userId: string; teamId: string } {
  if (!user?.currentTeamId) throw forbidden('Choose a company first.');
  return { userId: user.userId, teamId: user.currentTeamId };
}

/** A list of the caller's team and user (`{ search }` body, `?page=`), answered by `list`. */
const teamList = (list: typeof uploadsPage | typeof favoritesPage) =>
  route({
    body: SearchBody,
    query: StickerPageQuery,
    handle: async ({ body, query, auth }) => {
      const { userId, teamId } = callerOf(auth.user);
      return json(200, await list(userId, teamId, body.search, query.page));
    },
  });

export const handler = featureHandler('stickers', {
  'POST /getStickers': route({
    body: SearchBody,
    query: StickerPageQuery,
    handle: async ({ body, query, auth }) =>
      json(200, await libraryPage(callerOf(auth.user).userId, body.search, query.page)),
  }),

  'POST /getPacksStickers': route({
    body: PackStickersBody,
    query: StickerPageQuery,
    handle: async ({ body, query, auth }) =>
      json(200, await packPage(callerOf(auth.user).userId, body.id, body.search, query.page)),
  }),

  'POST /getUploads': teamList(uploadsPage),

  'POST /getFavorites': teamList(favoritesPage),

  'POST /addToFavorite': route({
    body: FavoriteBody,
    handle: async ({ body, auth }) => {
      const isFavorite = await setFavorite(
        callerOf(auth.user),
        body.type,
        body.id,
        body.is_favorite,
      );
      return json(200, {
        success: true,
        id: body.id,
        type: body.type,
        is_favorite: isFavorite,
        message: isFavorite ? 'Added to favorites.' : 'Removed from favorites.',
      });
    },
  }),

  'POST /deleteUploadSticker': route({
    body: DeleteUploadBody,
    handle: async ({ body, auth }) => {
      await deleteStickerUpload(callerOf(auth.user).teamId, body.id);
      return json(200, { success: true, message: 'The sticker was deleted.' });
    },
  }),
});
