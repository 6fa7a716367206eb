/**
 * `POST /saveCroppedImage` (docs/adr/0019-design-api-shapes.md "Design API shapes": "Cropped image:
 * multipart with image (png) and pic_snippet_id -> cropped_image_id"): the editor's crop of a
 * design's base photo, stored as a new image the design can then use (`PUT …/saveImageId`).
 *
 * Nothing is stored as sent (functions/lib/uploads.ts): the magic bytes must say PNG, sharp
 * reads it with the pixel limit, and it is re-encoded (metadata dropped) into the assets bucket
 * under `files/crops/{teamId}/`, with a `LibraryImage` item of scope `crops:{teamId}`.
 */
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { db } from '#lib/db/index.ts';
import { validationFailed } from '#lib/errors.ts';
import { MAX_INPUT_PIXELS, readImageFile, storeUserFile } from '#lib/uploads.ts';
import { cropScope } from './base-images.ts';
import { loadDesign } from './store.ts';

/** Messages of the call (the spec gives none). */
export const CROP_MESSAGES = {
  missing: 'Please choose an image to upload.',
  refused: 'The image must be a PNG image.',
  design: 'The pic snippet id field is required.',
} as const;

/**
 * Stores a cropped image of a design of the caller's team.
 * @param teamId the caller's current team.
 * @param body the parsed multipart body: `image` (a PNG file) and `pic_snippet_id`.
 * @returns the new image's id, key and size in px.
 * @throws AppError 422 (`image`: missing, not a PNG by its magic bytes, unreadable or over the
 *   pixel limit; `pic_snippet_id`: missing), 404 when the design is not the team's.
 */
export async function saveCroppedImage(
  teamId: string | undefined,
  body: unknown,
): Promise<{ imageId: string; key: string; width: number; height: number }> {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const designId = typeof fields.pic_snippet_id === 'string' ? fields.pic_snippet_id.trim() : '';
  if (!designId) throw validationFailed({ pic_snippet_id: [CROP_MESSAGES.design] });
  const design = await loadDesign(teamId, designId);
  const image = await readImageFile(body, 'image', CROP_MESSAGES);
  if (image.mime !== 'image/png') throw validationFailed({ image: [CROP_MESSAGES.refused] });
  const png = await sharp(image.bytes, { limitInputPixels: MAX_INPUT_PIXELS })
    .png({ compressionLevel: 6 })
    .toBuffer();
  const { key } = await storeUserFile(`crops/${design.teamId}`, png, 'image/png', 'png');
  const imageId = `crop-${randomUUID()}`;
  await db()
    .LibraryImage.put({
      imageId,
      scope: cropScope(design.teamId),
      key,
      thumbKey: key,
      contentType: 'image/png',
      width: image.width,
      height: image.height,
      bytes: png.length,
      title: `Cropped image of ${design.title}`.slice(0, 255),
    })
    .go();
  return { imageId, key, width: image.width, height: image.height };
}
