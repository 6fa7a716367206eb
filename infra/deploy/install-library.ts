/**
 * The library installer (docs/infra.md "Deploy"): puts the content every installation ships
 * where it is missing: the global image library (infra/seed/photos, with their credits), the
 * sticker packs (infra/local/seed-stickers.ts) and the hosted font files
 * (infra/local/seed-fonts.ts). `npm run deploy` runs it against the new stack with the operator's
 * credentials; the local seed runs it on every `npm start`.
 *
 * Idempotent: an item or object already there is left alone, so a second run changes nothing
 * (test/integration/library-installer.test.ts). It writes no users, teams or designs: the demo
 * data stays local (infra/local/seed.ts).
 */
import { HeadObjectCommand, NotFound, PutObjectCommand } from '@aws-sdk/client-s3';
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { s3Client } from '#lib/clients.ts';
import { config } from '#lib/config.ts';
import { db } from '#lib/db/index.ts';
import { seedHostedFonts } from '../local/seed-fonts.ts';
import { seedStickers } from '../local/seed-stickers.ts';

const PHOTOS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'seed', 'photos');

/** A photo of the global library: its key and size in px, by file name. */
export type LibraryPhotos = Map<string, { key: string; width: number; height: number }>;

/** What one run wrote (0s: everything was already there). */
export interface LibraryReport {
  /** Photos whose item or files were missing and are now written. */
  photos: number;
  /** Sticker packs written (missing or out of date). */
  stickerPacks: number;
  /** Hosted font files uploaded. */
  fontFiles: number;
}

/** Author and licence of each photo, from infra/seed/photos/LICENSES.md. */
async function photoCredits(): Promise<Map<string, { author: string; licence: string }>> {
  const text = await readFile(join(PHOTOS_DIR, 'LICENSES.md'), 'utf8');
  const credits = new Map<string, { author: string; licence: string }>();
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length >= 7 && cells[1]?.endsWith('.jpg')) {
      credits.set(cells[1], { author: cells[4] ?? '', licence: cells[5] ?? '' });
    }
  }
  return credits;
}

const titleOf = (file: string) =>
  file
    .replace(/\.jpg$/, '')
    .split('-')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');

async function objectExists(key: string): Promise<boolean> {
  try {
    await s3Client().send(new HeadObjectCommand({ Bucket: config().ASSETS_BUCKET, Key: key }));
    return true;
  } catch (error) {
    if (error instanceof NotFound || (error as { name?: string }).name === 'NotFound') return false;
    throw error;
  }
}

/**
 * The global image library: each photo's original and 400 px thumbnail under
 * `files/library/global/`, and its `LibraryImage` item, each written only when missing.
 * @returns the photos by file name, and how many needed a write.
 */
export async function installPhotos(): Promise<{ library: LibraryPhotos; written: number }> {
  const { LibraryImage } = db();
  const credits = await photoCredits();
  const library: LibraryPhotos = new Map();
  let written = 0;
  const files = (await readdir(PHOTOS_DIR)).filter((f) => f.endsWith('.jpg')).sort();
  for (const file of files) {
    const imageId = `library-${file.replace(/\.jpg$/, '')}`;
    const key = `files/library/global/${imageId}.jpg`;
    const thumbKey = `files/library/global/${imageId}-thumb.jpg`;
    const item = (await LibraryImage.get({ imageId }).go()).data;
    const [hasOriginal, hasThumb] = await Promise.all([objectExists(key), objectExists(thumbKey)]);
    if (item && hasOriginal && hasThumb) {
      library.set(file, { key, width: item.width ?? 0, height: item.height ?? 0 });
      continue;
    }
    const bytes = await readFile(join(PHOTOS_DIR, file));
    const meta = await sharp(bytes).metadata();
    const Bucket = config().ASSETS_BUCKET;
    if (!hasOriginal) {
      await s3Client().send(
        new PutObjectCommand({ Bucket, Key: key, Body: bytes, ContentType: 'image/jpeg' }),
      );
    }
    if (!hasThumb) {
      const thumb = await sharp(bytes).resize({ width: 400 }).jpeg({ quality: 80 }).toBuffer();
      await s3Client().send(
        new PutObjectCommand({ Bucket, Key: thumbKey, Body: thumb, ContentType: 'image/jpeg' }),
      );
    }
    if (!item) {
      const credit = credits.get(file);
      await LibraryImage.create({
        imageId,
        scope: 'global',
        key,
        thumbKey,
        contentType: 'image/jpeg',
        width: meta.width ?? 0,
        height: meta.height ?? 0,
        bytes: bytes.length,
        title: titleOf(file),
        ...(credit ? { author: credit.author, licence: credit.licence } : {}),
      }).go();
    }
    written += 1;
    library.set(file, { key, width: meta.width ?? 0, height: meta.height ?? 0 });
  }
  return { library, written };
}

/**
 * Installs the library content where it is missing (see the module comment).
 * @param log progress lines.
 * @returns what was written, and the photos (the local seed's demo design uses one).
 * @throws the DynamoDB or S3 error; a rerun continues where it stopped.
 */
export async function installLibrary(
  log: (line: string) => void = console.log,
): Promise<LibraryReport & { library: LibraryPhotos }> {
  const { library, written } = await installPhotos();
  const stickerPacks = await seedStickers(log);
  const fonts = await seedHostedFonts();
  const report = { photos: written, stickerPacks, fontFiles: fonts.uploaded };
  if (written + stickerPacks + fonts.uploaded > 0) {
    log(
      `  library: ${written} photos, ${stickerPacks} sticker packs, ${fonts.uploaded} font files written`,
    );
  }
  return { ...report, library };
}
