/**
 * The local stack's queue poller (docs/decisions.md "Queues"): what SQS's event source mapping
 * does in AWS, over the local queue on DynamoDB Local (functions/lib/queue.ts `localQueue`).
 * Each of a queue's loops (its `maxConcurrency`, shared/queues.ts) leases up to `batchSize` due
 * messages, calls the worker handler with an SQSEvent of the same shape, deletes the messages
 * that succeeded and leaves the rest to reappear when their visibility timeout ends; a message
 * received `maxReceiveCount` times moves to the dead letters. Nothing is held in memory: a poller
 * that dies (or is stopped with `kill`) leaves its leased messages to the next one.
 * test/integration/queue.test.ts.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
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

export interface PollerOptions {
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

  const loop = async (): Promise<void> => {
    while (state === 'running') {
      let leased: Awaited<ReturnType<typeof localQueue.lease>> = [];
      try {
        leased = await localQueue.lease(queue, batchSize, visibilityMs, maxReceiveCount);
      } catch (error) {
        logger.warn('local queue: lease failed', { queue, error: error as Error });
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

  const loops = Array.from({ length: options.concurrency ?? q.maxConcurrency }, () => loop());
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
  for (const [queue, load] of Object.entries(WORKERS))
    pollers.push(startQueuePoller(queue as QueueName, await load()));
  return {
    stop: async () => {
      await Promise.all(pollers.map((p) => p.stop()));
    },
    kill: () => pollers.forEach((p) => p.kill()),
  };
}
