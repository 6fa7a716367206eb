/**
 * Uploads the built SPA (`dist/web`) to the web bucket, as `npm run deploy` does after
 * `cdk deploy` (docs/infra.md "Deploy"). It runs with the operator's credentials, so the stack
 * needs no upload Lambda, and therefore no custom-resource role with AWS-managed policies and
 * wildcards (infra tests: "grants no AWS-managed policy and no action wildcard").
 *
 * Idempotent: a file whose bytes are already stored (same MD5 as the object's ETag) is not sent
 * again, and objects no longer in the build are deleted after the new files are in place, so a
 * page loaded mid-deploy still finds the assets it names. `index.html` goes last, once every
 * asset it points at is stored.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import { DeleteObjectsCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { listObjects } from '#lib/s3-list.ts';
import { STATIC_TYPES, staticCacheControl } from '../static-files.ts';

/** Most files one build may have: a bound on the walk (the build has a few hundred). */
export const MAX_WEB_FILES = 20_000;

/** What an upload did. */
export interface UploadReport {
  /** Keys written (new or changed bytes). */
  uploaded: string[];
  /** Keys already stored with the same bytes. */
  unchanged: number;
  /** Keys deleted because the build no longer has them. */
  deleted: string[];
}

/** Every file under `dir`, as bucket keys with `/` separators. */
async function filesOf(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (at: string): Promise<void> => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) out.push(relative(dir, path).split(sep).join('/'));
      if (out.length > MAX_WEB_FILES) throw new Error(`${dir} has over ${MAX_WEB_FILES} files.`);
    }
  };
  await walk(dir);
  return out.sort();
}

/**
 * Uploads `dir` to `bucket`: new and changed files (with their content type and cache policy,
 * infra/static-files.ts), then deletes what the build no longer has.
 * @param dir the built SPA, e.g. `dist/web`.
 * @returns what was uploaded, left alone and deleted.
 * @throws Error when `dir` has no index.html (nothing is uploaded), or the S3 error.
 */
export async function uploadWeb(s3: S3Client, bucket: string, dir: string): Promise<UploadReport> {
  const files = await filesOf(dir);
  if (!files.includes('index.html')) {
    throw new Error(`${dir} has no index.html: run npm run build first.`);
  }
  const stored = await listObjects(s3, bucket, '', MAX_WEB_FILES * 2);
  const report: UploadReport = { uploaded: [], unchanged: 0, deleted: [] };
  const ordered = [...files.filter((f) => f !== 'index.html'), 'index.html'];
  for (const key of ordered) {
    const body = await readFile(join(dir, key));
    const md5 = createHash('md5').update(body).digest('hex');
    if (stored.get(key) === md5) {
      report.unchanged += 1;
      continue;
    }
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: body,
        ContentType: STATIC_TYPES[extname(key)] ?? 'application/octet-stream',
        CacheControl: staticCacheControl(key),
      }),
    );
    report.uploaded.push(key);
  }
  const keep = new Set(files);
  const stale = [...stored.keys()].filter((key) => !keep.has(key));
  for (let i = 0; i < stale.length; i += 1000) {
    const batch = stale.slice(i, i + 1000);
    await s3.send(
      new DeleteObjectsCommand({
        Bucket: bucket,
        Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
      }),
    );
    report.deleted.push(...batch);
  }
  return report;
}
