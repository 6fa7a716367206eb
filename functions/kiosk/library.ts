/**
 * The global image library's admin in the kiosk (docs/kiosk.md "The global image library"): list
 * the library's photos with their tags, add a photo through the one upload pipeline
 * (functions/images/library.ts `storeUpload`: extensions, magic bytes, 8 MB, 40 MP, re-encoded, 400
 * px thumbnail), set its tags, remove it.
 *
 * Removing takes the photo out of the library (`scope` becomes {@link REMOVED_SCOPE}): the
 * pickers no longer list it, `GET /image/{id}` answers 404 and no design can choose it anew.
 * Its files stay where they are and stay served: designs of any team that already use it keep
 * drawing it, in renders (which read the bucket by key) and in their editors (which show
 * `/{base_image_key}`). Unlike a team's own upload it is not withdrawn: it is licensed library
 * artwork, not a user's private file, and designs of every team may use it, so a withdrawal could
 * neither be refused while in use (docs/security.md "Deleted uploads") nor keep their editors
 * working. The item is kept rather than deleted so the library installer
 * (infra/deploy/install-library.ts, which adds a seed photo whose item is missing) does not bring
 * a removed seed photo back.
 */
import type { EntityItem } from 'electrodb';
import { db } from '#lib/db/index.ts';
import type { Entities } from '#lib/db/entities.ts';
import { notFound, validationFailed } from '#lib/errors.ts';
import { json, route, zodFieldErrors, type RouteDefinition } from '#lib/http.ts';
import { storeUpload } from '#functions/images/library.ts';
import { foldForSearch, pageOf, ranked, searchScore } from '#functions/stickers/kiosk-packs.ts';
import {
  KioskLibraryQuery,
  LIBRARY_MESSAGES,
  LibraryTags,
  LibraryTagsBody,
  type KioskImage,
} from '#shared/contract/kiosk-packs.ts';

type ImageRecord = EntityItem<Entities['LibraryImage']>;

/** `LibraryImage.scope` of the global library (functions/images: `GET /getGlobalImages`). */
export const GLOBAL_SCOPE = 'global';

/** `scope` of a photo removed from the global library (listed nowhere, files kept). */
export const REMOVED_SCOPE = 'global-removed';

/** Longest title, characters (as an upload's title from its file name). */
const MAX_TITLE_LENGTH = 255;

/** Same-origin URL of an assets-bucket key under `files/` (served at `/files/*`), else null. */
const served = (key: string): string | null => (key.startsWith('files/') ? `/${key}` : null);

/** A library photo as the kiosk shows it: the pickers' fields plus its tags and date. */
export function kioskImageView(image: ImageRecord): KioskImage {
  return {
    id: image.imageId,
    title: image.title,
    thumb: served(image.thumbKey),
    url: served(image.key),
    width: image.width,
    height: image.height,
    author: image.author ?? null,
    author_url: image.authorUrl ?? null,
    licence: image.licence ?? null,
    tags: image.tags ?? [],
    created_at: image.createdAt ?? null,
  };
}

/** A photo of the global library. @throws AppError 404 `Image not found.` for anything else. */
async function globalImage(imageId: string): Promise<ImageRecord> {
  const image = (await db().LibraryImage.get({ imageId }).go()).data;
  if (!image || image.scope !== GLOBAL_SCOPE) throw notFound(LIBRARY_MESSAGES.notFound);
  return image;
}

/**
 * The global library newest first (tens of photos: read whole), 24 a page; with a search, the
 * photos whose title or tags hold every word, best first (the sticker lists' matching).
 */
async function libraryPage(search: string, page: number) {
  const all = (
    await db()
      .LibraryImage.query.byScope({ scope: GLOBAL_SCOPE })
      .go({ pages: 'all', order: 'desc' })
  ).data;
  const query = foldForSearch(search);
  const shown = query ? ranked(all, (i) => searchScore(query, i.title, i.tags ?? [])) : all;
  return pageOf(shown.map(kioskImageView), page);
}

/** A text field of a multipart body, or undefined. */
function textField(body: unknown, name: string): string | undefined {
  const value =
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/**
 * The optional `title` and `tags` (comma-separated) of an added photo, checked before the file
 * is stored.
 * @throws AppError 422 `{ title | tags: [message] }`.
 */
function addedFields(body: unknown): { title?: string; tags: string[] } {
  const title = textField(body, 'title')?.trim();
  if (title && title.length > MAX_TITLE_LENGTH) {
    throw validationFailed({
      title: [`The title may not be greater than ${MAX_TITLE_LENGTH} characters.`],
    });
  }
  const tags = LibraryTags.safeParse((textField(body, 'tags') ?? '').split(','));
  if (!tags.success)
    throw validationFailed({ tags: Object.values(zodFieldErrors(tags.error)).flat() });
  return { title: title || undefined, tags: tags.data };
}

/** The kiosk's global library routes, by route key. */
export const LIBRARY_ROUTES: Record<string, RouteDefinition> = {
  'GET /spark/kiosk/library': route({
    query: KioskLibraryQuery,
    handle: async ({ query }) => json(200, await libraryPage(query.search ?? '', query.page)),
  }),

  /** Multipart: `image`, optional `title` (default: the file name) and `tags`. */
  'POST /spark/kiosk/library': route({
    handle: async ({ body }) => {
      const fields = addedFields(body);
      let image = await storeUpload(GLOBAL_SCOPE, body, { title: fields.title });
      if (fields.tags.length > 0) {
        image = (
          await db()
            .LibraryImage.patch({ imageId: image.imageId })
            .set({ tags: fields.tags })
            .go({ response: 'all_new' })
        ).data as ImageRecord;
      }
      return json(201, {
        success: true,
        message: LIBRARY_MESSAGES.added,
        image: kioskImageView(image),
      });
    },
  }),

  'PUT /spark/kiosk/library/{id}/tags': route({
    body: LibraryTagsBody,
    handle: async ({ params, body }) => {
      const image = await globalImage(params.id!);
      await db().LibraryImage.patch({ imageId: image.imageId }).set({ tags: body.tags }).go();
      return json(200, {
        success: true,
        message: LIBRARY_MESSAGES.tagsSaved,
        image: kioskImageView({ ...image, tags: body.tags }),
      });
    },
  }),

  'DELETE /spark/kiosk/library/{id}': route({
    handle: async ({ params }) => {
      const image = await globalImage(params.id!);
      // A put, not a patch: `scope` is a key of the byScope index, whose other key part
      // (`createdAt`) is read-only, so the whole item is written with its new scope.
      await db()
        .LibraryImage.put({ ...image, scope: REMOVED_SCOPE })
        .go();
      return json(200, { success: true, message: LIBRARY_MESSAGES.removed });
    },
  }),
};
