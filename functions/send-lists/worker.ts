/**
 * The send-list worker (docs/send-lists.md "The job"), a plain SQS handler on the `send-list`
 * queue (functions/lib/queue.ts; the local stack's poller drives it locally). Two messages:
 * - `prepare`: reads the uploaded file (parse.ts `readSendList`, streamed), writes its rows in
 *   chunks of {@link CHUNK_ROWS} to the assets bucket with a cursor item each, marks rows that
 *   repeat an earlier row's URL as duplicates, and queues one `rows` message per chunk;
 * - `rows`: renders a chunk's rows from its cursor on, each through the real render path with
 *   the URL a recipient will open (functions/render/handler.ts `prerenderRequest`: same cache
 *   key, the origin cache in S3 filled), moving the cursor and the job's counters in one
 *   transaction per row, so a redelivered message neither counts nor draws a row twice (a row
 *   drawn before a crash is a cache hit then). A cancelled job stops at the next row.
 * Failures are reported per message (`batchItemFailures`): the queue delivers them again.
 */
import type { Readable } from 'node:stream';
import { createHash } from 'node:crypto';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { parseDesignDocument } from '#shared/design.ts';
import { MAX_SEND_LIST_BYTES } from '#shared/contract/send-lists.ts';
import { s3Client } from '#lib/clients.ts';
import { config } from '#lib/config.ts';
import { db, isConditionFailure } from '#lib/db/index.ts';
import { logger } from '#lib/logger.ts';
import { eachRecord } from '#lib/sqs-batch.ts';
import { enqueue } from '#lib/queue.ts';
import { emitWebhookEvent } from '#domain/webhooks.ts';
import { prerenderRequest, undrawableRows } from '#functions/render/prerender.ts';
import { readSendList, SendListFileError, type SendListReport, type SendListRow } from './parse.ts';
import {
  CHUNK_ROWS,
  JOB_RETENTION_SECONDS,
  chunkKey,
  endIfComplete,
  jobView,
  MessageSchema,
  patchJob,
  rowSigningSecret,
  rowUrl,
  uploadKey,
  type ChunkRow,
  type JobRecord,
  type Message,
  type RowStatus,
} from './jobs.ts';
import { readChunk, storeResult } from './result.ts';
import { syncWarmCapacity, warmCapacityOwed } from './warm-capacity.ts';

/** Rows between two reads of the job's state (a cancel is seen within this many rows). */
const CANCEL_CHECK_ROWS = 5;

/**
 * The time a row may still need when the next one starts, ms: the render budget (8 s), the edge
 * warm-up ({@link EDGE_WARM_TIMEOUT_MS}) and the counting write, with room to spare. With less
 * left in the invocation, the chunk goes back to the queue at its cursor rather than being cut
 * by the Lambda timeout (whose message would come back, time out again, and reach the
 * dead-letter queue after its receives, leaving the job running for ever).
 */
export const CHUNK_RESERVE_MS = 30_000;

/** What the worker reads of the Lambda context: the time its invocation has left. */
export interface WorkerContext {
  getRemainingTimeInMillis(): number;
}

const ttl = () => Math.floor(Date.now() / 1000) + JOB_RETENTION_SECONDS;

async function getJob(jobId: string): Promise<JobRecord | null> {
  return (await db().SendListJob.get({ jobId }).go({ consistent: true })).data;
}

/** Queues a `rows` message for every chunk whose cursor has not reached its end. */
async function queueOpenChunks(jobId: string): Promise<void> {
  const { data } = await db().SendListChunk.query.byChunk({ jobId }).go({ pages: 'all' });
  const open = data.filter((c) => c.next < c.rows);
  await enqueue(
    'send-list',
    open.map((c) => ({ kind: 'rows', jobId, chunk: c.chunk })),
  );
}

