/**
 * The sticker library calls of the editor (docs/editor.md "Server sync": "Images, stickers, fonts":
 * POST /getStickers, /getFavorites, /getUploads (optional search body, ?page=), /getPacksStickers
 * (body id), /addToFavorite, /deleteUploadSticker; POST /image with type=asIcon), typed by their
 * contract (shared/contract/stickers.ts).
 */
import type { DynamicSticker, LibraryItem } from '#shared/contract/stickers.ts';
import type { DynamicStickerType } from '#shared/design.ts';
import { apiUpload, ApiError, call, type UploadProgress } from '../../api/client.ts';
import { pagedOf, type Paged, type UploadAnswer } from './imagesApi.ts';

/** A library item as the panel shows it: a pack, a pack's sticker (`icon`) or an upload. */
export interface StickerItem {
  id: string;
  type: LibraryItem['type'];
  name: string;
  /** What the panel shows (same-origin path). */
  iconUrl: string;
  /** The design sticker's `url` (assets key) and kind; empty for a pack. */
  url: string;
  stickerType: 'plain' | 'upload';
  width: number;
  height: number;
  isFavorite: boolean;
}

/** A dynamic sticker the Library tab offers (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore" Dynamic sticker). */
export interface DynamicStickerItem {
  id: string;
  name: string;
  description: string;
  type: DynamicStickerType;
  iconUrl: string;
}

/**
 * A library item of an answer (shared/contract/stickers.ts `LibraryItemSchema`) as the panel
 * shows it; a pack is placed by opening it, so it has no `url` and the default 512 px size.
 */
export function toStickerItem(item: LibraryItem): StickerItem {
  const common = { id: item.id, type: item.type, iconUrl: item.icon_url };
  const isFavorite = item.is_favorite;
  if (item.type === 'pack') {
    const size = { width: 512, height: 512 };
    const name = item.pack_name || 'Sticker';
    return { ...common, name, url: '', stickerType: 'plain', ...size, isFavorite };
  }
  const { url, width, height } = item;
  const stickerType = item.sticker_type;
  return { ...common, name: item.name || 'Sticker', url, stickerType, width, height, isFavorite };
}

const toDynamic = (sticker: DynamicSticker): DynamicStickerItem => ({
  id: sticker.id,
  name: sticker.sticker_name,
  description: sticker.description,
  type: sticker.sticker_type,
  iconUrl: sticker.icon_url,
});

/** Where a list comes from: a tab, or one pack. */
export type StickerSource =
  { kind: 'library' } | { kind: 'uploads' } | { kind: 'favorites' } | { kind: 'pack'; id: string };

/**
 * One page of a sticker list, searched (docs/editor.md "Server sync"). The Library tab's answer
 * also lists the dynamic stickers (`dynamic`).
 * @throws {ApiError} for a failed call (404 for a removed pack).
 */
export async function fetchStickers(
  source: StickerSource,
  search: string,
  page: number,
  signal?: AbortSignal,
): Promise<Paged<StickerItem> & { dynamic: DynamicStickerItem[] }> {
  const input = { query: { page }, body: { search }, signal };
  switch (source.kind) {
    case 'library': {
      const answer = await call('POST /getStickers', input);
      return { ...pagedOf(answer, toStickerItem), dynamic: answer.dynamic.map(toDynamic) };
    }
    case 'pack': {
      const body = { id: source.id, search };
      const answer = await call('POST /getPacksStickers', { ...input, body });
      return { ...pagedOf(answer, toStickerItem), dynamic: [] };
    }
    case 'uploads':
      return { ...pagedOf(await call('POST /getUploads', input), toStickerItem), dynamic: [] };
    case 'favorites':
      return { ...pagedOf(await call('POST /getFavorites', input), toStickerItem), dynamic: [] };
  }
}

/**
 * `POST /addToFavorite`: sets an item's favourite state.
 * @returns the state the server kept.
 */
export async function setFavorite(item: StickerItem, isFavorite: boolean): Promise<boolean> {
  const answer = await call('POST /addToFavorite', {
    body: { id: item.id, type: item.type, is_favorite: isFavorite },
  });
  return answer.is_favorite;
}

/** `POST /deleteUploadSticker`: removes one of the team's uploaded stickers. */
export async function deleteUploadedSticker(id: string): Promise<void> {
  await call('POST /deleteUploadSticker', { body: { id } });
}

/**
 * `POST /image` with `type=asIcon`: uploads a sticker image for the team.
 * @returns the sticker, and `notice`: what a bound cut of an animated GIF ("Kept the first 500
 *   of 800 frames: …", docs/editor.md "Animated GIF stickers"), else null.
 * @throws {ApiError} 422 with the server's message for a refused file.
 */
export async function uploadSticker(
  file: File,
  onProgress: (progress: UploadProgress) => void,
): Promise<{ item: StickerItem; notice: string | null }> {
  const form = new FormData();
  form.append('type', 'asIcon');
  form.append('image', file);
  const answer = await apiUpload<UploadAnswer>('/image', form, onProgress);
  if (!('sticker' in answer)) throw new ApiError(200, 'The upload answered without a sticker.');
  return { item: toStickerItem(answer.sticker), notice: answer.notice };
}
