/**
 * The message queues as plain data, read by the CDK stack (SQS queue, dead-letter queue, alarm,
 * worker event source) and by the local stack's DynamoDB-backed queue
 * (infra/local/queue-poller.ts), so both run a queue with the same visibility timeout, receive
 * limit and batch size (docs/adr/0051-queues.md "Queues").
 */

export type QueueName = 'send-list' | 'webhooks' | 'render-invalidations';

export interface QueueDefinition {
  name: QueueName;
  /** What its messages are. */
  purpose: string;
  /**
   * Seconds a received message stays hidden before it is delivered again (it was not deleted:
   * the worker failed or died). At least the worker's timeout, as SQS requires.
   */
  visibilityTimeoutSeconds: number;
  /** Receives before a message moves to the dead-letter queue. */
  maxReceiveCount: number;
  /** Messages per worker invocation (SQS event source batch size; 1–10). */
  batchSize: number;
  /** The worker's timeout, seconds. */
  workerTimeoutSeconds: number;
  /**
   * Concurrent workers at most (Lambda reserved concurrency; the local poller's parallel
   * loops), so a long queue cannot take the account's concurrency from live renders.
   */
  maxConcurrency: number;
}

export const QUEUES: Record<QueueName, QueueDefinition> = {
  'send-list': {
    name: 'send-list',
    purpose: 'row ranges of a send list to pre-render (docs/send-lists.md)',
    visibilityTimeoutSeconds: 360,
    maxReceiveCount: 5,
    batchSize: 1,
    workerTimeoutSeconds: 300,
    maxConcurrency: 4,
  },
  webhooks: {
    name: 'webhooks',
    purpose: 'webhook deliveries',
    visibilityTimeoutSeconds: 120,
    maxReceiveCount: 5,
    batchSize: 10,
    workerTimeoutSeconds: 60,
    maxConcurrency: 4,
  },
  'render-invalidations': {
    name: 'render-invalidations',
    purpose:
      'a team\'s render URLs invalidated again once the render\'s kept team settings have expired (docs/adr/0057-watermark.md "Watermark")',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    batchSize: 10,
    workerTimeoutSeconds: 30,
    maxConcurrency: 2,
  },
};

/** The environment variable that holds a queue's SQS URL in AWS: `QUEUE_URL_SEND_LIST`, … */
export const queueUrlVariable = (queue: QueueName): string =>
  `QUEUE_URL_${queue.toUpperCase().replaceAll('-', '_')}`;
