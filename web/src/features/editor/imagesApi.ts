/**
 * The image calls of the editor (docs/editor.md "Server sync": "Images, stickers, fonts" and
 * "Design actions"): the library and uploads lists, upload with progress, delete, one image, stock
 * search, the cropped image, and the base-photo save that the sync runs before a full save whose
 * photo changed (`withBaseImageSync`).
 */
import type { StockImage, StockPage } from '#shared/contract/images.ts';
import type { AnswerOf } from '#shared/contract/index.ts';
import { apiUpload, ApiError, call, type UploadProgress } from '../../api/client.ts';
import { libraryImage, nextPageOf, type LibraryImage } from '../../api/images.ts';
import type { BaseImageRef } from './document/image.ts';
import type { DesignServer } from './sync.ts';

export type { LibraryImage, StockImage, StockPage };

/** One page of a list and the next page's number (null after the last). */
export interface Paged<T> {
  items: T[];
  nextPage: number | null;
}

/** A page of a list answer (`{ data, current_page, last_page }`), its rows read by `read`. */
export function pagedOf<R, T>(
  answer: { data: R[]; current_page: number; last_page: number },
  read: (row: R) => T,
): Paged<T> {
  return { items: answer.data.map(read), nextPage: nextPageOf(answer) };
}

/**
 * `GET /getGlobalImages?page=&search=` (Library tab) or `GET /getImages?page=&search=` (My
 * Uploads tab; docs/editor.md "Images panel").
 * @param page from 1.
 * @param search words the images' titles or tags must hold (at most 100 characters); '' for all.
 * @throws {ApiError} for a failed call (422 for a search over 100 characters).
 */
export async function fetchImages(
  source: 'library' | 'uploads',
  page: number,
  search: string,
  signal?: AbortSignal,
): Promise<Paged<LibraryImage>> {
  const input = { query: search ? { page, search } : { page }, signal };
  const answer =
    source === 'library'
      ? await call('GET /getGlobalImages', input)
      : await call('GET /getImages', input);
  return pagedOf(answer, libraryImage);
}

/** What `POST /image` answers (an image, or a sticker for `type=asIcon`). */
export type UploadAnswer = AnswerOf<'POST /image'>;

/**
 * `POST /image` (multipart: `image`, `picSnippetId`): uploads a photo to the team's library.
 * @param onProgress bytes sent so far and the total.
 * @throws {ApiError} 422 with the server's message for a refused file (docs/editor.md "Editing rules", docs/editor.md "Messages").
 */
export async function uploadImage(
  file: File,
  designId: string,
  onProgress: (progress: UploadProgress) => void,
): Promise<LibraryImage> {
  const form = new FormData();
  form.append('picSnippetId', designId);
  form.append('image', file);
  const answer = await apiUpload<UploadAnswer>('/image', form, onProgress);
  if (!('image' in answer)) throw new ApiError(200, 'The upload answered without an image.');
  return libraryImage(answer.image);
}

/** `DELETE /deleteImage` with `imageId`: removes one of the team's uploads. */
export async function deleteImage(imageId: string): Promise<void> {
  await call('DELETE /deleteImage', { body: { imageId } });
}

/** Whether a stock-search failure means the search has no keys (501, 404, "not configured"). */
export const isNotConfigured = (error: unknown): boolean =>
  error instanceof ApiError &&
  (error.status === 501 || error.status === 404 || /not configured/i.test(error.message));

/**
 * `GET /api/search-images/{query}?page=`: one page of stock photos; `configured: false` when
 * the server has no stock service.
 * @throws {ApiError} 422 for an empty or too long query (with a service configured), 502 when
 *   the service fails (see also `isNotConfigured`).
 */
export async function searchStockImages(
  query: string,
  page: number,
  signal?: AbortSignal,
): Promise<StockPage> {
  return call('GET /api/search-images/{query}', { params: { query }, query: { page }, signal });
}

/**
 * `POST /api/search-images/import`: copies a chosen stock photo into the team's uploads.
 * @returns the stored image, to use as the design's photo.
 * @throws {ApiError} 404 when the service no longer has it, 502 when the service fails.
 */
export async function importStockImage(photo: StockImage): Promise<LibraryImage> {
  const answer = await call('POST /api/search-images/import', {
    body: { source: photo.from, id: photo.id },
  });
  return libraryImage(answer.image);
}

/**
 * The base photo a library image makes: its id, assets key (its served URL without the `/`)
 * and size.
 * @throws {ApiError} when the image is not served on this origin.
 */
export function baseImageOf(image: LibraryImage): BaseImageRef {
  const key = image.url?.startsWith('/files/') ? image.url.slice(1) : null;
  if (!key) throw new ApiError(200, 'This image cannot be used as a photo.');
  return { id: image.id, key, width: image.width, height: image.height };
}

/**
 * Stores a crop of the base photo (`POST /saveCroppedImage`, multipart `image` PNG and
 * `pic_snippet_id`) and reads it back (`GET /image/{id}`) for its key.
 * @throws {ApiError} 422 for a refused image, 404 for another team's design.
 */
export async function saveCroppedImage(png: Blob, designId: string): Promise<BaseImageRef> {
  const form = new FormData();
  form.append('pic_snippet_id', designId);
  form.append('image', png, 'crop.png');
  const saved = await apiUpload<AnswerOf<'POST /saveCroppedImage'>>('/saveCroppedImage', form);
  const id = saved.cropped_image_id;
  if (!id) throw new ApiError(200, 'The crop was not saved.');
  return baseImageOf(await call('GET /image/{id}', { params: { id } }));
}

/**
 * `PUT /api/pic-snippet/{id}/saveImageId` with `image_id` and `version`.
 * @returns the design's new version.
 * @throws {ApiError} 409 for a stale version, 422 for an image the team may not use.
 */
export async function saveImageId(id: string, imageId: string, version: number): Promise<number> {
  const written = await call('PUT /api/pic-snippet/{id}/saveImageId', {
    params: { id },
    body: { image_id: imageId, version },
  });
  return written.version;
}

/**
 * The design API for the sync with base-photo changes: a full save may not move the photo
 * (functions/designs/handler.ts), so when the document's `image_id` differs from the server's,
 * `saveImageId` (which checks that the team may use the image) runs first with the version, and
 * the full save follows with the version it answered. Undoing a new photo or a crop saves the
 * old photo back the same way.
 * @param imageId the photo the server has when the editor opens.
 * @param putImageId the photo call (tests pass a fake).
 */
export function withBaseImageSync(
  server: DesignServer,
  imageId: string,
  putImageId: typeof saveImageId = saveImageId,
): DesignServer {
  let serverImageId = imageId;
  return {
    async save(id, request) {
      let version = request.version;
      const wanted = request.document.image_id;
      if (wanted !== serverImageId) {
        version = await putImageId(id, wanted, version);
        serverImageId = wanted;
      }
      return server.save(id, { ...request, version });
    },
    async load(id) {
      const loaded = await server.load(id);
      serverImageId = loaded.document.image_id;
      return loaded;
    },
  };
}