/** Reads the file, writes its chunks and cursors, and queues them (see the module comment). */
async function prepare(jobId: string): Promise<void> {
  const job = await getJob(jobId);
  if (!job) return;
  // A redelivered prepare after the chunks were written: queue what is not finished again, and
  // schedule the warm capacity a failed or dead delivery left unscheduled.
  if (job.state === 'running' || job.state === 'done') {
    if (job.state === 'running') await queueOpenChunks(jobId);
    return warmForStart(jobId);
  }
  if (job.state !== 'queued') return;
  const object = await s3Client().send(
    new GetObjectCommand({ Bucket: config().ASSETS_BUCKET, Key: uploadKey(jobId) }),
  );
  const rows = readSendList(object.Body as Readable, {
    format: job.format,
    parameters: job.parameters,
    maxRows: job.maxRows,
    maxBytes: MAX_SEND_LIST_BYTES,
  });
  const seen = new Set<string>();
  let buffer: ChunkRow[] = [];
  let chunks = 0;
  let total = 0;
  let duplicates = 0;
  let fallbackRows = 0;
  let cutRows = 0;
  const flush = async () => {
    if (buffer.length === 0) return;
    await s3Client().send(
      new PutObjectCommand({
        Bucket: config().ASSETS_BUCKET,
        Key: chunkKey(jobId, chunks),
        Body: JSON.stringify(buffer),
        ContentType: 'application/json',
      }),
    );
    chunks++;
    buffer = [];
  };
  let report: SendListReport;
  try {
    for (;;) {
      const next = await rows.next();
      if (next.done) {
        report = next.value;
        break;
      }
      const row: SendListRow = next.value;
      const key = createHash('sha256').update(rowUrl(job, row.values)).digest('base64url');
      const duplicate = seen.has(key);
      seen.add(key);
      if (duplicate) duplicates++;
      else total++;
      if (job.parameters.some((p) => (row.values[p] ?? '').trim() === '')) fallbackRows++;
      if (row.cut.length > 0) cutRows++;
      buffer.push({
        line: row.line,
        ...(row.email ? { email: row.email } : {}),
        values: row.values,
        cut: row.cut,
        ...(duplicate ? { duplicate: true as const } : {}),
      });
      if (buffer.length === CHUNK_ROWS) await flush();
    }
    await flush();
  } catch (error) {
    if (!(error instanceof SendListFileError)) throw error;
    await patchJob(jobId, 'queued', {
      state: 'failed',
      error: error.message,
      finishedAt: new Date().toISOString(),
    });
    return;
  }
  // Cursors first (a redelivery must not reset one a worker already moved), then the job.
  for (let chunk = 0; chunk < chunks; chunk++) {
    const size = Math.min(CHUNK_ROWS, total + duplicates - chunk * CHUNK_ROWS);
    await db()
      .SendListChunk.create({ jobId, chunk, rows: size, ttl: ttl() })
      .go({ response: 'none' })
      .catch((error: unknown) => {
        if (!isConditionFailure(error)) throw error;
      });
  }
  const fileReport = {
    rows: report.rows,
    cut_values: report.cutValues,
    formula_values: report.formulaValues,
    unknown_columns: report.unknownColumns,
    skipped_empty_rows: report.skippedEmptyRows,
    fallback_rows: fallbackRows,
    cut_rows: cutRows,
    undrawable_rows: 0,
  };
  const moved = await patchJob(jobId, 'queued', {
    state: total === 0 ? 'done' : 'running',
    total,
    duplicates,
    chunks,
    report: JSON.stringify(fileReport),
    firstRowAt: Date.now(),
    ...(total === 0 ? { finishedAt: new Date().toISOString() } : {}),
  });
  if (moved && total > 0) await queueOpenChunks(jobId);
  if (moved) await warmForStart(jobId);
}

/**
 * Once the rows are counted: schedules warm capacity for the campaign start, read again so a
 * start changed while the file was read counts (docs/send-lists.md "Warm capacity before a
 * send"), unless it is scheduled already (warm-capacity.ts `warmCapacityOwed`: the record is
 * written only after the actions are put). The chunks are queued before this, so the rows
 * render either way.
 * @throws the refusal of Application Auto Scaling: the `prepare` message fails and the queue
 *   delivers it again, which schedules again under the same action names (at most
 *   `maxReceiveCount` times; then the dead-letter consumer leaves the running job alone).
 */
async function warmForStart(jobId: string): Promise<void> {
  const job = await getJob(jobId);
  if (!job || !warmCapacityOwed(job)) return;
  try {
    await syncWarmCapacity(job);
  } catch (error) {
    logger.warn('send-list: warm capacity not scheduled, the message comes back', {
      jobId,
      error: error as Error,
    });
    throw error;
  }
}

/** The time budget of the edge warm-up request, ms. */
const EDGE_WARM_TIMEOUT_MS = 10_000;

/**
 * In AWS: asks the CDN for a rendered URL once, so its Origin Shield holds the image for every
 * edge (docs/send-lists.md "The job"). The URL is the product's own (`PUBLIC_URL`, built by
 * `rowUrl`), never a host from the list; the body is not read. A failure is logged only: the
 * origin cache already holds the image.
 */
async function warmEdge(url: string): Promise<void> {
  if (config().STAGE !== 'aws') return;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(EDGE_WARM_TIMEOUT_MS) });
    await res.body?.cancel();
  } catch (error) {
    logger.warn('send-list: edge warm-up failed', { error: error as Error });
  }
}

/**
 * Renders one row through the real render path: drawn now, already cached, or failed.
 * @param secret signs the URL of a design that requires signed URLs (jobs.ts `rowSigningSecret`).
 */
async function renderRow(
  job: JobRecord,
  values: Record<string, string>,
  secret: string | null,
): Promise<'r' | 'c' | 'f'> {
  const url = rowUrl(job, values, null, secret);
  const { pathname, search } = new URL(url);
  const answer = await prerenderRequest(pathname, search.replace(/^\?/, ''));
  const hit = answer.headers?.['x-render-cache'];
  const outcome = hit === 'miss' ? 'r' : hit === 'memory' || hit === 'store' ? 'c' : 'f';
  if (outcome !== 'f') await warmEdge(url);
  return outcome;
}

