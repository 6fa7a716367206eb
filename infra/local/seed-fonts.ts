/**
 * The hosted font files (docs/fonts.md): each hosted family's woff2 faces from its installed
 * `@fontsource` package (shared/fonts/hosted.data.ts), stored in the assets bucket at
 * `files/fonts/hosted/{slug}/{file}` and served at `/files/fonts/hosted/…` (the `/files/*`
 * behaviour in AWS, the local gateway here). The slug carries the package version, so an update
 * never changes the file behind an existing URL.
 *
 * - Local stack: `seedHostedFonts()` runs from the seed (infra/local/seed.ts); a set already in
 *   the bucket is not sent again (a marker object names the set).
 * - AWS: `npm run deploy` uploads the missing files (infra/deploy/upload-fonts.ts), as it
 *   uploads the SPA (docs/infra.md "Deploy"); `--stage dist/fonts` still lays them out as
 *   bucket keys in a folder.
 */
import { cp, mkdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { s3Client } from '#lib/clients.ts';
import { config } from '#lib/config.ts';
import { HOSTED_FAMILIES } from '#shared/fonts/hosted.data.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
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

/** A marker object whose name changes with the hosted set: present means all files are there. */
function markerKey(): string {
  const slugs = HOSTED_FAMILIES.map((f) => `${f.slug}:${f.faces.length}`).join(',');
  return `${HOSTED_FONTS_PREFIX}.seeded-${createHash('sha256').update(slugs).digest('hex').slice(0, 16)}`;
}

async function exists(key: string): Promise<boolean> {
  try {
    await s3Client().send(new HeadObjectCommand({ Bucket: config().ASSETS_BUCKET, Key: key }));
    return true;
  } catch {
    return false;
  }
}

/**
 * Puts the hosted font files in the assets bucket (woff2, cached as immutable), unless the
 * marker of this set of files says an earlier run did.
 * @returns how many files were sent.
 */
export async function seedHostedFonts(log: (line: string) => void = console.log): Promise<number> {
  const marker = markerKey();
  if (await exists(marker)) return 0;
  const missing = hostedFontFiles();
  for (let i = 0; i < missing.length; i += CONCURRENCY) {
    await Promise.all(
      missing.slice(i, i + CONCURRENCY).map(async (file) =>
        s3Client().send(
          new PutObjectCommand({
            Bucket: config().ASSETS_BUCKET,
            Key: file.key,
            Body: await readFile(file.path),
            ContentType: 'font/woff2',
            CacheControl: 'public, max-age=31536000, immutable',
          }),
        ),
      ),
    );
  }
  await s3Client().send(
    new PutObjectCommand({ Bucket: config().ASSETS_BUCKET, Key: marker, Body: '' }),
  );
  log(`seeded ${missing.length} hosted font files`);
  return missing.length;
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
