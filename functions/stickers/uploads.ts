/**
 * A team's own stickers (docs/adr/0021-sticker-library.md "Sticker library" `POST /image` with
 * `type=asIcon`, `POST /getUploads`, `POST /deleteUploadSticker`; docs/adr/0021-sticker-library.md
 * "Sticker library" Upload: image_name, icon_url; docs/editor.md "Editing rules" upload rules).
 * Uploads belong to the uploader's current team, like image uploads
 * (docs/adr/0021-sticker-library.md "Sticker library").
 *
 * The file goes through the one checked upload path (functions/lib/uploads.ts: the extensions of
 * docs/editor.md "Editing rules", magic bytes, 8 MB, 40 MP, decodable) and is re-encoded as a PNG
 * that fits in 512 px (docs/editor.md "Constants"), with a 160 px thumbnail for the panel. A
 * refused file stores nothing.
 */
import { randomUUID } from 'node:crypto';
import { db } from '#lib/db/index.ts';
import { conflict, notFound, validationFailed } from '#lib/errors.ts';
import { deleteUserFile, readImageFile, storeUserFile, withdrawUserFile } from '#lib/uploads.ts';
import { designsUsingFile, usedByMessage } from '#functions/designs/usage.ts';
import { BAD_EXTENSION, IMAGE_EXTENSIONS, UPLOAD_MESSAGES } from '#functions/images/library.ts';
import {
  stickerFromRaster,
  stickerGifFromRaster,
  stickerGifNotice,
  stickerThumb,
} from './images.ts';
import { STICKER_NOT_FOUND } from './library.ts';
import { uploadView, type UploadView } from './views.ts';

/** Longest `image_name` kept, characters (the file name without its extension). */
export const MAX_IMAGE_NAME_LENGTH = 255;

/**
 * Stores a sticker upload for the team: checks the multipart field `image`, fits it in 512 px
 * as PNG (alpha kept, metadata dropped, first frame of an animation), stores it and a 160 px
 * thumbnail under `files/stickers/uploads/{teamId}/`, and for an animated GIF its animated
 * original fitted the same way (`gifKey`, bounded: images.ts `stickerGifFromRaster`,
 * docs/editor.md "Animated GIF stickers"), then writes the `StickerUpload` item. If a later step
 * fails the files already stored are deleted.
 * @param body the parsed multipart body of `POST /image`.
 * @returns the upload as the My Uploads tab lists it (`type: 'custom_sticker'`), and `notice`:
 *   what a bound cut of an animated GIF ("Kept the first 500 of 800 frames: …"), else null.
 * @throws AppError 422 `{ image: [message] }` for a missing file, a refused extension (docs/editor.md "Messages": "Allowed extensions are: .jpg, .jpeg, .bmp, .gif, .png"), a file over 8 MB, or bytes that
 *   are not a readable JPG, PNG, GIF, WebP or BMP within 40 MP.
 */
export async function storeStickerUpload(
  user: { userId: string; teamId: string },
  body: unknown,
): Promise<{ sticker: UploadView; notice: string | null }> {
  const file = await readImageFile(body, 'image', UPLOAD_MESSAGES, {
    allowed: IMAGE_EXTENSIONS,
    message: BAD_EXTENSION,
  });
  let sticker;
  let thumb;
  let animation;
  try {
    sticker = await stickerFromRaster(file.bytes);
    thumb = await stickerThumb(sticker.bytes);
    animation = await stickerGifFromRaster(file.bytes, sticker);
  } catch {
    throw validationFailed({ image: [UPLOAD_MESSAGES.refused] });
  }
  const folder = `stickers/uploads/${user.teamId}`;
  const stored: string[] = [];
  try {
    const original = await storeUserFile(folder, sticker.bytes, 'image/png', 'png');
    stored.push(original.url);
    const thumbnail = await storeUserFile(folder, thumb, 'image/png', 'png');
    stored.push(thumbnail.url);
    const gif = animation?.gif;
    const animated = gif && (await storeUserFile(folder, gif.bytes, 'image/gif', 'gif'));
    if (animated) stored.push(animated.url);
    const imageName =
      file.filename
        .replace(/\.[^.]+$/, '')
        .trim()
        .slice(0, MAX_IMAGE_NAME_LENGTH) || 'Sticker';
    const record = await db()
      .StickerUpload.create({
        stickerId: `custom-${randomUUID()}`,
        teamId: user.teamId,
        imageName,
        key: original.key,
        thumbKey: thumbnail.key,
        ...(animated ? { gifKey: animated.key } : {}),
        width: sticker.width,
        height: sticker.height,
        bytes: sticker.bytes.length,
        uploadedBy: user.userId,
      })
      .go();
    return { sticker: uploadView(record.data, false), notice: stickerGifNotice(animation) };
  } catch (error) {
    await Promise.all(stored.map(deleteUserFile));
    throw error;
  }
}

/**
 * Removes one of the team's sticker uploads from My Uploads (docs/security.md "Deleted
 * uploads"): refused while one of the team's designs draws it; otherwise the item and its
 * thumbnail go and the 512 px image is withdrawn from `/files/…` (its bytes stay for renders of
 * designs made from the team's templates and of published versions). Favourites of it disappear
 * from lists.
 * @throws AppError 404 `Sticker not found.` when it is not an upload of this team; 409 naming
 *   the designs that use it.
 */
export async function deleteStickerUpload(teamId: string, stickerId: string): Promise<void> {
  const upload = (await db().StickerUpload.get({ stickerId }).go()).data;
  if (!upload || upload.teamId !== teamId) throw notFound(STICKER_NOT_FOUND.sticker);
  const { uses, tooMany } = await designsUsingFile(teamId, upload.gifKey ?? upload.key);
  if (uses.length > 0 || tooMany) {
    throw conflict(usedByMessage('sticker', uses, tooMany), { designs: uses.slice(0, 20) });
  }
  await withdrawUserFile(upload.key);
  if (upload.gifKey) await withdrawUserFile(upload.gifKey);
  await db().StickerUpload.delete({ stickerId }).go();
  await deleteUserFile(`/${upload.thumbKey}`);
}
