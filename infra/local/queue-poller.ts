/**
 * The local stack's queue poller (docs/adr/0051-queues.md "Queues"): what SQS's event source
 * mapping does in AWS, over the local queue on DynamoDB Local (functions/lib/queue.ts
 * `localQueue`). Each of a queue's loops (its `maxConcurrency`, shared/queues.ts) leases up to
 * `batchSize` due messages, calls the worker handler with an SQSEvent of the same shape, deletes
 * the messages that succeeded and leaves the rest to reappear when their visibility timeout ends; a
 * message received `maxReceiveCount` times moves to the dead letters, which the queue's dead-letter
 * consumer (if it has one: {@link DEAD_LETTER_WORKERS}) is then handed, as the Lambda on the
 * dead-letter queue is in AWS. Nothing is held in memory: a poller that dies (or is stopped with
 * `kill`) leaves its leased messages to the next one. test/integration/queue.test.ts.
 */
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { localQueue } from '#lib/queue.ts';
import { logger } from '#lib/logger.ts';
import { QUEUES, type QueueName } from '#shared/queues.ts';

/** A queue worker: a plain SQS handler with partial batch failure reporting. */
export type QueueWorker = (event: SQSEvent) => Promise<SQSBatchResponse | void>;

/** The worker of each queue the local stack polls (the Lambda the CDK stack maps to it). */
const WORKERS: Partial<Record<QueueName, () => Promise<QueueWorker>>> = {
  'send-list': async () => (await import('#functions/send-lists/worker.ts')).handler,
  webhooks: async () => (await import('#functions/webhooks/worker.ts')).handler,
  'render-invalidations': async () =>
    (await import('#functions/designs/render-invalidation-worker.ts')).handler,
};

/**
 * The consumer of each queue's dead letters, where the CDK stack has one (a Lambda on the
 * dead-letter queue): a message that failed every receive is given up there.
 */
const DEAD_LETTER_WORKERS: Partial<Record<QueueName, () => Promise<QueueWorker>>> = {
  'send-list': async () => (await import('#functions/send-lists/dead-letters.ts')).handler,
};

/** Dead letters handed to the consumer at once (the dead-letter event source's batch). */
const DEAD_LETTER_BATCH = 10;

export interface PollerOptions {
  /**
   * Handles the queue's dead letters; each it does not report failed is deleted. Only the
   * first loop hands them over, so none is handled twice at once. Default: none.
   */
  deadLetterWorker?: QueueWorker;
  /** Lease time of a received message, ms. Default: the queue's visibility timeout. */
  visibilityMs?: number;
  /** Receives before a message is a dead letter. Default: the queue's. */
  maxReceiveCount?: number;
  /** Messages per handler call. Default: the queue's batch size. */
  batchSize?: number;
  /** Parallel loops. Default: the queue's maximum concurrency. */
  concurrency?: number;
  /** Wait after an empty poll, ms (default 200). */
  idleMs?: number;
}

export interface QueuePoller {
  /** Stops leasing and waits for the handler calls under way to finish (and their deletes). */
  stop(): Promise<void>;
  /**
   * Stops at once, as a crashed process would: handler calls under way are abandoned, their
   * messages stay leased until the visibility timeout, and nothing is deleted after this.
   */
  kill(): void;
}

/**
 * The longest wait between two failed leases, ms: the wait doubles from `idleMs` while the
 * table does not answer (DynamoDB Local down), so a stack whose database died does not retry
 * hundreds of times a minute, and picks up within this once it is back
 * (docs/adr/0068-failed-page-loads.md "Failed page loads").
 */
const LEASE_RETRY_MAX_MS = 5_000;

/**
 * Polls one queue with `worker` until stopped.
 * @returns the poller; its loops log handler errors and go on (the messages come back).
 */
