/**
 * Files that the decoders accept but the upload rules refuse (docs/security.md "Uploaded
 * files"): each is real, readable by sharp or fontkit, and carries a name the rules allow, so
 * only the magic-byte check can refuse it. A test that refuses them therefore fails when that
 * check is removed (each test file records the mutation check).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';

const require = createRequire(import.meta.url);

/** A 64x48 orange raster in the given format. */
const raster = (format: 'tiff' | 'avif') =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: '#cc8833' } })
    .toFormat(format)
    .toBuffer();

/**
 * Disguised images, each with the name it is sent under.
 * @returns `[label, bytes, file name]` rows: an SVG with a size named `.png` (sharp renders it),
 *   a TIFF and an AVIF named `.jpg` (sharp decodes both)
 */
export async function disguisedImages(): Promise<Array<[string, Buffer, string]>> {
  return [
    [
      'an SVG with a size, named .png',
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="48"><rect width="64" height="48" fill="#c83"/></svg>',
      ),
      'logo.png',
    ],
    ['a TIFF named .jpg', await raster('tiff'), 'photo.jpg'],
    ['an AVIF named .jpg', await raster('avif'), 'photo.jpg'],
  ];
}

/** The format sharp reads in `bytes`, proving the decoder would accept it. */
export async function sharpReads(bytes: Buffer): Promise<string | undefined> {
  const meta = await sharp(bytes).metadata();
  await sharp(bytes).resize(8, 8).raw().toBuffer();
  return meta.format;
}

/** A real WOFF2 font (Noto Sans Hebrew, from @fontsource), which fontkit reads. */
export function woff2Font(): Buffer {
  const root = dirname(require.resolve('@fontsource/noto-sans-hebrew/package.json'));
  return readFileSync(join(root, 'files', 'noto-sans-hebrew-hebrew-400-normal.woff2'));
}
