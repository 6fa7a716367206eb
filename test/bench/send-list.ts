/**
 * The send-list part of `npm run bench` (docs/performance.md "Send lists"): a list of 10,000
 * distinct rows for the demo design, uploaded, started and rendered by the local stack's own
 * queue poller and worker (functions/send-lists/worker.ts), then every URL of its download
 * requested again through the gateway as a recipient would. Written to
 * bench-results/send-list.json:
 * - `rows`: rows in the list;
 * - `renders_per_s`: rows finished per second, from the job's start to its end;
 * - `peak_rss_mb`: the highest resident set size of the process that runs the worker, sampled
 *   every 200 ms (locally the worker shares the process with the gateway; Chromium's own
 *   processes are not included);
 * - `replay_cache_hit_ratio`: the share of the replayed URLs answered from the render cache
 *   (`x-render-cache` memory or store; target 1.0).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LocalStack } from '#infra/local/stack.ts';
import { IDS } from '#infra/local/seed.ts';
import type { SendListJob } from '#shared/contract/send-lists.ts';
import { TestClient } from '../support/client.ts';
import { formatTable } from './table.ts';
import { RESULTS_DIR } from './scale.ts';

/** Rows of the bench's list. */
export const SEND_LIST_ROWS = 10_000;
/** Concurrent replay requests. */
const REPLAY_CLIENTS = 8;

export interface SendListResult {
  rows: number;
  renders_per_s: number;
  peak_rss_mb: number;
  replay_cache_hit_ratio: number;
  seconds: number;
  rendered: number;
  cached: number;
  failed: number;
}

/**
 * Runs the part on a started stack whose queue pollers run (the default).
 * @param options.rows rows of the list (default {@link SEND_LIST_ROWS}).
 * @throws Error when an API call fails or the job does not end as `done`.
 */
export async function runSendListBench(
  stack: LocalStack,
  options: { rows?: number } = {},
): Promise<SendListResult> {
  const rows = options.rows ?? SEND_LIST_ROWS;
  const client = new TestClient(stack.url);
  if ((await client.login('demo@example.com')).status !== 200)
    throw new Error('send-list bench: demo login failed');
  const design = IDS.demoDesign;
  const run = Date.now().toString(36);
  const csv = `first_name\n${Array.from({ length: rows }, (_, i) => `Bench ${run} ${i}`).join('\n')}\n`;
  const created = await client.request('POST', `/api/pic-snippet/${design}/send-lists`, {
    file_name: 'bench.csv',
    format: 'csv',
    bytes: Buffer.byteLength(csv),
  });
  if (created.status !== 201) throw new Error(`send-list bench: create ${created.status}`);
  const { job, upload } = created.json as {
    job: SendListJob;
    upload: { url: string; headers: Record<string, string> };
  };
  const put = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: csv });
  if (!put.ok) throw new Error(`send-list bench: upload ${put.status}`);

  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 200);
  const started = Date.now();
  let last: SendListJob;
  try {
    const start = await client.request(
      'POST',
      `/api/pic-snippet/${design}/send-lists/${job.id}/start`,
    );
    if (start.status !== 200) throw new Error(`send-list bench: start ${start.status}`);
    for (;;) {
      await new Promise((r) => setTimeout(r, 1000));
      const res = await client.request('GET', `/api/pic-snippet/${design}/send-lists/${job.id}`);
      last = (res.json as { job: SendListJob }).job;
      if (last.state !== 'queued' && last.state !== 'running') break;
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = (Date.now() - started) / 1000;
  if (last.state !== 'done') throw new Error(`send-list bench: the job ended ${last.state}`);

  const download = await client.request(
    'GET',
    `/api/pic-snippet/${design}/send-lists/${job.id}/download`,
  );
  const text = await (await fetch(download.headers.get('location')!)).text();
  const urls = text
    .trim()
    .split('\r\n')
    .slice(1)
    .map((line) => line.slice(1, -1).split('","')[3]!);
  let hits = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: REPLAY_CLIENTS }, async () => {
      while (next < urls.length) {
        const res = await fetch(urls[next++]!);
        await res.arrayBuffer();
        if (['memory', 'store'].includes(res.headers.get('x-render-cache') ?? '')) hits++;
      }
    }),
  );

  const result: SendListResult = {
    rows,
    renders_per_s: Math.round(((last.rendered + last.cached) / seconds) * 10) / 10,
    peak_rss_mb: Math.round(peak / 1024 / 1024),
    replay_cache_hit_ratio: Math.round((hits / urls.length) * 10000) / 10000,
    seconds: Math.round(seconds),
    rendered: last.rendered,
    cached: last.cached,
    failed: last.failed,
  };
  console.log(
    `\nSend list (${rows} rows, docs/performance.md "Send lists")\n${formatTable(
      Object.keys(result),
      [result as unknown as Record<string, number>],
    )}`,
  );
  await mkdir(RESULTS_DIR, { recursive: true });
  await writeFile(join(RESULTS_DIR, 'send-list.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log('wrote bench-results/send-list.json');
  return result;
}
