/**
 * Build stamps (shared/build-stamp.ts; docs/adr/0038-builds-on-start.md "Builds on start"): `npm
 * start` builds again exactly when an input the bundler read changed or went away, or the output is
 * missing.
 */
import { readFileSync } from 'node:fs';
import { mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, staleReason, writeBuildStamp } from '#shared/build-stamp.ts';

// Under dist/ (ignored by git), since stamps record repository-relative paths.
const dir = join(REPO_ROOT, 'dist', '.test-build-stamp');
const stamp = join(dir, 'stamp.json');
const output = join(dir, 'out.js');
const source = join(dir, 'source.ts');
const other = join(dir, 'other.ts');

beforeEach(async () => {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await writeFile(source, 'export const a = 1;');
  await writeFile(other, 'export const b = 2;');
  await writeFile(output, 'built');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('build stamps', () => {
  it('is current right after the build, and the lock file is recorded', async () => {
    await writeBuildStamp(stamp, [source, other]);
    expect(await staleReason(stamp, output)).toBeUndefined();
  });

  it('is stale when the output or the stamp is missing', async () => {
    await writeBuildStamp(stamp, [source]);
    await rm(output);
    expect(await staleReason(stamp, output)).toBe('not built yet');
    await writeFile(output, 'built');
    await rm(stamp);
    expect(await staleReason(stamp, output)).toBe('no record of its sources');
  });

  it('is stale when a source changed, even to the same size, or went away', async () => {
    await writeBuildStamp(stamp, [source, other]);
    await writeFile(source, 'export const a = 9;'); // same size
    await utimes(source, new Date(), new Date(Date.now() + 5000));
    expect(await staleReason(stamp, output)).toBe('dist/.test-build-stamp/source.ts changed');
    await writeBuildStamp(stamp, [source, other]);
    await rm(other);
    expect(await staleReason(stamp, output)).toBe('dist/.test-build-stamp/other.ts changed');
  });

  it('leaves out node_modules and files outside the repository', async () => {
    await writeBuildStamp(stamp, [
      source,
      join(REPO_ROOT, 'node_modules', 'vite', 'package.json'),
      '/etc/hostname',
      '\0virtual:module',
    ]);
    const { inputs } = JSON.parse(readFileSync(stamp, 'utf8')) as {
      inputs: Record<string, string>;
    };
    expect(Object.keys(inputs).sort()).toEqual([
      'dist/.test-build-stamp/source.ts',
      'package-lock.json',
    ]);
  });
});
