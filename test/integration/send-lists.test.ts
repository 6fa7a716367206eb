/**
 * Send lists (docs/send-lists.md) on the local stack with real Chromium, DynamoDB Local, s3rver
 * and the local queue: upload, a 2,000-row job whose poller is killed halfway and that a new
 * poller finishes with every row drawn once, the download, a repeat that draws nothing,
 * cancelling, the plan's row limit and another team's ids.
 *
 * @own-stack: the queue pollers are started and killed by hand.
 */
import { describe, expect, it } from 'vitest';
import { db } from '#lib/db/index.ts';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { s3Client } from '#lib/clients.ts';
import { config } from '#lib/config.ts';
import { listObjects } from '#lib/s3-list.ts';
import { flushRenderUsage } from '#functions/render/handler.ts';
import { localQueue } from '#lib/queue.ts';
import { startQueuePoller } from '#infra/local/queue-poller.ts';
import { IDS } from '#infra/local/seed.ts';
import type { SendListJob } from '#shared/contract/send-lists.ts';
import { CHUNK_RESERVE_MS, handler as worker } from '#functions/send-lists/worker.ts';
import { givenUpMessage, handler as deadLetters } from '#functions/send-lists/dead-letters.ts';
import { checkSignature } from '#functions/render/signature.ts';
import { forgetRenderTeams } from '#functions/render/handler.ts';
import { pollUntil, useLocalStack } from '../support/stack.ts';
import { ownTeam, signedIn } from '../support/designs.ts';
import { putDesign } from '../support/render-designs.ts';
import type { TestClient } from '../support/client.ts';
import { countdownSticker } from '../support/countdown.ts';

const stack = useLocalStack({ queues: false });
const DESIGN = IDS.demoDesign;
const ROWS = Number(process.env.SEND_LIST_TEST_ROWS ?? 2000);

/** Creates a job, PUTs the file to its upload URL and starts it. */
async function upload(client: TestClient, designId: string, csv: string): Promise<SendListJob> {
  const bytes = Buffer.byteLength(csv);
  const created = await client.request('POST', `/api/pic-snippet/${designId}/send-lists`, {
    file_name: 'campaign.csv',
    format: 'csv',
    bytes,
  });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  const { job, upload: target } = created.json as {
    job: SendListJob;
    upload: { url: string; headers: Record<string, string> };
  };
  const put = await fetch(target.url, { method: 'PUT', headers: target.headers, body: csv });
  expect(put.status, await put.text()).toBeLessThan(300);
  const started = await client.request(
    'POST',
    `/api/pic-snippet/${designId}/send-lists/${job.id}/start`,
  );
  expect(started.status, JSON.stringify(started.json)).toBe(200);
  return (started.json as { job: SendListJob }).job;
}

async function jobOf(client: TestClient, designId: string, jobId: string): Promise<SendListJob> {
  const res = await client.request('GET', `/api/pic-snippet/${designId}/send-lists/${jobId}`);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return (res.json as { job: SendListJob }).job;
}

