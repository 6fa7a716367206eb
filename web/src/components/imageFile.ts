/**
 * The client-side check of an image chosen for upload (a profile or team photo, the team's
 * watermark): the extensions and the size the server accepts. The server checks the bytes
 * (functions/lib/uploads.ts); this only spares a round trip and says what is wrong at once.
 */

/** The `accept` of the file input: the extensions and types the server takes. */
export const IMAGE_FILE_ACCEPT =
  '.jpg,.jpeg,.png,.gif,.webp,.bmp,image/jpeg,image/png,image/gif,image/webp,image/bmp';
const ALLOWED = /\.(?:jpe?g|png|gif|webp|bmp)$/i;

/** The server's cap (functions/lib/uploads.ts MAX_IMAGE_BYTES), bytes. */
export const MAX_IMAGE_FILE_BYTES = 8 * 1024 * 1024;

/**
 * What is wrong with `file` for an image upload, or null when it may go.
 * @param noun what the file is, for the size message ("photo", "watermark").
 */
export function imageFileProblem(file: Pick<File, 'name' | 'size'>, noun: string): string | null {
  if (!ALLOWED.test(file.name)) return 'Choose a JPG, PNG, GIF, WebP or BMP image.';
  if (file.size > MAX_IMAGE_FILE_BYTES) return `The ${noun} may not be greater than 8 MB.`;
  return null;
}
