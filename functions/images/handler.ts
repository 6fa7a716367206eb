/**
 * The `images` feature (docs/adr/0017-user-files.md "User files": "Images, stickers, fonts"): the
 * global library, the team's uploads (list, upload, delete) and one image; `POST /image` with
 * `type=asIcon` is a sticker upload (functions/stickers/uploads.ts); stock-photo search and the
 * import of a chosen stock photo (functions/images/stock.ts); an image's suggested tags
 * (functions/images/tags.ts).
 */
import { db } from '#lib/db/index.ts';
import { featureHandler, json, route } from '#lib/http.ts';
import {
  DeleteImageBody,
  ImageListQuery,
  StockImportBody,
  StockSearchQuery,
} from '#shared/contract/images.ts';
import { foldForSearch, ranked, searchScore } from '#functions/stickers/kiosk-packs.ts';
import { imageView } from './views.ts';
import { deleteUpload, storeUpload, visibleImage } from './library.ts';
import type { AuthUser } from '#lib/auth.ts';
import { forbidden } from '#lib/errors.ts';
import { storeStickerUpload } from '#functions/stickers/uploads.ts';
import { importStockImage, searchStockImages } from './stock.ts';
import { imageTags } from './tags.ts';

/** The caller's current team; every image call acts for it. */
function teamOf(user: AuthUser | undefined): string {
  if (!user?.currentTeamId) throw forbidden('Choose a company first.');
  return user.currentTeamId;
}

/** Library page size: four rows of a six-column picker. */
export const LIBRARY_PAGE_SIZE = 24;

/**
 * Reads the whole scope newest first and cuts one page: `{ data, current_page, last_page }`.
 * With a search (at most 100 characters, the contract's bound), only the images whose title or
 * tags hold every word of it, case and accents folded, best first (the sticker lists' matching,
 * functions/stickers/library.ts `searchScore`; docs/editor.md "Images panel").
 * @param scope `global`, or the team whose uploads are listed: a search never leaves it.
 * @param page from 1; past the end an empty `data`.
 */
async function pageOf(scope: string, page: number, search = '') {
  const all = (await db().LibraryImage.query.byScope({ scope }).go({ pages: 'all', order: 'desc' }))
    .data;
  const query = foldForSearch(search);
  const shown = query ? ranked(all, (i) => searchScore(query, i.title, i.tags ?? [])) : all;
  const start = (page - 1) * LIBRARY_PAGE_SIZE;
  return {
    data: shown.slice(start, start + LIBRARY_PAGE_SIZE).map(imageView),
    current_page: page,
    last_page: Math.max(1, Math.ceil(shown.length / LIBRARY_PAGE_SIZE)),
  };
}

export const handler = featureHandler('images', {
  'GET /getGlobalImages': route({
    query: ImageListQuery,
    // The global library is curated by admins (tens of photos): read whole, paged here.
    handle: async ({ query }) => json(200, await pageOf('global', query.page, query.search)),
  }),

  'GET /getImages': route({
    query: ImageListQuery,
    // A team's uploads: tens to hundreds; read whole for `last_page` (docs/adr/0017-user-files.md
    // "User files").
    handle: async ({ query, auth }) =>
      json(200, await pageOf(teamOf(auth.user), query.page, query.search)),
  }),

  'POST /image': route({
    handle: async ({ body, auth }) => {
      const team = teamOf(auth.user);
      const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<
        string,
        unknown
      >;
      if (fields.type === 'asIcon') {
        const stored = await storeStickerUpload({ userId: auth.user!.userId, teamId: team }, body);
        return json(201, { success: true, ...stored });
      }
      const image = await storeUpload(team, body);
      return json(201, { success: true, image: imageView(image) });
    },
  }),

  'DELETE /deleteImage': route({
    body: DeleteImageBody,
    handle: async ({ body, auth }) => {
      await deleteUpload(teamOf(auth.user), body.imageId);
      return json(200, { success: true });
    },
  }),

  /** Stock-photo search (docs/adr/0017-user-files.md "User files"): `?page=`, optional `?source=unsplash|pixabay`. */
  'GET /api/search-images/{query}': route({
    query: StockSearchQuery,
    handle: async ({ params, query, auth }) => {
      teamOf(auth.user);
      return json(200, await searchStockImages(params.query ?? '', query.page, query.source), {
        'cache-control': 'private, max-age=300',
      });
    },
  }),

  /** Copies a chosen stock photo into the team's uploads; answers like an upload (201). */
  'POST /api/search-images/import': route({
    body: StockImportBody,
    handle: async ({ body, auth }) => {
      const image = await importStockImage(teamOf(auth.user), body.source, body.id);
      return json(201, { success: true, image: imageView(image) });
    },
  }),

  /** Suggested tags for the tag editor (docs/adr/0017-user-files.md "User files" → `result.tags[].tag.en`; tags.ts). */
  'GET /image/{id}/tags': route({
    handle: async ({ params, auth }) => json(200, await imageTags(teamOf(auth.user), params.id!)),
  }),

  'GET /image/{id}': route({
    handle: async ({ params, auth }) =>
      json(200, imageView(await visibleImage(teamOf(auth.user), params.id!))),
  }),
});
