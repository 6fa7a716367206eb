/**
 * `npm run bench`: starts the local stack and measures the render path, then prints a table and
 * writes bench-results/render.json. Timing lives here, never in the tests (issue: foundation §2).
 *
 * Measured (ms): the warm render with distinct parameter values (p50, p90); the floor (sharp
 * decodes the base photo and re-encodes a 1000 px JPEG, nothing drawn); the same URL again; the
 * stack's start with a cold Chromium to the first image. The render issue adds the satori and
 * page-per-render comparisons and the load test.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';

process.env.STAGE = 'test';
const { startLocalStack } = await import('#infra/local/stack.ts');

const WARM_RUNS = 40;

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const round = (n: number) => Math.round(n * 10) / 10;

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function get(url: string): Promise<Buffer> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

const coldStarted = performance.now();
const stack = await startLocalStack({ port: 0, web: 'none' });
const base = `${stack.url}/r/demo-welcome.jpg`;
await get(`${base}?first_name=Cold`);
const coldStartMs = performance.now() - coldStarted;

try {
  for (let i = 0; i < 5; i++) await get(`${base}?first_name=Warmup${i}`);
  const warm: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++)
    warm.push(await time(() => get(`${base}?first_name=Recipient${i}`)));

  const same: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++) same.push(await time(() => get(`${base}?first_name=Same`)));

  const photo = await readFile(
    join(import.meta.dirname, '..', '..', 'infra', 'seed', 'photos', 'autumn.jpg'),
  );
  const floor: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++) {
    floor.push(await time(() => sharp(photo).resize(1000, 625).jpeg({ quality: 86 }).toBuffer()));
  }

  const result = {
    warm_p50_ms: round(percentile(warm, 50)),
    warm_p90_ms: round(percentile(warm, 90)),
    floor_p50_ms: round(percentile(floor, 50)),
    same_url_p50_ms: round(percentile(same, 50)),
    cold_start_ms: round(coldStartMs),
    runs: WARM_RUNS,
    note: 'foundation slice: no S3 render cache yet, so the same URL is drawn again',
  };
  await mkdir('bench-results', { recursive: true });
  await writeFile('bench-results/render.json', `${JSON.stringify(result, null, 2)}\n`);
  console.table({
    'warm render (distinct values)': {
      p50_ms: result.warm_p50_ms,
      p90_ms: result.warm_p90_ms,
      ratio_to_floor: round(result.warm_p50_ms / result.floor_p50_ms),
    },
    'floor (sharp decode + encode)': {
      p50_ms: result.floor_p50_ms,
      p90_ms: round(percentile(floor, 90)),
      ratio_to_floor: 1,
    },
    'same URL again': {
      p50_ms: result.same_url_p50_ms,
      p90_ms: round(percentile(same, 90)),
      ratio_to_floor: round(result.same_url_p50_ms / result.floor_p50_ms),
    },
    'stack start to first image': {
      p50_ms: result.cold_start_ms,
      p90_ms: result.cold_start_ms,
      ratio_to_floor: null,
    },
  });
  console.log('wrote bench-results/render.json');
} finally {
  await stack.stop();
}
