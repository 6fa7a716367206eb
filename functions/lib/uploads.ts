/**
 * Image uploads: one checked path from a multipart file to a stored, re-encoded image
 * (docs/security.md "Uploaded files": "uploads").
 *
 * Nothing the user sent is stored as sent: the magic bytes must name an allowed raster type
 * (`file-type`, never the file name or the browser's MIME type), sharp reads the header with a
 * pixel limit before decoding, and the image is re-encoded, which drops EXIF/XMP/ICC metadata
 * (GPS positions included). User files live under `files/` in the assets bucket with a random
 * key and are served at `/files/{key}` with `nosniff` and the stored type (local gateway, and
 * the `/files/*` CloudFront behaviour in AWS).
 */
import { randomUUID } from 'node:crypto';
import {
  DeleteObjectCommand,
  GetObjectTaggingCommand,
  PutObjectCommand,
  PutObjectTaggingCommand,
} from '@aws-sdk/client-s3';
import { fileTypeFromBuffer } from 'file-type';
import { decode as decodeBmp } from 'bmp-ts';
import sharp from 'sharp';
import { WITHDRAWN_TAG } from '#shared/security.ts';
import { invalidatePaths } from './cdn.ts';
import { s3Client } from './clients.ts';
import { config } from './config.ts';
import { validationFailed } from './errors.ts';

/** One file of a multipart body as @middy/http-multipart-body-parser gives it. */
export interface MultipartFile {
  filename: string;
  mimetype: string;
  encoding: string;
  content: Buffer;
}

/** Raster types accepted for images (docs/security.md "Uploaded files": jpg, jpeg, bmp, webp, gif, png). */
export const IMAGE_MIME_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/bmp',
] as const;

/** Largest image sharp will decode: about 40 megapixels (docs/security.md "Uploaded files"). */
export const MAX_INPUT_PIXELS = 40_000_000;

/**
 * Largest upload accepted, bytes: under API Gateway's 10 MB payload limit (multipart adds a
 * little), so the handler's message, not a bare 413, is what a too-large file gets.
 */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;

/** Prefix of user files in the assets bucket; the same path serves them at `/files/…`. */
export const USER_FILES_PREFIX = 'files/';

const isFile = (value: unknown): value is MultipartFile =>
  typeof value === 'object' &&
  value !== null &&
  Buffer.isBuffer((value as { content?: unknown }).content);

/**
 * Takes the file named `field` from a parsed multipart body and checks it is a readable raster
 * image within the limits.
 * @param body the parsed multipart body (`event.body` after the chain).
 * @param field the form field, e.g. `photo`.
 * @param messages the spec's messages for a missing file and a refused one.
 * @returns the bytes (a BMP already converted to PNG), their MIME type, the size in px and the
 *   sent file name.
 * @throws AppError 422 with `{ [field]: [message] }` when the file is missing, empty, too large,
 *   not an allowed type by its magic bytes, or not decodable within {@link MAX_INPUT_PIXELS}.
 */
export async function readImageFile(
  body: unknown,
  field: string,
  messages: { missing: string; refused: string },
  /** When given, the file name must match first (docs/security.md "Uploaded files" lists extensions), else `message`. */
  extensions?: { allowed: RegExp; message: string },
): Promise<{ bytes: Buffer; mime: string; width: number; height: number; filename: string }> {
  const file =
    typeof body === 'object' && body !== null
      ? (body as Record<string, unknown>)[field]
      : undefined;
  const refuse = (message: string) => validationFailed({ [field]: [message] });
  if (!isFile(file) || file.content.length === 0) throw refuse(messages.missing);
  if (extensions && !extensions.allowed.test(file.filename)) throw refuse(extensions.message);
  if (file.content.length > MAX_IMAGE_BYTES) {
    throw refuse(`The ${field} may not be greater than ${MAX_IMAGE_BYTES / 1024 / 1024} MB.`);
  }
  const type = await fileTypeFromBuffer(file.content);
  if (!type || !(IMAGE_MIME_TYPES as readonly string[]).includes(type.mime)) {
    throw refuse(messages.refused);
  }
  try {
    // libvips has no BMP loader: BMP becomes PNG first (dimensions checked before decoding).
    const bytes = type.mime === 'image/bmp' ? await bmpToPng(file.content) : file.content;
    const mime = type.mime === 'image/bmp' ? 'image/png' : type.mime;
    const meta = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    if (!meta.width || !meta.height) throw new Error('no size');
    // Decode once to prove the pixel data is readable, not only the header.
    await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).resize(8, 8).raw().toBuffer();
    return {
      bytes,
      mime,
      width: meta.width,
      height: meta.height,
      filename: file.filename,
    };
  } catch {
    throw refuse(messages.refused);
  }
}

/**
 * Decodes a BMP (docs/security.md "Uploaded files" allows it; libvips cannot read it) with `bmp-ts`
 * into a PNG.
 * @throws Error when the header's size is beyond {@link MAX_INPUT_PIXELS} (checked before the
 *   pixels are decoded) or the file does not decode.
 */
