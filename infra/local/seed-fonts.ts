/**
 * The hosted font files (docs/fonts.md): each hosted family's woff2 faces from its installed
 * `@fontsource` package (shared/fonts/hosted.data.ts), stored in the assets bucket at
 * `files/fonts/hosted/{slug}/{file}` and served at `/files/fonts/hosted/…` (the `/files/*`
 * behaviour in AWS, the local gateway here). The slug carries the package version, so an update
 * never changes the file behind an existing URL.
 *
 * - `seedHostedFonts()` sends the files the bucket lacks. The library installer
 *   (infra/deploy/install-library.ts) runs it from the local seed and from `npm run deploy`.
 * - `--stage dist/fonts` lays them out as bucket keys in a folder.
 */
import { cp, mkdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { s3Client } from '#lib/clients.ts';
import { config } from '#lib/config.ts';
import { listObjects } from '#lib/s3-list.ts';
import { HOSTED_FAMILIES } from '#shared/fonts/hosted.data.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The most hosted font files a listing reads before it gives up (far above what the seed writes). */
const MAX_LISTED = 50_000;

/** Bucket prefix of the hosted files (the path `/files/fonts/hosted/` serves). */
export const HOSTED_FONTS_PREFIX = 'files/fonts/hosted/';
/** Files sent to the bucket at once. */
const CONCURRENCY = 16;

/** One hosted file: its bucket key and where it is on disk. */
export interface HostedFontFile {
  key: string;
  path: string;
}

/** Every hosted face's file (285 woff2 files, about 4.4 MB, for the packages installed). */
export function hostedFontFiles(): HostedFontFile[] {
  return HOSTED_FAMILIES.flatMap((family) => {
    const pkg = family.slug.replace(/-\d+\.\d+\.\d+.*$/, '');
    return family.faces.map((face) => ({
      key: `${HOSTED_FONTS_PREFIX}${family.slug}/${face.file}`,
      path: join(ROOT, 'node_modules', '@fontsource', pkg, 'files', face.file),
    }));
  });
}

/**
 * Puts the hosted font files the assets bucket lacks (woff2, cached as immutable); never deletes
 * one: a slug carries its package version, and designs or cached renders may name an older one.
 * Used by the library installer (infra/deploy/install-library.ts) locally and in AWS.
 * @returns how many files were sent and how many were already there.
 */
export async function seedHostedFonts(): Promise<{ uploaded: number; present: number }> {
  const s3 = s3Client();
  const Bucket = config().ASSETS_BUCKET;
  const have = await listObjects(s3, Bucket, HOSTED_FONTS_PREFIX, MAX_LISTED);
  const files = hostedFontFiles();
  const missing = files.filter((f) => !have.has(f.key));
  for (let i = 0; i < missing.length; i += CONCURRENCY) {
    await Promise.all(
      missing.slice(i, i + CONCURRENCY).map(async (file) =>
        s3.send(
          new PutObjectCommand({
            Bucket,
            Key: file.key,
            Body: await readFile(file.path),
            ContentType: 'font/woff2',
            CacheControl: 'public, max-age=31536000, immutable',
          }),
        ),
      ),
    );
  }
  return { uploaded: missing.length, present: files.length - missing.length };
}

/** Copies the hosted files under `dir` as bucket keys, for `aws s3 sync` (AWS deploys). */
export async function stageHostedFonts(dir: string): Promise<number> {
  const files = hostedFontFiles();
  for (const file of files) {
    await mkdir(dirname(join(dir, file.key)), { recursive: true });
    await cp(file.path, join(dir, file.key));
  }
  return files.length;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const at = process.argv.indexOf('--stage');
  if (at < 0 || !process.argv[at + 1]) {
    console.error('usage: tsx infra/local/seed-fonts.ts --stage <dir>');
    process.exit(2);
  }
  const dir = resolve(process.argv[at + 1]!);
  console.log(`staged ${await stageHostedFonts(dir)} hosted font files under ${dir}`);
}
