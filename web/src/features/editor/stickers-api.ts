/**
 * The sticker library calls of the editor (spec 000 §7 "Images, stickers, fonts": POST
 * /getStickers, /getFavorites, /getUploads (optional search body, ?page=), /getPacksStickers
 * (body id), /addToFavorite, /deleteUploadSticker; POST /image with type=asIcon). Shapes from
 * functions/stickers/views.ts and functions/stickers/dynamic.ts.
 */
import { api, apiUpload, ApiError, type UploadProgress } from '../../api/client.ts';
import type { DynamicStickerType } from '#shared/design.ts';
import { pagedOf, type Paged } from './images-api.ts';

/** A library item: a pack, a pack's sticker (`icon`) or an upload (`custom_sticker`). */
export interface StickerItem {
  id: string;
  type: 'pack' | 'icon' | 'custom_sticker';
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

/** A dynamic sticker the Library tab offers (spec 000 §3 Dynamic sticker). */
export interface DynamicStickerItem {
  id: string;
  name: string;
  description: string;
  type: DynamicStickerType;
  iconUrl: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const DYNAMIC_TYPES = ['qrCode', 'gravatar', 'hostedImage', 'screenShot'] as const;

/** A library row of an answer, or null. */
export function toStickerItem(row: unknown): StickerItem | null {
  if (!isRecord(row) || typeof row.id !== 'string') return null;
  const type = row.type;
  if (type !== 'pack' && type !== 'icon' && type !== 'custom_sticker') return null;
  return {
    id: row.id,
    type,
    name: text(row.pack_name) || text(row.name) || text(row.image_name) || 'Sticker',
    iconUrl: text(row.icon_url) || text(row.cover_image),
    url: text(row.url),
    stickerType: row.sticker_type === 'upload' ? 'upload' : 'plain',
    width: typeof row.width === 'number' ? row.width : 512,
    height: typeof row.height === 'number' ? row.height : 512,
    isFavorite: row.is_favorite === true,
  };
}

function toDynamic(row: unknown): DynamicStickerItem | null {
  if (!isRecord(row) || typeof row.id !== 'string') return null;
  const type = DYNAMIC_TYPES.find((t) => t === row.sticker_type);
  if (!type) return null;
  return {
    id: row.id,
    name: text(row.sticker_name),
    description: text(row.description),
    type,
    iconUrl: text(row.icon_url),
  };
}

/** Where a list comes from: a tab, or one pack. */
export type StickerSource =
  { kind: 'library' } | { kind: 'uploads' } | { kind: 'favorites' } | { kind: 'pack'; id: string };

const PATHS = {
  library: '/getStickers',
  uploads: '/getUploads',
  favorites: '/getFavorites',
  pack: '/getPacksStickers',
} as const;

/**
 * One page of a sticker list, searched (spec 000 §7). The Library tab's answer also lists the
 * dynamic stickers (`dynamic`).
 * @throws {ApiError} for a failed call (404 for a removed pack).
 */
export async function fetchStickers(
  source: StickerSource,
  search: string,
  page: number,
  signal?: AbortSignal,
): Promise<Paged<StickerItem> & { dynamic: DynamicStickerItem[] }> {
  const body = await api<unknown>(
    'POST',
    `${PATHS[source.kind]}?page=${page}`,
    { search, ...(source.kind === 'pack' ? { id: source.id } : {}) },
    { signal },
  );
  const paged = pagedOf(body, page, toStickerItem);
  const dynamic =
    isRecord(body) && Array.isArray(body.dynamic)
      ? body.dynamic.map(toDynamic).filter((d): d is DynamicStickerItem => d !== null)
      : [];
  return { ...paged, dynamic };
}

/**
 * `POST /addToFavorite`: sets an item's favourite state.
 * @returns the state the server kept.
 */
export async function setFavorite(item: StickerItem, isFavorite: boolean): Promise<boolean> {
  const body = await api<unknown>('POST', '/addToFavorite', {
    id: item.id,
    type: item.type,
    is_favorite: isFavorite,
  });
  return isRecord(body) && typeof body.is_favorite === 'boolean' ? body.is_favorite : isFavorite;
}

/** `POST /deleteUploadSticker`: removes one of the team's uploaded stickers. */
export async function deleteUploadedSticker(id: string): Promise<void> {
  await api('POST', '/deleteUploadSticker', { id });
}

/**
 * `POST /image` with `type=asIcon`: uploads a sticker image for the team.
 * @throws {ApiError} 422 with the server's message for a refused file.
 */
export async function uploadSticker(
  file: File,
  onProgress: (progress: UploadProgress) => void,
): Promise<StickerItem> {
  const form = new FormData();
  form.append('type', 'asIcon');
  form.append('image', file);
  const body = await apiUpload<unknown>('/image', form, onProgress);
  const item = isRecord(body) ? toStickerItem(body.sticker) : null;
  if (!item) throw new ApiError(200, 'The upload answered without a sticker.');
  return item;
}
