/**
 * Request schemas shared by the sticker calls and the kiosk's pack calls: `?page=` and the
 * optional `{ search }` body (spec 000 §7 "optional search body, optional ?page=").
 */
import { z } from 'zod';
import { PageQuery } from '#lib/paging.ts';
import { MAX_SEARCH_LENGTH } from './library.ts';

/** `?page=`: a whole number from 1 (default 1). */
/** The sticker lists' `?page=` (functions/lib/paging.ts). */
export const StickerPageQuery = PageQuery;

/** Free text to search with; absent or null is no search. At most 100 characters. */
export const SearchText = z
  .string({ error: 'The search must be text.' })
  .max(MAX_SEARCH_LENGTH, `The search may not be greater than ${MAX_SEARCH_LENGTH} characters.`)
  .nullish()
  .transform((s) => s ?? '');

/** The list calls' optional body: `{ search }`. */
export const SearchBody = z.object({ search: SearchText });

/** An id field of a body, e.g. `packId`, with messages naming `what`. */
export const IdField = (what: string) =>
  z
    .string({ error: `The ${what} id is required.` })
    .trim()
    .min(1, `The ${what} id is required.`)
    .max(200, `The ${what} id may not be greater than 200 characters.`);
