/**
 * The deploy's SPA upload (infra/deploy/upload-web.ts, docs/infra.md "Deploy") against the local
 * S3 emulator: it stores each built file with its type and cache policy, a second run changes
 * nothing, and a file the build dropped is deleted.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, HeadObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Client } from '#lib/clients.ts';
import { uploadWeb } from '#infra/deploy/upload-web.ts';
import { useLocalStack } from '../support/stack.ts';

useLocalStack({ warmChromium: false });
const BUCKET = 'picsnippets-deploy-upload-test';
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'picsnippets-web-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><script src="/assets/app-1.js"></script>',
  );
  await writeFile(join(dir, 'assets', 'app-1.js'), 'console.log(1)');
  await writeFile(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await s3Client().send(new CreateBucketCommand({ Bucket: BUCKET }));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const keys = async () =>
  ((await s3Client().send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents ?? [])
    .map((o) => o.Key)
    .sort();

describe('uploadWeb', () => {
  it('stores the build with types and cache policies, index.html last', async () => {
    const report = await uploadWeb(s3Client(), BUCKET, dir);
    expect(report.uploaded).toEqual(['assets/app-1.js', 'favicon.svg', 'index.html']);
    expect(await keys()).toEqual(['assets/app-1.js', 'favicon.svg', 'index.html']);
    const head = (key: string) =>
      s3Client().send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    expect(await head('index.html')).toMatchObject({
      ContentType: 'text/html; charset=utf-8',
      CacheControl: 'no-cache',
    });
    expect(await head('assets/app-1.js')).toMatchObject({
      ContentType: 'text/javascript; charset=utf-8',
      CacheControl: 'public, max-age=31536000, immutable',
    });
  });

  it('changes nothing when run again on the same build', async () => {
    const report = await uploadWeb(s3Client(), BUCKET, dir);
    expect(report).toEqual({ uploaded: [], unchanged: 3, deleted: [] });
  });

  it('uploads a new build and deletes what it no longer has', async () => {
    await rm(join(dir, 'assets', 'app-1.js'));
    await writeFile(join(dir, 'assets', 'app-2.js'), 'console.log(2)');
    await writeFile(
      join(dir, 'index.html'),
      '<!doctype html><script src="/assets/app-2.js"></script>',
    );
    const report = await uploadWeb(s3Client(), BUCKET, dir);
    expect(report.uploaded).toEqual(['assets/app-2.js', 'index.html']);
    expect(report.deleted).toEqual(['assets/app-1.js']);
    expect(await keys()).toEqual(['assets/app-2.js', 'favicon.svg', 'index.html']);
  });

  it('refuses a folder without index.html and stores nothing', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'picsnippets-empty-'));
    await expect(uploadWeb(s3Client(), BUCKET, empty)).rejects.toThrow('has no index.html');
    expect(await keys()).toEqual(['assets/app-2.js', 'favicon.svg', 'index.html']);
    await rm(empty, { recursive: true, force: true });
  });
});
