/**
 * The API shapes of the sticker library (docs/adr/0021-sticker-library.md "Sticker library":
 * "Sticker library items": id, icon_url, is_favorite, pack_id, type; "Sticker pack": id, pack_name,
 * cover_image, is_favorite; "Upload": image_name, icon_url). Every item also says how to place it
 * in a design: `url` is the value of the design sticker's `url` (an assets-bucket key,
 * shared/design.ts `StickerSchema`), with `sticker_type` its `stickerType` and `width`/`height` its
 * intrinsic size in px.
 *
 * Image addresses: `icon_url` and `cover_image` are same-origin paths (`/files/…`) of what the
 * panel shows: a 160 px thumbnail of an upload, the 512 px image itself for a pack's sticker
 * (flat artwork of about 16 kB). The image drawn is served at `/${url}`.
 */
import type { EntityItem } from 'electrodb';
import type { Entities } from '#lib/db/entities.ts';
import type { IconItem, PackItem, UploadSticker } from '#shared/contract/stickers.ts';

export type PackRecord = EntityItem<Entities['StickerPack']>;
export type StickerRecord = EntityItem<Entities['Sticker']>;
export type UploadRecord = EntityItem<Entities['StickerUpload']>;

/** The kinds a user can mark as favourite (shared/contract/stickers.ts). */
export type { FavoriteKind } from '#shared/contract/stickers.ts';

const served = (key: string) => `/${key}`;

/** A pack as a library item and as the spec's Sticker pack. */
export function packView(pack: PackRecord, isFavorite: boolean): PackItem {
  const cover = served(pack.coverKey);
  return {
    id: pack.packId,
    type: 'pack',
    pack_id: pack.packId,
    pack_name: pack.name,
    cover_image: cover,
    icon_url: cover,
    is_favorite: isFavorite,
    sticker_count: pack.stickerCount,
    attribution: pack.attribution,
  };
}
export type PackView = PackItem;

/** A sticker of a pack (type `icon`), drawn as a plain sticker. */
export function iconView(sticker: StickerRecord, isFavorite: boolean): IconItem {
  return {
    id: sticker.stickerId,
    type: 'icon',
    pack_id: sticker.packId,
    name: sticker.name,
    icon_url: served(sticker.thumbKey),
    url: sticker.key,
    sticker_type: 'plain',
    width: sticker.width,
    height: sticker.height,
    is_favorite: isFavorite,
  };
}
export type IconView = IconItem;

/** A team's uploaded sticker (type `custom_sticker`, docs/adr/0021-sticker-library.md "Sticker library" Upload), drawn as an upload. */
export function uploadView(upload: UploadRecord, isFavorite: boolean): UploadSticker {
  return {
    id: upload.stickerId,
    type: 'custom_sticker',
    pack_id: null,
    image_name: upload.imageName,
    name: upload.imageName,
    icon_url: served(upload.thumbKey),
    // An animated upload is placed as its GIF, so the design can play it and save a frame.
    url: upload.gifKey ?? upload.key,
    sticker_type: 'upload',
    width: upload.width,
    height: upload.height,
    is_favorite: isFavorite,
    created_at: upload.createdAt ?? null,
  };
}
export type UploadView = UploadSticker;

export type LibraryItem = PackView | IconView | UploadView;
