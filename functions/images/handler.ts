/**
 * The `images` feature (spec 000 §7 "Images, stickers, fonts"; issue: libraries §1). This
 * slice: the global library (`GET /getGlobalImages`), which the dashboard's create page picks
 * base photos from. Uploads, the user's images, stock search and tags come with the libraries
 * issue and answer 501 until then.
 */
import { z } from 'zod';
import { db } from '#lib/db/index.ts';
import { featureHandler, json, route } from '#lib/http.ts';
import { imageView } from './views.ts';

/** Library page size: four rows of a six-column picker. */
export const LIBRARY_PAGE_SIZE = 24;

const PageQuery = z.object({
  page: z.coerce
    .number({ error: 'The page must be a number.' })
    .int('The page must be a whole number.')
    .min(1, 'The page must be at least 1.')
    .max(10_000, 'The page may not be greater than 10000.')
    .default(1),
});

export const handler = featureHandler('images', {
  'GET /getGlobalImages': route({
    query: PageQuery,
    handle: async ({ query }) => {
      // The global library is curated by admins (tens of photos), so it is read whole, newest
      // first, and paged here; `last_page` needs the count anyway.
      const all = (
        await db()
          .LibraryImage.query.byScope({ scope: 'global' })
          .go({ pages: 'all', order: 'desc' })
      ).data;
      const lastPage = Math.max(1, Math.ceil(all.length / LIBRARY_PAGE_SIZE));
      const start = (query.page - 1) * LIBRARY_PAGE_SIZE;
      return json(200, {
        data: all.slice(start, start + LIBRARY_PAGE_SIZE).map(imageView),
        current_page: query.page,
        last_page: lastPage,
      });
    },
  }),
});