const names = (n: number, prefix: string) =>
  Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(4, '0')}`);

/**
 * The demo team's draws this month (the render quota's count: functions/render/usage.ts), after
 * writing what the render service has pending. Cache hits are not draws.
 */
async function draws(): Promise<number> {
  await flushRenderUsage();
  const month = new Date().toISOString().slice(0, 7);
  const { data } = await db().TeamRenderUsage.get({ usageTeam: IDS.demoTeam, month }).go();
  return data?.renders ?? 0;
}

/**
 * The images of the demo design at `version` in the render cache, listed by the first letter
 * of their hash (s3rver lists at most 1,000 keys under one prefix reliably).
 */
async function cachedRenders(version: number): Promise<number> {
  const letters = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'];
  let count = 0;
  for (const letter of letters) {
    const prefix = `renders/${DESIGN}/v${version}/${letter}`;
    count += (await listObjects(s3Client(), config().RENDERS_BUCKET, prefix, 1000)).size;
  }
  return count;
}

/** Reads the CSV a download redirects to. */
async function download(
  client: TestClient,
  jobId: string,
  query = '',
  designId: string = DESIGN,
): Promise<string[][]> {
  const res = await client.request(
    'GET',
    `/api/pic-snippet/${designId}/send-lists/${jobId}/download${query}`,
  );
  expect(res.status, JSON.stringify(res.json)).toBe(302);
  const file = await fetch(res.headers.get('location')!);
  expect(file.headers.get('content-disposition')).toMatch(
    /attachment; filename="campaign-urls.csv"/,
  );
  const text = await file.text();
  return text
    .trim()
    .split('\r\n')
    .map((line) => line.slice(1, -1).split('","'));
}

/** The metadata of a job's stored plain download, or undefined when there is none. */
async function storedResult(jobId: string): Promise<Record<string, string> | undefined> {
  const head = await s3Client()
    .send(
      new HeadObjectCommand({
        Bucket: config().ASSETS_BUCKET,
        Key: `send-lists/${jobId}/result-plain.csv`,
      }),
    )
    .catch(() => undefined);
  return head?.Metadata;
}

/** The URL of the download's last row. */
const csv0 = (csv: string[][]): string => csv.at(-1)![3]!;

describe('send lists', () => {
  let demo: TestClient;
  let firstJob: SendListJob;

  it('renders a 2,000-row list once each, through a poller killed halfway', async () => {
    demo = await signedIn(stack().url, 'demo@example.com');
    // Two duplicates, an empty name (the fallback shows) and a formula-like value.
    const rows = [...names(ROWS - 4, 'Ana'), 'Ana0001', 'Ana0002', '', '=HYPERLINK("x")'];
    const job = await upload(
      demo,
      DESIGN,
      `first_name,email\n${rows.map((r, i) => `"${r.replaceAll('"', '""')}",r${i}@example.com`).join('\n')}\n`,
    );
    expect(job.state).toBe('queued');

    // The first poller is killed halfway: it leases nothing more and deletes nothing, and its
    // messages come back after the visibility timeout. (In this process, its handler calls under
    // way still finish their current row: the new deliveries race them for that row only.)
    const drawsBefore = await draws();
    const first = startQueuePoller('send-list', worker, { visibilityMs: 2_000 });
    const half = await pollUntil(
      'half the rows done',
      () => jobOf(demo, DESIGN, job.id),
      (j) => j.done >= ROWS / 2,
      { timeoutMs: 300_000, intervalMs: 250 },
    );
    first.kill();
    expect(half.state).toBe('running');
    expect(half.total).toBe(ROWS - 2);
    expect(half.eta_seconds).toBeGreaterThanOrEqual(0);

    const poller = startQueuePoller('send-list', worker, { visibilityMs: 2_000 });
    const done = await pollUntil(
      'the rest done by the next poller',
      () => jobOf(demo, DESIGN, job.id),
      (j) => j.state === 'done',
      { timeoutMs: 300_000, intervalMs: 250 },
    );
    await pollUntil(
      'queue empty',
      () => localQueue.depth('send-list'),
      (d) => d === 0,
      {
        timeoutMs: 30_000,
      },
    );
    await poller.stop();
    expect(done).toMatchObject({
      total: ROWS - 2,
      done: ROWS - 2,
      failed: 0,
      duplicates: 2,
      eta_seconds: null,
    });
    expect(done.rendered + done.cached).toBe(ROWS - 2);
    expect(done.report).toMatchObject({ rows: ROWS, fallback_rows: 1, formula_values: 1 });
    // Every row drawn once, but for the rows the killed poller's calls were on when the new
    // deliveries came (one a loop; a real crash leaves no such call).
    const drawn = (await draws()) - drawsBefore;
    expect(drawn).toBeGreaterThanOrEqual(ROWS - 2);
    expect(drawn).toBeLessThanOrEqual(ROWS - 2 + 8);
    // Every distinct row's image is in the render cache.
    expect(await cachedRenders(done.version)).toBe(ROWS - 2);
    firstJob = done;
  }, 600_000);

  it('downloads every row with its URL and status, and each URL is then a cache hit', async () => {
    const csv = await download(demo, firstJob.id);
    expect(csv[0]).toEqual(['line', 'email', 'first_name', 'url', 'status', 'notes']);
    expect(csv).toHaveLength(ROWS + 1);
    const statuses = new Map<string, number>();
    for (const row of csv.slice(1)) statuses.set(row[4]!, (statuses.get(row[4]!) ?? 0) + 1);
    expect(Object.fromEntries(statuses)).toEqual({ rendered: ROWS - 2, duplicate: 2 });
    const formula = csv.find((row) => row[2]!.includes('HYPERLINK'))!;
    expect(formula[2]!.startsWith("'=")).toBe(true);
    const empty = csv.find((row) => row[2] === '')!;
    expect(empty[5]).toContain('fallback shown for: first_name');
    for (const row of [csv[1]!, csv[Math.floor(ROWS / 2)]!, empty]) {
      expect(row[3]).toMatch(new RegExp(`^${stack().url}/r/demo-welcome/v\\d+`));
      const res = await fetch(row[3]!);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect(['store', 'memory']).toContain(res.headers.get('x-render-cache'));
    }
  });

  it('draws nothing when the same list is sent again', async () => {
    const rows = names(150, 'Ana'); // all among the first job's rows
    const job = await upload(demo, DESIGN, `first_name\n${rows.join('\n')}\n`);
    const poller = startQueuePoller('send-list', worker, { visibilityMs: 2_000 });
    const done = await pollUntil(
      'repeat done',
      () => jobOf(demo, DESIGN, job.id),
      (j) => j.state === 'done',
      { timeoutMs: 120_000, intervalMs: 200 },
    );
    await poller.stop();
    expect(done).toMatchObject({ total: 150, done: 150, rendered: 0, cached: 150, failed: 0 });
  }, 180_000);

  it('stops a cancelled job and keeps the rest pending', async () => {
    const job = await upload(demo, DESIGN, `first_name\n${names(400, 'Cy').join('\n')}\n`);
    const poller = startQueuePoller('send-list', worker, { visibilityMs: 2_000, concurrency: 1 });
    await pollUntil(
      'some rows done',
      () => jobOf(demo, DESIGN, job.id),
      (j) => j.done >= 5,
      {
        timeoutMs: 120_000,
        intervalMs: 100,
      },
    );
    const cancel = await demo.request(
      'POST',
      `/api/pic-snippet/${DESIGN}/send-lists/${job.id}/cancel`,
    );
    expect(cancel.status).toBe(200);
    expect((cancel.json as { job: SendListJob }).job.state).toBe('cancelled');
    await pollUntil(
      'queue empty',
      () => localQueue.depth('send-list'),
      (d) => d === 0,
      {
        timeoutMs: 60_000,
      },
    );
    await poller.stop();
    const after = await jobOf(demo, DESIGN, job.id);
    expect(after.state).toBe('cancelled');
    expect(after.done).toBeLessThan(400);
    const again = await demo.request(
      'POST',
      `/api/pic-snippet/${DESIGN}/send-lists/${job.id}/cancel`,
    );
    expect(again.status).toBe(409);
    const csv = await download(demo, job.id);
    expect(csv.slice(1).filter((r) => r[4] === 'cancelled').length).toBe(400 - after.done);
  }, 180_000);

  it('hands a chunk back to the queue when its invocation runs short of time, and still draws every row once', async () => {
    demo ??= await signedIn(stack().url, 'demo@example.com');
    const job = await upload(demo, DESIGN, `first_name\n${names(24, 'Hb').join('\n')}\n`);
    // Each invocation has time for about five rows before it is under the reserve.
    let rowsMessages = 0;
    const shortLived = (event: Parameters<typeof worker>[0]) => {
      if (event.Records.some((r) => r.body.includes('"rows"'))) rowsMessages += 1;
      let asked = 0;
      return worker(event, {
        getRemainingTimeInMillis: () => (++asked <= 5 ? 120_000 : CHUNK_RESERVE_MS - 1),
      });
    };
    const poller = startQueuePoller('send-list', shortLived, { visibilityMs: 2_000 });
    const done = await pollUntil(
      'the job done in several hand-backs',
      () => jobOf(demo, DESIGN, job.id),
      (j) => j.state === 'done',
      { timeoutMs: 120_000, intervalMs: 200 },
    );
    await poller.stop();
    expect(done).toMatchObject({ total: 24, done: 24, rendered: 24, cached: 0, failed: 0 });
    // One chunk of 24 rows, at most ~5 rows a call: it went back to the queue several times.
    expect(rowsMessages).toBeGreaterThanOrEqual(4);
  }, 180_000);

  it('a chunk that keeps failing: its rows count as failed, the job fails with the lines named, once', async () => {
    demo ??= await signedIn(stack().url, 'demo@example.com');
    const job = await upload(demo, DESIGN, `first_name\n${names(130, 'Dl').join('\n')}\n`);
    // The second chunk (rows 101-130, lines 102-131 of the file) fails on every receive.
    const poisoned = (event: Parameters<typeof worker>[0]) =>
      event.Records.some((r) => r.body.includes('"chunk":1'))
        ? Promise.reject(new Error('poisoned chunk'))
        : worker(event);
    const poller = startQueuePoller('send-list', poisoned, {
      visibilityMs: 1_000,
      concurrency: 1,
      idleMs: 20,
      deadLetterWorker: deadLetters,
    });
    const ended = await pollUntil(
      'the job failed',
      () => jobOf(demo, DESIGN, job.id),
      (j) => j.state === 'failed',
      { timeoutMs: 120_000, intervalMs: 200 },
    );
    await poller.stop();
    expect(ended).toMatchObject({ total: 130, done: 100, failed: 30 });
    expect(ended.finished_at).not.toBeNull();
    expect(ended.error).toBe(givenUpMessage(30, 102, 131));
    expect(await localQueue.deadLetters('send-list')).toEqual([]);
    // The download still gives every row its URL; the given-up ones say so.
    const csv = await download(demo, job.id);
    expect(csv.slice(1).filter((r) => r[4] === 'failed')).toHaveLength(30);
    expect(csv.slice(1).filter((r) => ['rendered', 'cached'].includes(r[4]!))).toHaveLength(100);

    // Delivered again (SQS delivers at least once): nothing counts twice.
    const again = await deadLetters({
      Records: [
        { messageId: 'again', body: JSON.stringify({ kind: 'rows', jobId: job.id, chunk: 1 }) },
      ],
    } as never);
    expect(again.batchItemFailures).toEqual([]);
    expect(await jobOf(demo, DESIGN, job.id)).toEqual(ended);
  }, 180_000);

  it('refuses a send list for a design with a countdown timer, with a field error', async () => {
    demo ??= await signedIn(stack().url, 'demo@example.com');
    const demoDesign = (await db().Design.get({ designId: DESIGN }).go()).data!;
    const doc = demoDesign.document as { graphics_data?: unknown[] };
    await putDesign('send-list-timer', IDS.demoTeam, {
      ...doc,
      graphics_data: [
        ...(doc.graphics_data ?? []),
        countdownSticker({ deadline: '2030-01-01T09:00', timeZone: 'Europe/Paris' }),
      ],
    });
    const refused = await demo.request(
      'POST',
      '/api/pic-snippet/design-send-list-timer/send-lists',
      {
        file_name: 'campaign.csv',
        format: 'csv',
        bytes: 20,
      },
    );
    expect(refused.status).toBe(422);
    expect((refused.json as { errors: Record<string, string[]> }).errors.file).toEqual([
      expect.stringMatching(/^This design has a countdown timer, which changes every second/),
    ]);
    // Nothing was created for it.
    const listed = await demo.request('GET', '/api/pic-snippet/design-send-list-timer/send-lists');
    expect(JSON.stringify(listed.json)).not.toContain('campaign.csv');
  });

  it("refuses a list over the plan's row limit with the file's message", async () => {
    const free = await ownTeam(stack().url, 'send-list-free@example.com');
    const me = await free.request('GET', '/user/current');
    const teamId = (me.json as { current_team_id: string }).current_team_id;
    const demoDesign = (await db().Design.get({ designId: DESIGN }).go()).data!;
    await putDesign('free-send-list', teamId, demoDesign.document);
    const job = await upload(
      free,
      'design-free-send-list',
      `first_name\n${names(1001, 'Di').join('\n')}\n`,
    );
    expect(job.max_rows).toBe(1000);
    const poller = startQueuePoller('send-list', worker, { visibilityMs: 2_000 });
    const failed = await pollUntil(
      'refused',
      () => jobOf(free, 'design-free-send-list', job.id),
      (j) => j.state !== 'queued',
      { timeoutMs: 60_000, intervalMs: 100 },
    );
    await poller.stop();
    expect(failed.state).toBe('failed');
    expect(failed.error).toMatch(/more than 1,000 rows/);
    expect(failed.done).toBe(0);
  });

  it('signs the rows of a design that requires signed URLs: they render and their URLs verify', async () => {
    const signer = await ownTeam(stack().url, 'send-list-signer@example.com');
    const teamId = (await signer.request('GET', '/settings/companies/current')).json.id as string;
    const demoDesign = (await db().Design.get({ designId: DESIGN }).go()).data!;
    await putDesign('signed-send-list', teamId, {
      ...(demoDesign.document as object),
      require_signed_urls: true,
    });
    const made = await signer.request('POST', `/settings/companies/${teamId}/signing-secret`, {
      overlap_hours: 0,
    });
    expect(made.status, JSON.stringify(made.json)).toBe(201);
    const secret = made.json.secret as string;
    forgetRenderTeams(); // a Lambda reads the team's secrets again within a minute
    const designId = 'design-signed-send-list';
    const job = await upload(signer, designId, 'first_name\nZoë & Co\nBo\n\n');
    const poller = startQueuePoller('send-list', worker, { visibilityMs: 2_000 });
    const done = await pollUntil(
      'signed list done',
      () => jobOf(signer, designId, job.id),
      (j) => j.state === 'done',
      { timeoutMs: 120_000, intervalMs: 200 },
    );
    await poller.stop();
    // Not the fallback: each row drew the design (a refused signature answers the fallback).
    expect(done).toMatchObject({ total: 2, rendered: 2, failed: 0 });
    expect((await storedResult(job.id))?.['signed-by']).toMatch(/^[\w-]{22}$/);
    for (const query of ['', '?platform=manychat']) {
      const csv = await download(signer, job.id, query, designId);
      expect(csv.slice(1).map((r) => r[4])).toEqual(['rendered', 'rendered']);
      for (const row of csv.slice(1)) {
        const url = new URL(row[3]!);
        expect(url.searchParams.get('__sf')).toBe('values');
        expect(checkSignature(url.pathname, url.search.slice(1), [secret]), row[3]).toEqual({
          ok: true,
        });
        if (query !== '') continue;
        // The recipient's open is the pre-rendered image, answered from the cache.
        const res = await fetch(row[3]!);
        expect(res.headers.get('x-render-reason')).toBeNull();
        expect(['store', 'memory']).toContain(res.headers.get('x-render-cache'));
      }
    }
    // A rotated secret: the stored download is written again, signed with the new one.
    const rotated = await signer.request('POST', `/settings/companies/${teamId}/signing-secret`, {
      overlap_hours: 0,
    });
    expect(rotated.status).toBe(201);
    const again = new URL(csv0(await download(signer, job.id, '', designId)));
    expect(checkSignature(again.pathname, again.search.slice(1), [secret]).ok).toBe(false);
    expect(
      checkSignature(again.pathname, again.search.slice(1), [rotated.json.secret as string]),
    ).toEqual({ ok: true });
    // Changing a value breaks the signature: the render answers the fallback.
    forgetRenderTeams();
    const refused = await fetch(again.href.replace('Bo', 'Al'));
    expect(refused.headers.get('x-render-reason')).toBe('signature-invalid');
  }, 180_000);

  it('counts the rows with characters no font draws, and notes them in the download', async () => {
    const team = await ownTeam(stack().url, 'send-list-glyphs@example.com');
    const teamId = (await team.request('GET', '/settings/companies/current')).json.id as string;
    const demoDesign = (await db().Design.get({ designId: DESIGN }).go()).data!;
    await putDesign('glyphs-send-list', teamId, demoDesign.document);
    const designId = 'design-glyphs-send-list';
    // U+E000 (private use): no shipped face draws it; the render leaves it out.
    const job = await upload(team, designId, 'first_name\nAnn\uE000\nBob\n\n');
    const poller = startQueuePoller('send-list', worker, { visibilityMs: 2_000 });
    const done = await pollUntil(
      'glyph list done',
      () => jobOf(team, designId, job.id),
      (j) => j.state === 'done',
      { timeoutMs: 120_000, intervalMs: 200 },
    );
    await poller.stop();
    expect(done).toMatchObject({ total: 2, rendered: 2, failed: 0 });
    expect(done.report).toMatchObject({ rows: 2, undrawable_rows: 1, fallback_rows: 0 });
    // The worker that ended the job wrote the plain download (not the API, at download time).
    expect((await storedResult(job.id))?.['signed-by']).toBe('unsigned');
    const csv = await download(team, job.id, '', designId);
    expect(csv.slice(1).map((r) => [r[2], r[4], r[5]])).toEqual([
      ['Ann\uE000', 'rendered', 'characters no font draws were left out'],
      ['Bob', 'rendered', ''],
    ]);
  }, 180_000);

  it("answers 404 for another team's design or job", async () => {
    const other = await ownTeam(stack().url, 'send-list-other@example.com');
    const base = `/api/pic-snippet/${DESIGN}/send-lists`;
    const create = await other.request('POST', base, {
      file_name: 'x.csv',
      format: 'csv',
      bytes: 10,
    });
    expect(create.status).toBe(404);
    for (const path of [base, `${base}/${firstJob.id}`, `${base}/${firstJob.id}/download`])
      expect((await other.request('GET', path)).status).toBe(404);
    for (const action of ['start', 'cancel'])
      expect((await other.request('POST', `${base}/${firstJob.id}/${action}`)).status).toBe(404);
    // The owner still reads it.
    expect((await demo.request('GET', `${base}/${firstJob.id}`)).status).toBe(200);
  });
});
