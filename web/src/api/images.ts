/**
 * The image library calls the create page needs (spec 000 §7 "Images, stickers, fonts":
 * `GET /getGlobalImages (page) -> data, last_page`).
 */
import { api, ApiError } from './client.ts';

/**
 * A library picture (functions/images/views.ts `imageView`; spec 000 §3 Image): `thumb` (a
 * 400 px wide JPEG) and `url` are paths on this origin (null while not served); sizes in px;
 * `author` and `licence` credit the photographer when known.
 */
export interface LibraryImage {
  id: string;
  title: string;
  thumb: string | null;
  url: string | null;
  width: number;
  height: number;
  author: string | null;
  licence: string | null;
}

/** One page of the library, and the next page's number (null after the last). */
export interface LibraryPage {
  images: LibraryImage[];
  nextPage: number | null;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const textOrNull = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const size = (v: unknown): number => (typeof v === 'number' && v > 0 ? v : 0);

/**
 * `GET /getGlobalImages?page=N`: the global photo library, newest first.
 * @param page 1 for the first page.
 * @returns the page's pictures (rows without an id are dropped) and the next page's number.
 * @throws {ApiError} for a failed call, or an answer without `data`.
 */
export async function fetchGlobalImages(page: number, signal?: AbortSignal): Promise<LibraryPage> {
  const body = await api<unknown>('GET', `/getGlobalImages?page=${page}`, undefined, { signal });
  if (!isRecord(body) || !Array.isArray(body.data)) {
    throw new ApiError(200, 'The image library answered in a shape this page does not know.');
  }
  const images = body.data.flatMap((row): LibraryImage[] =>
    isRecord(row) && typeof row.id === 'string'
      ? [
          {
            id: row.id,
            title: typeof row.title === 'string' && row.title !== '' ? row.title : 'Untitled',
            thumb: textOrNull(row.thumb),
            url: textOrNull(row.url),
            width: size(row.width),
            height: size(row.height),
            author: textOrNull(row.author),
            licence: textOrNull(row.licence),
          },
        ]
      : [],
  );
  const current = typeof body.current_page === 'number' ? body.current_page : page;
  const last = typeof body.last_page === 'number' ? body.last_page : current;
  return { images, nextPage: current < last ? current + 1 : null };
}