async function bmpToPng(bytes: Buffer): Promise<Buffer> {
  const width = Math.abs(bytes.readInt32LE(18));
  const height = Math.abs(bytes.readInt32LE(22));
  if (width === 0 || height === 0 || width * height > MAX_INPUT_PIXELS) {
    throw new Error('BMP too large');
  }
  const bmp = decodeBmp(bytes, { toRGBA: true });
  return sharp(bmp.data, { raw: { width: bmp.width, height: bmp.height, channels: 4 } })
    .png()
    .toBuffer();
}

/**
 * Makes a square avatar for a profile or team photo: centre-cropped, `size` px, JPEG with the
 * metadata dropped (sharp keeps none unless asked), EXIF orientation applied first.
 * @param size edge length, px (default 256: twice the largest place it shows, for 2x screens).
 */
export async function squareAvatar(bytes: Buffer, size = 256): Promise<Buffer> {
  return sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize(size, size, { fit: 'cover', position: 'attention' })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 85, mozjpeg: true })
    .toBuffer();
}

/**
 * Stores a user file under a random key below `files/{folder}/` in the assets bucket, cached as
 * immutable (a changed photo gets a new key).
 * @returns the key and the same-origin URL that serves it (`/files/…`).
 */
export async function storeUserFile(
  folder: string,
  bytes: Buffer,
  contentType: string,
  extension: string,
): Promise<{ key: string; url: string }> {
  const key = `${USER_FILES_PREFIX}${folder}/${randomUUID()}.${extension}`;
  await s3Client().send(
    new PutObjectCommand({
      Bucket: config().ASSETS_BUCKET,
      Key: key,
      Body: bytes,
      ContentType: contentType,
      CacheControl: 'public, max-age=31536000, immutable',
    }),
  );
  return { key, url: `/${key}` };
}

/**
 * Deletes a user file given the URL {@link storeUserFile} returned, and drops it from the CDN's
 * edge caches; anything else (a Gravatar URL, `null`) is left alone. Best effort: a failure is
 * logged by the caller's chain, not thrown, since the new file is already in place.
 */
export async function deleteUserFile(url: string | null | undefined): Promise<void> {
  if (!url?.startsWith(`/${USER_FILES_PREFIX}`)) return;
  await s3Client()
    .send(new DeleteObjectCommand({ Bucket: config().ASSETS_BUCKET, Key: url.slice(1) }))
    .catch(() => undefined);
  await invalidatePaths([url], url.slice(url.lastIndexOf('/') + 1));
}

/**
 * Withdraws a deleted upload's original from the web: tags it {@link WITHDRAWN_TAG} and drops
 * its path from the CDN. The bytes stay for renders (a design made from a template, or a
 * published version, may still draw it: a render must never break).
 * @param key the assets-bucket key (`files/…`).
 * @throws the S3 error when the tag cannot be written: the caller must not report the file
 *   gone when it is still served.
 */
export async function withdrawUserFile(key: string): Promise<void> {
  if (!key.startsWith(USER_FILES_PREFIX)) return;
  await s3Client().send(
    new PutObjectTaggingCommand({
      Bucket: config().ASSETS_BUCKET,
      Key: key,
      Tagging: { TagSet: [{ ...WITHDRAWN_TAG }] },
    }),
  );
  await invalidatePaths([`/${key}`], key.slice(key.lastIndexOf('/') + 1));
}

/**
 * Whether a user file was withdrawn ({@link withdrawUserFile}); the local gateway's `/files/*`
 * asks this before serving, as the bucket policy does in AWS.
 * @returns false for a file without the tag; throws the S3 error (e.g. NoSuchKey) otherwise.
 */
export async function isWithdrawn(key: string): Promise<boolean> {
  const tags = await s3Client().send(
    new GetObjectTaggingCommand({ Bucket: config().ASSETS_BUCKET, Key: key }),
  );
  return (tags.TagSet ?? []).some(
    (t) => t.Key === WITHDRAWN_TAG.Key && t.Value === WITHDRAWN_TAG.Value,
  );
}

/** docs/accounts.md "Validation rules": "Photo upload needs a file chosen", and the refusal for anything not an image. */
export const PHOTO_MESSAGES = {
  missing: 'Please choose a photo to upload.',
  refused: 'The photo must be a JPG, PNG, GIF, WebP or BMP image.',
};

/**
 * The whole photo path for profile and team photos: checks the multipart field `photo`, makes
 * the square avatar, stores it, and returns its URL.
 * @throws AppError 422 `{ photo: [message] }` (see {@link readImageFile}).
 */
export async function storePhoto(body: unknown, folder: 'users' | 'teams'): Promise<string> {
  const image = await readImageFile(body, 'photo', PHOTO_MESSAGES);
  const avatar = await squareAvatar(image.bytes);
  return (await storeUserFile(folder, avatar, 'image/jpeg', 'jpg')).url;
}
