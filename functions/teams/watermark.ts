/**
 * A team's watermark image (docs/adr/0057-watermark.md "Watermark"): uploaded through the one
 * checked image path (functions/lib/uploads.ts `readImageFile`), stored as a PNG (transparency
 * kept) no larger than 1024 px a side, under `files/watermarks/` with a new key per upload, so its
 * URL names its version (the render cache key uses it: shared/scene/watermark.ts). A change drops
 * the CDN's copies of the renders of the team's designs that show it
 * (functions/designs/team-renders.ts).
 */
import sharp from 'sharp';
import type { TeamWatermarkImage } from '#shared/scene/watermark.ts';
import { db } from '#lib/db/index.ts';
import { notFound } from '#lib/errors.ts';
import { MAX_INPUT_PIXELS, deleteUserFile, readImageFile, storeUserFile } from '#lib/uploads.ts';
import { invalidateTeamRenders } from '#functions/designs/team-renders.ts';

/** The largest side a stored watermark keeps, px (drawn at a quarter: at most 256 px). */
export const WATERMARK_MAX_SIDE = 1024;

/** The messages of a missing or refused watermark file (field `watermark`). */
export const WATERMARK_MESSAGES = {
  missing: 'Please choose an image for the watermark.',
  refused: 'The watermark must be a JPG, PNG, GIF, WebP or BMP image.',
};

/**
 * Stores the multipart field `watermark` as the team's watermark and deletes the one it replaces.
 * GIFs keep their first frame; EXIF orientation is applied; metadata is dropped.
 * @returns the new watermark: URL and size, px.
 * @throws AppError 404 for an unknown team; 422 `{ watermark: [message] }` for a missing,
 *   too large (8 MB) or refused file (`readImageFile`).
 */
export async function setTeamWatermark(teamId: string, body: unknown): Promise<TeamWatermarkImage> {
  const team = (await db().Team.get({ teamId }).go()).data;
  if (!team) throw notFound();
  const image = await readImageFile(body, 'watermark', WATERMARK_MESSAGES);
  const { data, info } = await sharp(image.bytes, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize(WATERMARK_MAX_SIDE, WATERMARK_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
    .png({ compressionLevel: 9 })
    .toBuffer({ resolveWithObject: true });
  const { url } = await storeUserFile('watermarks', data, 'image/png', 'png');
  await db()
    .Team.patch({ teamId })
    .set({ watermarkUrl: url, watermarkWidth: info.width, watermarkHeight: info.height })
    .go();
  await deleteUserFile(team.watermarkUrl);
  await invalidateTeamRenders(teamId, 'watermarked');
  return { url, width: info.width, height: info.height };
}

/**
 * Removes the team's watermark and its file; designs that show it then show none.
 * @throws AppError 404 for an unknown team.
 */
export async function removeTeamWatermark(teamId: string): Promise<void> {
  const team = (await db().Team.get({ teamId }).go()).data;
  if (!team) throw notFound();
  if (!team.watermarkUrl) return;
  await db()
    .Team.patch({ teamId })
    .remove(['watermarkUrl', 'watermarkWidth', 'watermarkHeight'])
    .go();
  await deleteUserFile(team.watermarkUrl);
  await invalidateTeamRenders(teamId, 'watermarked');
}
