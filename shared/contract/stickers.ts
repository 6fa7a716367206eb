/**
 * The contract of the `stickers` routes (shared/routes.ts; docs/adr/0021-sticker-library.md
 * "Sticker library": "Images, stickers, fonts", docs/adr/0020-dashboard-spa.md "Dashboard SPA"
 * Stickers panel, docs/adr/0021-sticker-library.md "Sticker library": "Sticker library items",
 * "Sticker pack", "Upload", "Dynamic sticker"):
 * the library of packs, a pack's stickers, the team's uploads, the user's favourites. Sticker
 * uploads arrive through `POST /image` with `type=asIcon` (the images contract answers {@link
 * UploadStickerSchema}).
 *
 * Every item says how to place it in a design: `url` is the design sticker's `url` (an
 * assets-bucket key, shared/design.ts `StickerSchema`), `sticker_type` its `stickerType`,
 * `width`/`height` its intrinsic size in px; `icon_url` and `cover_image` are same-origin paths
 * (`/files/…`) of what the panel shows. functions/stickers parses its input with these schemas;
 * the kiosk's pack calls share the list input (functions/stickers/schemas.ts).
 */
import { z } from 'zod';
import type { DynamicStickerType } from '../design.ts';
import { defineContract } from './core.ts';
import { lengthAwarePage, PageQuery } from './paging.ts';

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

/** Longest search accepted, characters. */
export const MAX_SEARCH_LENGTH = 100;

/** The kinds a user can mark as favourite, as `type` names them (docs/adr/0021-sticker-library.md "Sticker library"). */
export const FAVORITE_KINDS = ['pack', 'icon', 'custom_sticker'] as const;
export type FavoriteKind = (typeof FAVORITE_KINDS)[number];

/** The sticker lists' `?page=`: a whole number from 1 (default 1). */
export const StickerPageQuery = PageQuery;

/** Free text to search with; absent or null is no search. At most 100 characters. */
export const SearchText = z
  .string({ error: 'The search must be text.' })
  .max(MAX_SEARCH_LENGTH, `The search may not be greater than ${MAX_SEARCH_LENGTH} characters.`)
  .nullish()
  .transform((s) => s ?? '');

/** The list calls' optional body: `{ search }` (docs/adr/0021-sticker-library.md "Sticker library": "optional search body"). */
export const SearchBody = z.object({ search: SearchText });

/** An id field of a body, e.g. `packId`, with messages naming `what`. */
export const IdField = (what: string) =>
  z
    .string({ error: `The ${what} id is required.` })
    .trim()
    .min(1, `The ${what} id is required.`)
    .max(200, `The ${what} id may not be greater than 200 characters.`);

/** `POST /getPacksStickers`: the pack and an optional search. */
export const PackStickersBody = z.object({ id: IdField('pack'), search: SearchText });

/** `POST /addToFavorite`: the item and, optionally, the state to set (else it toggles). */
export const FavoriteBody = z.object({
  id: IdField('sticker'),
  type: z.enum(FAVORITE_KINDS, {
    error: 'The type must be one of: pack, icon, custom_sticker.',
  }),
  /** Set this state; without it the favourite is toggled. */
  is_favorite: z.boolean({ error: 'The is_favorite field must be true or false.' }).optional(),
});

/** `POST /deleteUploadSticker`: one of the team's uploaded stickers. */
export const DeleteUploadBody = z.object({ id: IdField('sticker') });

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

/** A pack (functions/stickers/views.ts `packView`): a library item and the spec's Sticker pack. */
export const PackItemSchema = z.object({
  id: z.string(),
  type: z.literal('pack'),
  pack_id: z.string(),
  pack_name: z.string(),
  cover_image: z.string(),
  icon_url: z.string(),
  is_favorite: z.boolean(),
  sticker_count: z.number().int(),
  /** Where the artwork comes from and under which licence, e.g. `Twemoji, CC BY 4.0`. */
  attribution: z.string(),
});
export type PackItem = z.infer<typeof PackItemSchema>;

