/**
 * Where a design's base photo comes from (docs/editor.md "Architecture": "own upload, a global
 * library, or a stock-photo search"). One lookup for creating a design, replacing its photo and
 * saving an image id, so each source is added in one place:
 * - the global library (scope `global`, installed from infra/seed/photos) and a team's own
 *   uploads (scope: the team id), as `LibraryImage` items;
 * - stock photos: imported into the team's uploads first (`POST /api/search-images/import`), so
 *   they are the team's own images;
 * - cropped images (`POST /saveCroppedImage`): `LibraryImage` items of scope `crops:{teamId}`,
 *   kept out of the team's own image list.
 */
import { db } from '#lib/db/index.ts';
import { validationFailed } from '#lib/errors.ts';

/** A base photo a design may use: its id, its key in the assets bucket, its size in px. */
export interface BaseImage {
  imageId: string;
  key: string;
  width: number;
  height: number;
  title: string;
}

/** The scope of a team's cropped images (kept apart from its uploads). */
export const cropScope = (teamId: string): string => `crops:${teamId}`;

/**
 * Finds an image the team may use as a base photo.
 * @param teamId the caller's current team.
 * @param imageId the image id the client sent.
 * @param field the request field named in the 422 answer (`image_id`, `imageId`).
 * @throws AppError 422 `{ [field]: ['The selected image is invalid.'] }` when there is no such
 *   image or it belongs to another team (the same answer, so ids do not leak).
 */
export async function findBaseImage(
  teamId: string,
  imageId: string,
  field: string,
): Promise<BaseImage> {
  const image = imageId ? (await db().LibraryImage.get({ imageId }).go()).data : null;
  const usable =
    image &&
    (image.scope === 'global' || image.scope === teamId || image.scope === cropScope(teamId));
  if (!image || !usable) throw validationFailed({ [field]: ['The selected image is invalid.'] });
  return {
    imageId: image.imageId,
    key: image.key,
    width: image.width,
    height: image.height,
    title: image.title,
  };
}
