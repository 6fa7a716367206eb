/**
 * The contract of the `images` routes (shared/routes.ts; docs/adr/0017-user-files.md "User files":
 * "Images, stickers, fonts", Image): the global library,
 * the team's uploads (list, upload, delete), one image and its suggested tags, stock-photo search
 * and the import of a chosen stock photo. `POST /image` is multipart (the file in `image`; with
 * `type=asIcon` a sticker upload), so it declares its answer only. functions/images parses its
 * input with these schemas.
 */
import { z } from 'zod';
import { defineContract, IdParams } from './core.ts';
import { PageQuery } from './paging.ts';
import { SearchText, UploadStickerSchema } from './stickers.ts';

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

/** The stock-photo services (docs/adr/0017-user-files.md "User files" Image `from`). */
export const STOCK_SOURCES = ['unsplash', 'pixabay'] as const;
export type StockSource = (typeof STOCK_SOURCES)[number];

/** `?page=` and, optionally, the service to ask (default: the first configured). */
export const StockSearchQuery = PageQuery.extend({ source: z.enum(STOCK_SOURCES).optional() });

/** `POST /api/search-images/import`: a photo of a search answer, by service and id. */
export const StockImportBody = z.object({
  source: z.enum(STOCK_SOURCES, { error: 'Choose Unsplash or Pixabay.' }),
  id: z
    .string({ error: 'The photo id is required.' })
    .regex(/^[\w-]{1,64}$/, 'The photo id is not valid.'),
});

/**
 * `GET /getGlobalImages` and `GET /getImages`: `?page=` and an optional `?search=` (at most 100
 * characters; absent or blank lists every image), matched against the images' titles and tags
 * (docs/editor.md "Images panel").
 */
export const ImageListQuery = PageQuery.extend({ search: SearchText });

/** `DELETE /deleteImage`: one of the team's uploads. */
export const DeleteImageBody = z.object({
  imageId: z.string({ error: 'The image id is required.' }).min(1).max(200),
});

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

/**
 * A library image (functions/images/views.ts `imageView`; docs/adr/0017-user-files.md "User files"
 * Image): `thumb` (a 400 px wide JPEG) and `url` (the original) are same-origin paths, null while
 * not served; sizes in px; `author`, `author_url` and `licence` credit the photographer when known.
 */
export const ImageSchema = z.object({
  id: z.string(),
  title: z.string(),
  thumb: z.string().nullable(),
  url: z.string().nullable(),
  width: z.number(),
  height: z.number(),
  author: z.string().nullable(),
  author_url: z.string().nullable(),
  licence: z.string().nullable(),
  /** When the picture was added, ISO 8601 (the gallery cards' date, docs/adr/0020-dashboard-spa.md "Dashboard SPA"); absent: unknown. */
  created_at: z.string().nullable().optional(),
});
export type Image = z.infer<typeof ImageSchema>;

/** One page of a library list (24 a page): `{ data, current_page, last_page }`. */
export const ImagePageSchema = z.object({
  data: z.array(ImageSchema),
  current_page: z.number().int(),
  last_page: z.number().int(),
});

/** One stock-search result (docs/adr/0017-user-files.md "User files" Image: id, thumb, from, user name and link). */
export const StockImageSchema = z.object({
  /** The service's own photo id. */
  id: z.string(),
  from: z.enum(STOCK_SOURCES),
  /** A small preview URL on the service's CDN, about 200–400 px wide. */
  thumb: z.string(),
  /** The photo's size at the service, px. */
  width: z.number(),
  height: z.number(),
  description: z.string(),
  /** The photographer, for the attribution line. */
  user: z.object({ name: z.string(), link: z.string() }),
  /** The photo's page at the service. */
  link: z.string(),
});
export type StockImage = z.infer<typeof StockImageSchema>;

/**
 * The stock search's answer: `configured: false` (with `message`, no results) when no service
 * has a key; otherwise the service asked and one page of its results.
 */
export const StockPageSchema = z.object({
  configured: z.boolean(),
  source: z.enum(STOCK_SOURCES).nullable(),
  data: z.array(StockImageSchema),
  current_page: z.number().int(),
  last_page: z.number().int(),
  message: z.string().optional(),
});
export type StockPage = z.infer<typeof StockPageSchema>;

/** One suggested tag in the spec's shape (docs/adr/0017-user-files.md "User files" `result.tags[].tag.en`). */
export const TagSuggestionSchema = z.object({
  /** 0–100. */
  confidence: z.number(),
  tag: z.object({ en: z.string() }),
});
export type TagSuggestion = z.infer<typeof TagSuggestionSchema>;

/** `{ success, image }` of an upload or an import (201). */
const Stored = z.object({ success: z.literal(true), image: ImageSchema });

/** The `images` routes' contracts, by route key. */
export const IMAGES_CONTRACT = {
  'GET /getGlobalImages': defineContract({ query: ImageListQuery, answer: ImagePageSchema }),
  'GET /getImages': defineContract({ query: ImageListQuery, answer: ImagePageSchema }),
  'GET /api/search-images/{query}': defineContract({
    /** The words typed (1–100 characters after trimming). */
    params: z.object({ query: z.string() }),
    query: StockSearchQuery,
    answer: StockPageSchema,
    /** 502 when the service fails. */
    errors: [502],
  }),
  'POST /api/search-images/import': defineContract({
    body: StockImportBody,
    answer: Stored,
    status: 201,
    errors: [502],
  }),
  'DELETE /deleteImage': defineContract({
    body: DeleteImageBody,
    answer: z.object({ success: z.literal(true) }),
    /** 409 `{ message, designs }` while a design of the team draws it. */
    errors: [409],
  }),
  'GET /image/{id}': defineContract({ params: IdParams, answer: ImageSchema }),
  'GET /image/{id}/tags': defineContract({
    params: IdParams,
    answer: z.object({ result: z.object({ tags: z.array(TagSuggestionSchema) }) }),
  }),
  'POST /image': defineContract({
    /**
     * Multipart: `image` (the file), and `type=asIcon` for a sticker. A sticker's `notice` says
     * what a bound cut of an animated GIF ("Kept the first 500 of 800 frames: …"), else null.
     */
    answer: z.union([
      Stored,
      z.object({
        success: z.literal(true),
        sticker: UploadStickerSchema,
        notice: z.string().nullable(),
      }),
    ]),
    status: 201,
  }),
} as const;
