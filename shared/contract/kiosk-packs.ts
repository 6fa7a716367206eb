/**
 * The contract of the kiosk's sticker packs and the global image library (docs/kiosk.md "Sticker
 * packs", docs/kiosk.md "The global image library", docs/accounts.md "Error answers in the SPA"
 * pack messages).
 *
 * - Packs: `GET /packs/getPacks` and `POST /packs/search` list every pack with its state;
 *   `DELETE /packs/removePack` and `PATCH /packs/restorePack` hide and bring back one;
 *   `POST /packs/download` imports a pack from an uploaded zip archive (multipart field
 *   `archive`) holding SVG or PNG files and a `manifest.json` ({@link PackManifestSchema}).
 * - Library: `GET /spark/kiosk/library` lists the global photos with their tags,
 *   `POST /spark/kiosk/library` adds one (multipart `image`, optional `title` and `tags`),
 *   `PUT /spark/kiosk/library/{id}/tags` sets its tags, `DELETE /spark/kiosk/library/{id}`
 *   removes it from the library (designs that use it keep drawing it).
 *
 * functions/kiosk parses its input with these schemas; the SPA's kiosk tabs type their calls
 * with them. Imports zod and plain shared data only.
 */
import { z } from 'zod';
import { MAX_TAG_LENGTH, normalizeTag } from '../template-tags.ts';
import { defineContract, IdParams, type RouteContract } from './core.ts';
import { ImageSchema } from './images.ts';
import { lengthAwarePage, PageQuery } from './paging.ts';
import { IdField, SearchText, StickerPageQuery } from './stickers.ts';

// ---------------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------------

/** docs/accounts.md "Error answers in the SPA" pack messages; the SPA shows each for 2 s (docs/accounts.md "Constants"). */
export const PACK_MESSAGES = {
  restored: 'The pack was successfully restored.',
  notRestored: "The pack wasn't restored.",
  deleted: 'The pack was successfully deleted.',
  notDeleted: "The pack wasn't deleted.",
} as const;

/** How long a pack message shows, ms (docs/accounts.md "Error answers in the SPA": "Cleared after 2 seconds"). */
export const PACK_MESSAGE_MS = 2000;

/** The global library's messages (docs/kiosk.md "The global image library"). */
export const LIBRARY_MESSAGES = {
  added: 'The photo was added to the library.',
  tagsSaved: 'The tags were saved.',
  removed: 'The photo was removed from the library. Designs that use it keep drawing it.',
  notFound: 'Image not found.',
  tooManyTags: 'A photo may have at most 30 tags.',
  tagTooLong: `A tag may not be greater than ${MAX_TAG_LENGTH} characters.`,
} as const;

// ---------------------------------------------------------------------------------------------
// Pack archives
// ---------------------------------------------------------------------------------------------

/**
 * Bounds of an uploaded pack archive (docs/kiosk.md "Sticker packs"; docs/security.md "Uploaded
 * files"). Each is checked on the zip's central directory before anything is inflated, and the
 * inflated bytes of an entry never exceed the size it declares.
 */
export const PACK_ARCHIVE_LIMITS = {
  /** The zip itself, bytes: under API Gateway's 10 MB payload, like image uploads. */
  archiveBytes: 8 * 1024 * 1024,
  /** Entries of the zip, folders and ignored files included. */
  entries: 300,
  /** Stickers of one pack. */
  stickers: 200,
  /** One inflated file, bytes (an icon is a few kB; a 512 px PNG well under 1 MB). */
  fileBytes: 2 * 1024 * 1024,
  /** Every inflated entry read together, bytes. */
  totalBytes: 64 * 1024 * 1024,
  /** `manifest.json`, bytes. */
  manifestBytes: 64 * 1024,
  /** Characters of an entry's path. */
  nameLength: 200,
} as const;

/** The manifest's file name, at the root of the archive. */
export const PACK_MANIFEST = 'manifest.json';

/** Sticker image files a pack may hold, by extension (docs/kiosk.md: SVG or PNG). */
export const PACK_IMAGE_FILE = /\.(svg|png)$/i;

/** Longest pack or sticker name, characters. */
export const MAX_PACK_NAME_LENGTH = 100;

