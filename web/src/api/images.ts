/**
 * The image library calls the create page needs (docs/adr/0017-user-files.md "User files": "Images,
 * stickers, fonts": `GET /getGlobalImages (page) -> data, last_page`).
 */
import type { Image } from '#shared/contract/images.ts';
import { call } from './client.ts';

/**
 * A library picture (shared/contract/images.ts `ImageSchema`; docs/adr/0017-user-files.md "User
 * files" Image): `thumb` (a 400 px wide JPEG) and `url` are paths on this origin (null while not
 * served); sizes in px; `author`, `author_url` and `licence` credit the photographer when known.
 */
export type LibraryImage = Image;

/** One page of the library, and the next page's number (null after the last). */
export interface LibraryPage {
  images: LibraryImage[];
  nextPage: number | null;
}

/** An image as the pickers show it: an empty title reads "Untitled" (their labels name it). */
export const libraryImage = (image: Image): LibraryImage =>
  image.title === '' ? { ...image, title: 'Untitled' } : image;

/** The next page's number of a `{ current_page, last_page }` answer, or null after the last. */
export const nextPageOf = (answer: { current_page: number; last_page: number }): number | null =>
  answer.current_page < answer.last_page ? answer.current_page + 1 : null;

/**
 * `GET /getGlobalImages?page=N`: the global photo library, newest first.
 * @param page 1 for the first page.
 * @returns the page's pictures and the next page's number.
 * @throws {ApiError} for a failed call.
 */
export async function fetchGlobalImages(page: number, signal?: AbortSignal): Promise<LibraryPage> {
  const answer = await call('GET /getGlobalImages', { query: { page }, signal });
  return { images: answer.data.map(libraryImage), nextPage: nextPageOf(answer) };
}