export function startQueuePoller(
  queue: QueueName,
  worker: QueueWorker,
  options: PollerOptions = {},
): QueuePoller {
  const q = QUEUES[queue];
  const visibilityMs = options.visibilityMs ?? q.visibilityTimeoutSeconds * 1000;
  const maxReceiveCount = options.maxReceiveCount ?? q.maxReceiveCount;
  const batchSize = options.batchSize ?? q.batchSize;
  const idleMs = options.idleMs ?? 200;
  let state: 'running' | 'stopping' | 'killed' = 'running';
  // A function, so the loop re-reads the state a concurrent kill() set after its await.
  const isKilled = () => state === 'killed';
  const isRunning = () => state === 'running';
  const wakers = new Set<() => void>();
  const sleep = (ms: number) =>
    new Promise<void>((done) => {
      const wake = () => {
        clearTimeout(t);
        wakers.delete(wake);
        done();
      };
      const t = setTimeout(wake, ms);
      wakers.add(wake);
    });
  const wakeAll = () => [...wakers].forEach((w) => w());

  /** Hands the dead letters to their consumer; true when there were any. */
  const drainDeadLetters = async (dead: QueueWorker): Promise<boolean> => {
    try {
      const letters = (await localQueue.deadLetters(queue)).slice(0, DEAD_LETTER_BATCH);
      if (letters.length === 0) return false;
      const base = deadLetterRecord(queue);
      const records = letters.map((l) => ({
        ...base,
        messageId: l.messageId,
        receiptHandle: l.messageId,
        body: l.body,
      }));
      const result = await dead({ Records: records });
      const failed = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
      for (const l of letters)
        if (!failed.has(l.messageId)) await localQueue.removeDeadLetter(queue, l.messageId);
      return true;
    } catch (error) {
      logger.warn('local queue: dead-letter consumer failed', { queue, error: error as Error });
      return false;
    }
  };

  const loop = async (first: boolean): Promise<void> => {
    /** Leases failed in a row (the table unreachable): each waits longer, see LEASE_RETRY_MAX_MS. */
    let leaseFailures = 0;
    while (state === 'running') {
      if (first && options.deadLetterWorker && (await drainDeadLetters(options.deadLetterWorker)))
        continue;
      let leased: Awaited<ReturnType<typeof localQueue.lease>>;
      try {
        leased = await localQueue.lease(queue, batchSize, visibilityMs, maxReceiveCount);
        leaseFailures = 0;
      } catch (error) {
        // A lease that fails once the stack is stopping is the stop's (a terminal's Ctrl-C ends
        // DynamoDB Local too): no warning.
        if (!isRunning()) return;
        leaseFailures = Math.min(leaseFailures + 1, 1000);
        // The first failure and then one in 30 are logged: a table down is one line, not hundreds.
        if (leaseFailures % 30 === 1)
          logger.warn('local queue: lease failed', { queue, leaseFailures, error: error as Error });
        await sleep(Math.min(idleMs * 2 ** Math.min(leaseFailures, 10), LEASE_RETRY_MAX_MS));
        continue;
      }
      if (leased.length === 0) {
        await sleep(idleMs);
        continue;
      }
      let failed: Set<string>;
      try {
        const result = await worker({ Records: leased.map((m) => m.record) });
        failed = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
      } catch (error) {
        logger.warn('local queue: worker failed', { queue, error: error as Error });
        failed = new Set(leased.map((m) => m.record.messageId));
      }
      if (isKilled()) return;
      for (const m of leased) {
        if (failed.has(m.record.messageId)) continue;
        await localQueue
          .remove(queue, m.record.messageId, m.receiptHandle)
          .catch((error: unknown) =>
            logger.warn('local queue: delete failed', { queue, error: error as Error }),
          );
      }
    }
  };

  const loops = Array.from({ length: options.concurrency ?? q.maxConcurrency }, (_, i) =>
    loop(i === 0),
  );
  return {
    stop: async () => {
      if (state === 'running') state = 'stopping';
      wakeAll();
      await Promise.all(loops);
    },
    kill: () => {
      state = 'killed';
      wakeAll();
    },
  };
}

/**
 * Starts a poller for every queue with a local worker (the local stack does, unless told not).
 * @returns one poller that stops them all.
 */
export async function startQueuePollers(): Promise<QueuePoller> {
  const pollers: QueuePoller[] = [];
  for (const [queue, load] of Object.entries(WORKERS)) {
    const dead = DEAD_LETTER_WORKERS[queue as QueueName];
    pollers.push(
      startQueuePoller(queue as QueueName, await load(), {
        ...(dead ? { deadLetterWorker: await dead() } : {}),
      }),
    );
  }
  return {
    stop: async () => {
      await Promise.all(pollers.map((p) => p.stop()));
    },
    kill: () => pollers.forEach((p) => p.kill()),
  };
}

/** The fields of a dead letter's SQS record that do not depend on the message. */
function deadLetterRecord(
  queue: QueueName,
): Omit<SQSRecord, 'messageId' | 'receiptHandle' | 'body'> {
  const region = process.env.AWS_REGION ?? 'us-east-1';
  const now = String(Date.now());
  return {
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: now,
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: now,
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:${region}:000000000000:picsnippets-local-${queue}-dead`,
    awsRegion: region,
  };
}
