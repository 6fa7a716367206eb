/**
 * The image calls of the editor (spec 000 §7 "Images, stickers, fonts" and "Design actions"):
 * the library and uploads lists, upload with progress, delete, one image, stock search, the
 * cropped image, and the base-photo save that the sync runs before a full save whose photo
 * changed (`withBaseImageSync`).
 */
import { api, apiUpload, ApiError, type UploadProgress } from '../../api/client.ts';
import type { LibraryImage } from '../../api/images.ts';
import type { BaseImageRef } from './document/image.ts';
import type { DesignServer } from './sync.ts';

export type { LibraryImage };

const enc = encodeURIComponent;
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const textOrNull = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const size = (v: unknown): number => (typeof v === 'number' && v > 0 ? v : 0);

/** A library image row of an answer (functions/images/views.ts `imageView`), or null. */
export function toLibraryImage(row: unknown): LibraryImage | null {
  if (!isRecord(row) || typeof row.id !== 'string') return null;
  return {
    id: row.id,
    title: textOrNull(row.title) ?? 'Untitled',
    thumb: textOrNull(row.thumb),
    url: textOrNull(row.url),
    width: size(row.width),
    height: size(row.height),
    author: textOrNull(row.author),
    licence: textOrNull(row.licence),
  };
}

/** One page of a list and the next page's number (null after the last). */
export interface Paged<T> {
  items: T[];
  nextPage: number | null;
}

/** `{ data, current_page, last_page }` read into a page of `T`. */
export function pagedOf<T>(
  body: unknown,
  page: number,
  read: (row: unknown) => T | null,
): Paged<T> {
  if (!isRecord(body) || !Array.isArray(body.data))
    throw new ApiError(200, 'The library answered in a shape this editor does not know.');
  const items = body.data.map(read).filter((x): x is T => x !== null);
  const current = typeof body.current_page === 'number' ? body.current_page : page;
  const last = typeof body.last_page === 'number' ? body.last_page : current;
  return { items, nextPage: current < last ? current + 1 : null };
}

/**
 * `GET /getGlobalImages?page=` (Library tab) or `GET /getImages?page=` (My Uploads tab).
 * @throws {ApiError} for a failed call.
 */
export async function fetchImages(
  source: 'library' | 'uploads',
  page: number,
  signal?: AbortSignal,
): Promise<Paged<LibraryImage>> {
  const path = source === 'library' ? '/getGlobalImages' : '/getImages';
  const body = await api<unknown>('GET', `${path}?page=${page}`, undefined, { signal });
  return pagedOf(body, page, toLibraryImage);
}

/**
 * `POST /image` (multipart: `image`, `picSnippetId`): uploads a photo to the team's library.
 * @param onProgress bytes sent so far and the total.
 * @throws {ApiError} 422 with the server's message for a refused file (spec 000 §5, §8).
 */
export async function uploadImage(
  file: File,
  designId: string,
  onProgress: (progress: UploadProgress) => void,
): Promise<LibraryImage> {
  const form = new FormData();
  form.append('picSnippetId', designId);
  form.append('image', file);
  const body = await apiUpload<unknown>('/image', form, onProgress);
  const image = isRecord(body) ? toLibraryImage(body.image) : null;
  if (!image) throw new ApiError(200, 'The upload answered without an image.');
  return image;
}

/** `DELETE /deleteImage` with `imageId`: removes one of the team's uploads. */
export async function deleteImage(imageId: string): Promise<void> {
  await api('DELETE', '/deleteImage', { imageId });
}

/** Whether a stock-search failure means the search has no keys (501, 404, "not configured"). */
export const isNotConfigured = (error: unknown): boolean =>
  error instanceof ApiError &&
  (error.status === 501 || error.status === 404 || /not configured/i.test(error.message));

/**
 * `GET /api/search-images/{query}?page=`: stock photos.
 * @throws {ApiError} 501 when no stock service is configured (see `isNotConfigured`).
 */
export async function searchStockImages(
  query: string,
  page: number,
  signal?: AbortSignal,
): Promise<Paged<LibraryImage>> {
  const body = await api<unknown>(
    'GET',
    `/api/search-images/${enc(query)}?page=${page}`,
    undefined,
    { signal },
  );
  return pagedOf(body, page, toLibraryImage);
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
  const saved = await apiUpload<unknown>('/saveCroppedImage', form);
  const id = isRecord(saved) ? textOrNull(saved.cropped_image_id) : null;
  if (!id) throw new ApiError(200, 'The crop was not saved.');
  const image = toLibraryImage(await api<unknown>('GET', `/image/${enc(id)}`));
  if (!image) throw new ApiError(200, 'The crop was not saved.');
  return baseImageOf(image);
}

/**
 * `PUT /api/pic-snippet/{id}/saveImageId` with `image_id` and `version`.
 * @returns the design's new version.
 * @throws {ApiError} 409 for a stale version, 422 for an image the team may not use.
 */
export async function saveImageId(id: string, imageId: string, version: number): Promise<number> {
  const body = await api<unknown>('PUT', `/api/pic-snippet/${enc(id)}/saveImageId`, {
    image_id: imageId,
    version,
  });
  return isRecord(body) && typeof body.version === 'number' ? body.version : version;
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
