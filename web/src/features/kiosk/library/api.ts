/**
 * The kiosk's global image library calls (docs/kiosk.md "The global image library";
 * shared/contract/kiosk-packs.ts) and their query keys, in the `images` family
 * (web/src/state/queryKeys.ts): a change here also reaches the pickers' library lists.
 */
import type { AnswerOf } from '#shared/contract/index.ts';
import type { KioskImage } from '#shared/contract/kiosk-packs.ts';
import { apiUpload, call, type UploadProgress } from '../../../api/client.ts';
import type { Page } from '../../../hooks/usePagedQuery.ts';
import { queryKeys } from '../../../state/queryKeys.ts';

export const libraryKeys = {
  /** The kiosk's library list for a search (`''`: every photo), paged. */
  list: (search: string) => [...queryKeys.images.all, 'kiosk', search] as const,
};

/**
 * One page of the global library, newest first, 24 a page (`GET /spark/kiosk/library`).
 * @param page from 1.
 */
export async function fetchLibraryPage(
  search: string,
  page: number,
  signal: AbortSignal,
): Promise<Page<KioskImage, number>> {
  const answer = await call('GET /spark/kiosk/library', { query: { search, page }, signal });
  return {
    items: answer.data,
    next: answer.current_page < answer.last_page ? answer.current_page + 1 : null,
  };
}

/**
 * Adds a photo to the global library (`POST /spark/kiosk/library`, multipart).
 * @param fields the optional title and comma-separated tags.
 * @param onProgress bytes sent so far and the total.
 * @throws {ApiError} 422 `errors.image` for a refused file, `errors.title`/`errors.tags`.
 */
export function addLibraryPhoto(
  file: File,
  fields: { title: string; tags: string },
  onProgress: (progress: UploadProgress) => void,
): Promise<AnswerOf<'POST /spark/kiosk/library'>> {
  const form = new FormData();
  form.append('image', file, file.name);
  if (fields.title.trim()) form.append('title', fields.title.trim());
  if (fields.tags.trim()) form.append('tags', fields.tags);
  return apiUpload('/spark/kiosk/library', form, onProgress);
}

/** Sets a photo's tags (`PUT /spark/kiosk/library/{id}/tags`); the server normalises them. */
export function saveLibraryTags(id: string, tags: string[]) {
  return call('PUT /spark/kiosk/library/{id}/tags', { params: { id }, body: { tags } });
}

/** Removes a photo from the library (`DELETE /spark/kiosk/library/{id}`); designs keep it. */
export function removeLibraryPhoto(id: string) {
  return call('DELETE /spark/kiosk/library/{id}', { params: { id } });
}

/** Tags as the form shows them: `red, garden bug`. */
export const tagsText = (tags: readonly string[]) => tags.join(', ');

/** Tags as typed, split at commas (the server trims, lower-cases and drops repeats). */
export const tagsOf = (text: string) => text.split(',');
