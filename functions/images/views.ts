/**
 * The API shape of a library image (docs/adr/0017-user-files.md "User files" Image: id, thumb,
 * attribution).
 */
import type { EntityItem } from 'electrodb';
import type { Entities } from '#lib/db/entities.ts';
import type { Image } from '#shared/contract/images.ts';

type ImageRecord = EntityItem<Entities['LibraryImage']>;

/** Same-origin URL of an assets-bucket key under `files/` (served at `/files/*`), else null. */
export const servedUrl = (key: string): string | null =>
  key.startsWith('files/') ? `/${key}` : null;

/**
 * An image as the pickers read it: `thumb` (400 px wide JPEG) and `url` (the original) are
 * same-origin paths; sizes in px; `author`, `author_url` and `licence` credit the photographer
 * when known (library photos, imported stock photos).
 */
export function imageView(image: ImageRecord): Image {
  return {
    id: image.imageId,
    title: image.title,
    thumb: servedUrl(image.thumbKey),
    url: servedUrl(image.key),
    width: image.width,
    height: image.height,
    author: image.author ?? null,
    author_url: image.authorUrl ?? null,
    licence: image.licence ?? null,
    created_at: image.createdAt ?? null,
  };
}
export type ImageView = Image;