/**
 * Renders a chunk from its cursor on (see the module comment). At least one row per call, so
 * every message moves the cursor; then, when `timeLeft()` is under {@link CHUNK_RESERVE_MS}, it
 * queues the chunk again and returns (test/integration/send-lists.test.ts "hands a chunk back").
 * @param timeLeft ms the invocation has left (Infinity where nothing cuts it: the local poller).
 */
async function renderChunk(jobId: string, chunk: number, timeLeft: () => number): Promise<void> {
  let job = await getJob(jobId);
  if (!job || job.state !== 'running') return;
  const cursor = (await db().SendListChunk.get({ jobId, chunk }).go({ consistent: true })).data;
  if (!cursor || cursor.next >= cursor.rows) return;
  const rows = await readChunk(jobId, chunk);
  const design = (await db().Design.get({ designId: job.designId }).go()).data;
  const undrawable = design
    ? await undrawableRows(parseDesignDocument(design.document), design.teamId)
    : () => false;
  const secret = design ? await rowSigningSecret(job.teamId, design.document) : null;
  let statuses = cursor.statuses;
  for (let i = cursor.next; i < rows.length; i++) {
    if (i > cursor.next && timeLeft() < CHUNK_RESERVE_MS) {
      await enqueue('send-list', [{ kind: 'rows', jobId, chunk }]);
      return;
    }
    if ((i - cursor.next) % CANCEL_CHECK_ROWS === CANCEL_CHECK_ROWS - 1) {
      job = await getJob(jobId);
      if (!job || job.state !== 'running') return;
    }
    const row = rows[i]!;
    let status: RowStatus = 'd';
    if (!row.duplicate) {
      const outcome = await renderRow(job, row.values, secret);
      status = undrawable(row.values) ? (outcome.toUpperCase() as RowStatus) : outcome;
    }
    const counter = { r: 'rendered', c: 'cached', f: 'failed' }[status.toLowerCase()] as
      'rendered' | 'cached' | 'failed' | undefined;
    const { canceled } = await db()
      .service.transaction.write(({ SendListChunk, SendListJob }) => [
        SendListChunk.patch({ jobId, chunk })
          .set({ next: i + 1, statuses: statuses + status })
          .where((a, op) => op.eq(a.next, i))
          .commit(),
        ...(counter
          ? [
              SendListJob.patch({ jobId })
                .add({ [counter]: 1, undrawable: status === status.toUpperCase() ? 1 : 0 })
                .commit(),
            ]
          : []),
      ])
      .go();
    if (canceled) {
      // Another delivery of this message moved the cursor: it goes on from there. Otherwise the
      // transaction lost a race (a conflict): the message comes back and resumes at the cursor.
      const now = (await db().SendListChunk.get({ jobId, chunk }).go({ consistent: true })).data;
      if (now && now.next > i) return;
      throw new Error(`send-list ${jobId} chunk ${chunk}: row ${i} not counted, retrying`);
    }
    statuses += status;
  }
  // Only the worker that ends the job tells the team's webhooks (docs/developer-api.md).
  const ended = await endIfComplete(jobId);
  if (ended) {
    // The plain download, built here rather than in the API's 29 s (docs/send-lists.md).
    await storeResult(ended, null, secret).catch((error: unknown) =>
      logger.warn('send-list: result not written, the download builds it', {
        jobId,
        error: error as Error,
      }),
    );
    await emitWebhookEvent(ended.teamId, 'send_list.finished', { send_list: jobView(ended) });
  }
}

/** Does one message's work. */
async function run(message: Message, timeLeft: () => number): Promise<void> {
  if (message.kind === 'prepare') await prepare(message.jobId);
  else await renderChunk(message.jobId, message.chunk, timeLeft);
}

/**
 * The queue worker: each record's message in turn.
 * @returns the records that failed (`batchItemFailures`), delivered again by the queue; a
 *   message that is not one of the two shapes is logged and dropped, never retried.
 */
export const handler = async (
  event: SQSEvent,
  context?: WorkerContext,
): Promise<SQSBatchResponse> => {
  const timeLeft = context ? () => context.getRemainingTimeInMillis() : () => Infinity;
  return eachRecord(event, async (record) => {
    let message: Message;
    try {
      message = MessageSchema.parse(JSON.parse(record.body));
    } catch (error) {
      logger.error('send-list: unreadable message dropped', { error: error as Error });
      return;
    }
    try {
      await run(message, timeLeft);
    } catch (error) {
      logger.warn('send-list: message failed, it will come back', {
        kind: message.kind,
        jobId: message.jobId,
        error: error as Error,
      });
      throw error;
    }
  });
};