/** The import's messages (422 `{ archive: [message] }` unless said). */
export const PACK_IMPORT_MESSAGES = {
  imported: 'The pack was successfully imported.',
  missing: 'Choose a zip archive to upload.',
  notZip: 'The archive is not a readable zip file.',
  tooLarge: `The archive may not be greater than ${PACK_ARCHIVE_LIMITS.archiveBytes / 1024 / 1024} MB.`,
  tooManyEntries: `The archive may hold at most ${PACK_ARCHIVE_LIMITS.entries} files.`,
  tooManyStickers: `A pack may hold at most ${PACK_ARCHIVE_LIMITS.stickers} stickers.`,
  tooBig: `Unpacked, the archive may not be greater than ${PACK_ARCHIVE_LIMITS.totalBytes / 1024 / 1024} MB.`,
  noManifest: `The archive has no ${PACK_MANIFEST} at its top level.`,
  badManifest: `The ${PACK_MANIFEST} is not valid JSON.`,
  /** 409: a pack of that name exists (names compared ignoring case and accents). */
  duplicate: (name: string) => `A pack named "${name}" already exists.`,
  unsafeName: (name: string) => `The archive holds a file with an unsafe path: "${name}".`,
  fileTooBig: (name: string) =>
    `${name} may not be greater than ${PACK_ARCHIVE_LIMITS.fileBytes / 1024 / 1024} MB unpacked.`,
  unsupported: (name: string) => `${name}: only deflated or stored zip entries can be read.`,
  missingFile: (name: string) => `${PACK_MANIFEST} names ${name}, which the archive does not hold.`,
  notImage: (name: string) => `${name} must be an SVG or PNG file.`,
  refusedSvg: (name: string) =>
    `${name} was refused: an SVG may not hold scripts, embedded files, outside references or a DOCTYPE.`,
  unreadable: (name: string) => `${name} could not be read as an image.`,
} as const;

/** Text of the manifest with a message naming the field. */
const ManifestText = (what: string, max: number) =>
  z
    .string({ error: `The ${what} is required.` })
    .trim()
    .min(1, `The ${what} is required.`)
    .max(max, `The ${what} may not be greater than ${max} characters.`);

/**
 * `manifest.json` of a pack archive:
 * ```json
 * { "name": "Summer", "attribution": "Drawn by Ana, CC BY 4.0", "cover": "sun.svg",
 *   "stickers": [{ "file": "sun.svg", "name": "Sun", "tags": ["hot", "beach"] }] }
 * ```
 * `file` is the path inside the archive; `cover` (optional, default the first sticker) names one
 * of the stickers' files; tags are search words (lower-cased, each at most 50 characters).
 * Files the manifest does not name are not imported (still bounded and path-checked).
 */
export const PackManifestSchema = z
  .object({
    name: ManifestText('pack name', MAX_PACK_NAME_LENGTH),
    attribution: ManifestText('attribution (who made the artwork, under which licence)', 300),
    cover: z.string().optional(),
    stickers: z
      .array(
        z.object({
          file: ManifestText('sticker file', PACK_ARCHIVE_LIMITS.nameLength).refine(
            (f) => PACK_IMAGE_FILE.test(f),
            { error: (issue) => PACK_IMPORT_MESSAGES.notImage(String(issue.input)) },
          ),
          name: ManifestText('sticker name', MAX_PACK_NAME_LENGTH),
          tags: z
            .array(z.string().max(MAX_TAG_LENGTH, LIBRARY_MESSAGES.tagTooLong))
            .max(30, 'A sticker may have at most 30 tags.')
            .default([])
            .transform((tags) => [...new Set(tags.map(normalizeTag).filter((t) => t !== ''))]),
        }),
        { error: 'The manifest needs a list of stickers.' },
      )
      .min(1, 'The manifest needs at least one sticker.')
      .max(PACK_ARCHIVE_LIMITS.stickers, PACK_IMPORT_MESSAGES.tooManyStickers),
  })
  .refine((m) => new Set(m.stickers.map((s) => s.file)).size === m.stickers.length, {
    error: 'The manifest names a file twice.',
  })
  .refine((m) => m.cover === undefined || m.stickers.some((s) => s.file === m.cover), {
    error: 'The cover must be one of the stickers’ files.',
  });
export type PackManifest = z.infer<typeof PackManifestSchema>;

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