/** A sticker of a pack (`iconView`), drawn as a plain sticker. */
export const IconItemSchema = z.object({
  id: z.string(),
  type: z.literal('icon'),
  pack_id: z.string(),
  name: z.string(),
  icon_url: z.string(),
  url: z.string(),
  sticker_type: z.literal('plain'),
  width: z.number(),
  height: z.number(),
  is_favorite: z.boolean(),
});
export type IconItem = z.infer<typeof IconItemSchema>;

/** A team's uploaded sticker (`uploadView`; docs/adr/0021-sticker-library.md "Sticker library" Upload), drawn as an upload. */
export const UploadStickerSchema = z.object({
  id: z.string(),
  type: z.literal('custom_sticker'),
  pack_id: z.null(),
  image_name: z.string(),
  name: z.string(),
  icon_url: z.string(),
  url: z.string(),
  sticker_type: z.literal('upload'),
  width: z.number(),
  height: z.number(),
  is_favorite: z.boolean(),
  created_at: z.string().nullable(),
});
export type UploadSticker = z.infer<typeof UploadStickerSchema>;

/** Any library item, told apart by `type`. */
export const LibraryItemSchema = z.discriminatedUnion('type', [
  PackItemSchema,
  IconItemSchema,
  UploadStickerSchema,
]);
export type LibraryItem = z.infer<typeof LibraryItemSchema>;

/**
 * A dynamic sticker the Library tab offers (functions/stickers/dynamic.ts;
 * docs/adr/0021-sticker-library.md "Sticker library" "Dynamic sticker"); `icon_url` is an inline
 * SVG data URL, `width`/`height` px.
 */
export const DynamicStickerSchema = z.object({
  id: z.string(),
  type: z.literal('dynamic sticker'),
  sticker_name: z.string(),
  description: z.string(),
  sticker_type: z.enum([
    'qrCode',
    'gravatar',
    'hostedImage',
    'screenShot',
    'countdown',
    'poll',
    'weather',
  ]) satisfies z.ZodType<DynamicStickerType>,
  icon_url: z.string(),
  width: z.number(),
  height: z.number(),
});
export type DynamicSticker = z.infer<typeof DynamicStickerSchema>;

/** `{ success, data, current_page, last_page, per_page, total }` of a list of `item`. */
const listOf = <T extends z.ZodType>(item: T) =>
  lengthAwarePage(item).extend({ success: z.literal(true) });

/** The `stickers` routes' contracts, by route key. */
export const STICKERS_CONTRACT = {
  'POST /getStickers': defineContract({
    query: StickerPageQuery,
    body: SearchBody,
    /** Packs (or, with a search, packs then stickers); `dynamic` on every page. */
    answer: listOf(LibraryItemSchema).extend({ dynamic: z.array(DynamicStickerSchema) }),
  }),
  'POST /getFavorites': defineContract({
    query: StickerPageQuery,
    body: SearchBody,
    answer: listOf(LibraryItemSchema),
  }),
  'POST /getUploads': defineContract({
    query: StickerPageQuery,
    body: SearchBody,
    answer: listOf(UploadStickerSchema),
  }),
  'POST /getPacksStickers': defineContract({
    query: StickerPageQuery,
    body: PackStickersBody,
    answer: listOf(IconItemSchema).extend({ pack: PackItemSchema }),
  }),
  'POST /addToFavorite': defineContract({
    body: FavoriteBody,
    answer: z.object({
      success: z.literal(true),
      id: z.string(),
      type: z.enum(FAVORITE_KINDS),
      /** The state kept. */
      is_favorite: z.boolean(),
      message: z.string(),
    }),
  }),
  'POST /deleteUploadSticker': defineContract({
    body: DeleteUploadBody,
    answer: z.object({ success: z.literal(true), message: z.string() }),
    /** 409 `{ message, designs }` while a design of the team draws it. */
    errors: [409],
  }),
} as const;
