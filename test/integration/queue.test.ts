/**
 * The local queue (functions/lib/queue.ts, infra/local/queue-poller.ts; docs/adr/0051-queues.md
 * "Queues") on DynamoDB Local: what SQS with its event source mapping does in AWS.
 *
 * @own-stack: an empty table and no queue pollers: the test drives the queue itself.
 */
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { enqueue, localQueue } from '#lib/queue.ts';
import { startQueuePoller } from '#infra/local/queue-poller.ts';
import { pollUntil, useLocalStack } from '../support/stack.ts';

useLocalStack({ warmChromium: false, seed: false, queues: false });

/** A worker that records what it gets and answers as `decide` says (true = failed). */
function recorder(decide: (r: SQSRecord) => boolean = () => false) {
  const received: SQSRecord[] = [];
  const worker = async (event: SQSEvent) => {
    received.push(...event.Records);
    return {
      batchItemFailures: event.Records.filter(decide).map((r) => ({ itemIdentifier: r.messageId })),
    };
  };
  return { received, worker };
}

describe('the local queue', () => {
  it('delivers every message once in batches and deletes the ones that succeeded', async () => {
    await enqueue(
      'webhooks',
      Array.from({ length: 25 }, (_, i) => ({ n: i })),
    );
    expect(await localQueue.depth('webhooks')).toBe(25);
    const { received, worker } = recorder();
    const poller = startQueuePoller('webhooks', worker, { concurrency: 2, idleMs: 20 });
    await pollUntil(
      'all delivered',
      () => localQueue.depth('webhooks'),
      (d) => d === 0,
    );
    await poller.stop();
    const bodies = received
      .map((r) => (JSON.parse(r.body) as { n: number }).n)
      .sort((a, b) => a - b);
    expect(bodies).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(received.every((r) => r.eventSource === 'aws:sqs')).toBe(true);
    expect(received.every((r) => r.attributes.ApproximateReceiveCount === '1')).toBe(true);
  });

  it('hides a leased message until its visibility timeout, then delivers it again', async () => {
    await enqueue('webhooks', [{ retry: 'me' }]);
    const [first] = await localQueue.lease('webhooks', 10, 60_000);
    expect(first?.record.body).toBe('{"retry":"me"}');
    expect(await localQueue.lease('webhooks', 10, 60_000)).toEqual([]);
    // A worker that fails it once: it comes back after the (short) timeout and succeeds.
    const id = first!.record.messageId;
    await localQueue.remove('webhooks', id, first!.receiptHandle);
    await enqueue('webhooks', [{ retry: 'again' }]);
    const { received, worker } = recorder((r) => r.attributes.ApproximateReceiveCount === '1');
    const poller = startQueuePoller('webhooks', worker, { visibilityMs: 300, idleMs: 20 });
    await pollUntil(
      'redelivered and deleted',
      () => localQueue.depth('webhooks'),
      (d) => d === 0,
    );
    await poller.stop();
    expect(received.map((r) => [r.body, r.attributes.ApproximateReceiveCount])).toEqual([
      ['{"retry":"again"}', '1'],
      ['{"retry":"again"}', '2'],
    ]);
  });

  it('moves a message that keeps failing to the dead letters after maxReceiveCount', async () => {
    await enqueue('webhooks', [{ poison: true }]);
    const { received, worker } = recorder(() => true);
    const poller = startQueuePoller('webhooks', worker, {
      visibilityMs: 100,
      maxReceiveCount: 3,
      idleMs: 20,
    });
    const dead = await pollUntil(
      'dead-lettered',
      () => localQueue.deadLetters('webhooks'),
      (d) => d.length === 1,
    );
    await poller.stop();
    expect(dead[0]).toMatchObject({ body: '{"poison":true}', receiveCount: 3 });
    expect(received).toHaveLength(3);
    expect(await localQueue.depth('webhooks')).toBe(0);
  });

  it('treats a worker that throws as a failure of its whole batch', async () => {
    await enqueue('webhooks', [{ a: 1 }, { a: 2 }]);
    let calls = 0;
    const poller = startQueuePoller(
      'webhooks',
      async (event) => {
        calls++;
        if (event.Records.some((r) => r.attributes.ApproximateReceiveCount === '1'))
          throw new Error('worker crashed');
        return { batchItemFailures: [] };
      },
      { visibilityMs: 200, batchSize: 10, concurrency: 1, idleMs: 20 },
    );
    await pollUntil(
      'delivered after the crash',
      () => localQueue.depth('webhooks'),
      (d) => d === 0,
    );
    await poller.stop();
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(await localQueue.deadLetters('webhooks')).toHaveLength(1); // the poison one above
  });

  it('keeps the messages of a killed poller and finishes them with the next one', async () => {
    await enqueue('send-list', [{ job: 'j1', from: 0 }]);
    let hung: SQSRecord | undefined;
    const first = startQueuePoller(
      'send-list',
      async (event) => {
        hung = event.Records[0];
        return new Promise(() => undefined); // never answers: the process dies holding it
      },
      { visibilityMs: 300, idleMs: 20 },
    );
    await pollUntil(
      'leased by the first poller',
      async () => hung,
      (h) => h !== undefined,
    );
    first.kill();
    expect(await localQueue.depth('send-list')).toBe(1);

    const { received, worker } = recorder();
    const second = startQueuePoller('send-list', worker, { visibilityMs: 300, idleMs: 20 });
    await pollUntil(
      'finished by the second',
      () => localQueue.depth('send-list'),
      (d) => d === 0,
    );
    await second.stop();
    expect(received.map((r) => [r.body, r.attributes.ApproximateReceiveCount])).toEqual([
      ['{"job":"j1","from":0}', '2'],
    ]);
    // The dead poller's lease can no longer delete anything.
    expect(await localQueue.remove('send-list', hung!.messageId, hung!.receiptHandle)).toBe(false);
  });

  it('holds delayed messages back and refuses bodies over 256 KiB before sending any', async () => {
    await enqueue('send-list', [{ later: true }], { delaySeconds: 60 });
    expect(await localQueue.lease('send-list', 10, 1000)).toEqual([]);
    expect(await localQueue.depth('send-list')).toBe(1);
    await expect(enqueue('send-list', [{ ok: 1 }, 'x'.repeat(300 * 1024)])).rejects.toThrow(
      /over 256 KiB/,
    );
    expect(await localQueue.depth('send-list')).toBe(1);
  });
});