/** `POST /packs/search`: `search`, or `query` as the kiosk's team search names it. */
export const PackSearchBody = z.object({ search: SearchText, query: SearchText });

/** `DELETE /packs/removePack`, `PATCH /packs/restorePack` (docs/kiosk.md "Sticker packs"). */
export const PackIdBody = z.object({ packId: IdField('pack') });

/** `GET /spark/kiosk/library`: `?page=` and an optional `?search=` (title and tags). */
export const KioskLibraryQuery = PageQuery.extend({ search: SearchText.optional() });

/**
 * A photo's tags as sent: each trimmed, lower-cased and spaces collapsed (shared/template-tags.ts
 * `normalizeTag`), empty ones dropped, repeats kept once; at most 30 of at most 50 characters.
 */
export const LibraryTags = z
  .array(
    z.string({ error: 'A tag must be text.' }).max(MAX_TAG_LENGTH, LIBRARY_MESSAGES.tagTooLong),
    {
      error: 'The tags must be a list.',
    },
  )
  .max(30, LIBRARY_MESSAGES.tooManyTags)
  .transform((tags) => [...new Set(tags.map(normalizeTag).filter((t) => t !== ''))]);

/** `PUT /spark/kiosk/library/{id}/tags`: the photo's whole tag list. */
export const LibraryTagsBody = z.object({ tags: LibraryTags });

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

/** A pack as the kiosk lists it (functions/stickers/kiosk-packs.ts `kioskPackView`). */
export const KioskPackSchema = z.object({
  id: z.string(),
  pack_name: z.string(),
  /** Same-origin path of the cover image (`/files/…`). */
  cover_image: z.string(),
  sticker_count: z.number().int(),
  attribution: z.string(),
  status: z.enum(['active', 'removed']),
  /** Order in the library, ascending from 1. */
  position: z.number().int(),
  created_at: z.string().nullable(),
});
export type KioskPack = z.infer<typeof KioskPackSchema>;

/** One page of packs, 24 a page. */
const KioskPackPage = lengthAwarePage(KioskPackSchema).extend({ success: z.literal(true) });

/** A pack action's answer: the spec's message and the pack after it. */
const PackAction = z.object({
  success: z.literal(true),
  message: z.string(),
  pack: KioskPackSchema,
});

/** A global library photo as the kiosk lists it: the picker's fields, its tags and its date. */
export const KioskImageSchema = ImageSchema.extend({
  tags: z.array(z.string()),
  created_at: z.string().nullable(),
});
export type KioskImage = z.infer<typeof KioskImageSchema>;

const ImageAction = z.object({
  success: z.literal(true),
  message: z.string(),
  image: KioskImageSchema,
});

/** These routes' contracts, by route key. */
export const KIOSK_PACKS_CONTRACT = {
  'GET /packs/getPacks': defineContract({ query: StickerPageQuery, answer: KioskPackPage }),
  'POST /packs/search': defineContract({
    body: PackSearchBody,
    query: StickerPageQuery,
    answer: KioskPackPage,
  }),
  'POST /packs/download': defineContract({
    /** Multipart: `archive`, the zip (PACK_ARCHIVE_LIMITS). */
    answer: PackAction,
    status: 201,
    /** 409 when a pack of the manifest's name exists. */
    errors: [409],
  }),
  'PATCH /packs/restorePack': defineContract({ body: PackIdBody, answer: PackAction }),
  'DELETE /packs/removePack': defineContract({ body: PackIdBody, answer: PackAction }),

  'GET /spark/kiosk/library': defineContract({
    query: KioskLibraryQuery,
    answer: lengthAwarePage(KioskImageSchema),
  }),
  'POST /spark/kiosk/library': defineContract({
    /** Multipart: `image` (the file), optional `title` and `tags` (comma-separated). */
    answer: ImageAction,
    status: 201,
  }),
  'PUT /spark/kiosk/library/{id}/tags': defineContract({
    params: IdParams,
    body: LibraryTagsBody,
    answer: ImageAction,
  }),
  'DELETE /spark/kiosk/library/{id}': defineContract({
    params: IdParams,
    answer: z.object({ success: z.literal(true), message: z.string() }),
  }),
} as const satisfies Record<string, RouteContract>;
