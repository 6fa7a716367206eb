/**
 * A team's own images (docs/adr/0017-user-files.md "User files" `POST /image`, `GET /getImages`,
 * `DELETE /deleteImage`, `GET /image/{id}`; docs/editor.md "Editing rules" upload rules;
 * docs/security.md "Uploaded files"). Uploads belong to the uploader's current team (`LibraryImage`
 * scope = team id), so everyone designing for the team can use them (docs/adr/0017-user-files.md
 * "User files").
 */
import { randomUUID } from 'node:crypto';
import { DeleteObjectsCommand } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { s3Client } from '#lib/clients.ts';
import { config } from '#lib/config.ts';
import { db } from '#lib/db/index.ts';
import { invalidatePaths } from '#lib/cdn.ts';
import { conflict, notFound } from '#lib/errors.ts';
import { MAX_INPUT_PIXELS, readImageFile, storeUserFile, withdrawUserFile } from '#lib/uploads.ts';
import { designsUsingFile, usedByMessage } from '#functions/designs/usage.ts';

/** docs/editor.md "Editing rules"/docs/editor.md "Messages": the message for a file whose extension is not allowed. */
export const BAD_EXTENSION = 'Allowed extensions are: .jpg, .jpeg, .bmp, .gif, .png';

/** docs/editor.md "Editing rules" extensions (the reading with webp). */
export const IMAGE_EXTENSIONS = /\.(jpe?g|bmp|webp|gif|png)$/i;

export const UPLOAD_MESSAGES = {
  missing: 'The image field is required.',
  refused: 'The image could not be read: it is not a valid JPG, PNG, GIF, WebP or BMP file.',
};

/** Thumbnail width, px (the pickers show them at up to 200 px, twice for 2x screens). */
export const THUMB_WIDTH = 400;

/**
 * Re-encodes an accepted upload: metadata dropped, EXIF orientation applied (stills), the
 * format kept where browsers show it (JPEG, PNG, WebP, animated GIF), BMP made PNG.
 * @returns the bytes, their MIME type and the file extension.
 */
async function reencode(bytes: Buffer, mime: string) {
  const input = { limitInputPixels: MAX_INPUT_PIXELS };
  switch (mime) {
    case 'image/jpeg':
      return {
        bytes: await sharp(bytes, input).rotate().jpeg({ quality: 90, mozjpeg: true }).toBuffer(),
        mime,
        ext: 'jpg',
      };
    case 'image/webp':
      return {
        bytes: await sharp(bytes, { ...input, animated: true })
          .webp({ quality: 90 })
          .toBuffer(),
        mime,
        ext: 'webp',
      };
    case 'image/gif':
      return {
        bytes: await sharp(bytes, { ...input, animated: true })
          .gif()
          .toBuffer(),
        mime,
        ext: 'gif',
      };
    default:
      return {
        bytes: await sharp(bytes, input).rotate().png().toBuffer(),
        mime: 'image/png',
        ext: 'png',
      };
  }
}

/**
 * Stores an upload for a team: checks it (extension, magic bytes, 40 MP, decodable), re-encodes
 * it, makes a 400 px JPEG thumbnail, writes both to S3 and then the `LibraryImage` item. If the
 * item write fails the files are deleted, so a refused or failed upload leaves nothing.
 * @param body the multipart body with the file in `image`.
 * @param credit optional title and attribution (an imported stock photo, functions/images/stock.ts);
 *   by default the title is the file name without its extension.
 * @returns the new image record.
 * @throws AppError 422 `{ image: [message] }` for a missing or refused file.
 */
export async function storeUpload(
  teamId: string,
  body: unknown,
  credit: { title?: string; author?: string; authorUrl?: string; licence?: string } = {},
) {
  const file = await readImageFile(body, 'image', UPLOAD_MESSAGES, {
    allowed: IMAGE_EXTENSIONS,
    message: BAD_EXTENSION,
  });
  const stored = await reencode(file.bytes, file.mime);
  const thumb = await sharp(stored.bytes, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize({ width: THUMB_WIDTH, withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 80, mozjpeg: true })
    .toBuffer();
  const meta = await sharp(stored.bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  const folder = `uploads/${teamId}`;
  const original = await storeUserFile(folder, stored.bytes, stored.mime, stored.ext);
  const thumbnail = await storeUserFile(folder, thumb, 'image/jpeg', 'jpg');
  const title = credit.title ?? (file.filename.replace(/\.[^.]+$/, '').slice(0, 255) || 'Upload');
  try {
    return (
      await db()
        .LibraryImage.create({
          imageId: `upload-${randomUUID()}`,
          scope: teamId,
          key: original.key,
          thumbKey: thumbnail.key,
          contentType: stored.mime,
          width: meta.width ?? file.width,
          height: meta.pageHeight ?? meta.height ?? file.height,
          bytes: stored.bytes.length,
          title,
          author: credit.author,
          authorUrl: credit.authorUrl,
          licence: credit.licence,
        })
        .go()
    ).data;
  } catch (error) {
    await deleteFiles([original.key, thumbnail.key]);
    throw error;
  }
}

async function deleteFiles(keys: string[]): Promise<void> {
  await s3Client()
    .send(
      new DeleteObjectsCommand({
        Bucket: config().ASSETS_BUCKET,
        Delete: { Objects: keys.map((Key) => ({ Key })) },
      }),
    )
    .catch(() => undefined);
}

/**
 * An image the team may see: its own upload, its own cropped image (`crops:{teamId}`, made by
 * `POST /saveCroppedImage`; the editor reads its key here) or the global library.
 * @throws AppError 404 for anything else (another team's image answers like a missing one).
 */
export async function visibleImage(teamId: string, imageId: string) {
  const image = (await db().LibraryImage.get({ imageId }).go()).data;
  const scopes = ['global', teamId, `crops:${teamId}`];
  if (!image || !scopes.includes(image.scope)) {
    throw notFound('Image not found.');
  }
  return image;
}

/**
 * Removes one of the team's uploads (docs/security.md "Deleted uploads"): refused while one of
 * the team's designs draws it; otherwise the item and the thumbnail go and the original is
 * withdrawn from `/files/…` (tagged, dropped from the CDN). The original's bytes stay for the
 * render service, so designs made from the team's templates and published versions keep
 * drawing it.
 * @throws AppError 404 when the image is not the team's upload (global images included); 409
 *   naming the designs that use it.
 */
export async function deleteUpload(teamId: string, imageId: string): Promise<void> {
  const image = (await db().LibraryImage.get({ imageId }).go()).data;
  if (!image || image.scope !== teamId) throw notFound('Image not found.');
  const { uses, tooMany } = await designsUsingFile(teamId, image.key);
  if (uses.length > 0 || tooMany) {
    throw conflict(usedByMessage('image', uses, tooMany), { designs: uses.slice(0, 20) });
  }
  await withdrawUserFile(image.key);
  await db().LibraryImage.delete({ imageId }).go();
  await deleteFiles([image.thumbKey]);
  await invalidatePaths([`/${image.thumbKey}`], imageId);
}
