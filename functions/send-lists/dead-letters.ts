/**
 * The send-list dead-letter consumer (docs/send-lists.md "States"): a message of the `send-list`
 * queue that failed every receive (shared/queues.ts `maxReceiveCount`) reaches the dead-letter
 * queue, and this handler gives its work up so the job ends instead of running for ever. In AWS
 * it is a Lambda on the dead-letter queue (infra/constructs/send-lists.ts); locally the queue
 * poller hands it the local queue's dead letters (infra/local/queue-poller.ts).
 *
 * - `rows`: the chunk's rows from its cursor on count as failed (status `f` in the download), in
 *   one transaction with the cursor moved to the chunk's end, and the job's `error` says which
 *   lines were given up; the job then ends as `failed` once every row is counted, here or by the
 *   worker that finishes the last chunk, and tells the team's webhooks as a finished job does.
 * - `prepare`: a job still `queued` fails with the reason.
 * Idempotent: a second delivery finds the cursor at its end or the job no longer running.
 * test/integration/send-lists.test.ts "a chunk that keeps failing".
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { db } from '#lib/db/index.ts';
import { logger } from '#lib/logger.ts';
import { eachRecord } from '#lib/sqs-batch.ts';
import { emitWebhookEvent } from '#domain/webhooks.ts';
import { QUEUES } from '#shared/queues.ts';
import { readChunk } from './result.ts';
import { endIfComplete, jobView, MessageSchema, patchJob, type JobRecord } from './jobs.ts';

const ATTEMPTS = QUEUES['send-list'].maxReceiveCount;

/** The job's reason when a chunk's rows were given up (shown on the export screen). */
export const givenUpMessage = (count: number, first: number, last: number): string =>
  `${count} ${count === 1 ? 'row' : 'rows'} (${first === last ? `line ${first}` : `lines ${first}–${last}`}) ` +
  `could not be pre-rendered after ${ATTEMPTS} attempts and count as failed; ` +
  'the other rows were pre-rendered. Upload the list again to retry them.';

/** The job's reason when its file could not be read into chunks. */
const UNREAD_MESSAGE = `The list could not be read after ${ATTEMPTS} attempts. Upload it again to retry.`;

const readJson = (body: string): unknown => {
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
};

async function told(ended: JobRecord | null): Promise<void> {
  if (ended)
    await emitWebhookEvent(ended.teamId, 'send_list.finished', { send_list: jobView(ended) });
}

/** Gives up a chunk's rows from its cursor on (see the module comment). */
async function giveUpChunk(jobId: string, chunk: number): Promise<void> {
  const job = (await db().SendListJob.get({ jobId }).go({ consistent: true })).data;
  if (!job || job.state !== 'running') return;
  const cursor = (await db().SendListChunk.get({ jobId, chunk }).go({ consistent: true })).data;
  if (cursor && cursor.next < cursor.rows) {
    const left = cursor.rows - cursor.next;
    // The file's line numbers, when the chunk can still be read (it may be what kept failing).
    const rows = await readChunk(jobId, chunk).catch(() => null);
    const rest = rows?.slice(cursor.next, cursor.rows) ?? [];
    const lines = rest.map((r) => r.line);
    // A duplicate row is never rendered: it keeps its status and is not a failure.
    const letters = rows ? rest.map((r) => (r.duplicate ? 'd' : 'f')).join('') : 'f'.repeat(left);
    const given = [...letters].filter((l) => l === 'f').length;
    const error = givenUpMessage(
      left,
      lines[0] ?? cursor.next + 1,
      lines.at(-1) ?? cursor.next + left,
    );
    const { canceled } = await db()
      .service.transaction.write(({ SendListChunk, SendListJob }) => [
        SendListChunk.patch({ jobId, chunk })
          .set({ next: cursor.rows, statuses: cursor.statuses + letters })
          .where((a, op) => op.eq(a.next, cursor.next))
          .commit(),
        SendListJob.patch({ jobId }).add({ failed: given }).set({ error }).commit(),
      ])
      .go();
    // Another delivery (or a late worker) moved the cursor first: it is counted there.
    if (canceled) throw new Error(`send-list ${jobId} chunk ${chunk}: cursor moved, retrying`);
  }
  await told(await endIfComplete(jobId));
}

/** Fails a job whose file was never read into chunks. */
async function giveUpPrepare(jobId: string): Promise<void> {
  const finishedAt = new Date().toISOString();
  if (!(await patchJob(jobId, 'queued', { state: 'failed', error: UNREAD_MESSAGE, finishedAt })))
    return;
  const job = (await db().SendListJob.get({ jobId }).go({ consistent: true })).data;
  if (job) await told(job);
}

/**
 * The dead-letter queue's handler: each record's message given up in turn.
 * @returns the records that failed (`batchItemFailures`: a table error), delivered again; an
 *   unreadable message is logged and dropped.
 */
export const handler = (event: SQSEvent): Promise<SQSBatchResponse> =>
  eachRecord(event, async (record) => {
    const parsed = MessageSchema.safeParse(readJson(record.body));
    if (!parsed.success) {
      logger.error('send-list dead letter unreadable: dropped', { messageId: record.messageId });
      return;
    }
    const message = parsed.data;
    logger.warn('send-list message given up after its receives', {
      kind: message.kind,
      jobId: message.jobId,
    });
    try {
      if (message.kind === 'rows') await giveUpChunk(message.jobId, message.chunk);
      else await giveUpPrepare(message.jobId);
    } catch (error) {
      logger.warn('send-list dead letter not handled: it comes back', { error: error as Error });
      throw error;
    }
  });
