/**
 * The queue seam (docs/adr/0051-queues.md "Queues"): work that outlives a request (a send list's
 * row ranges, webhook deliveries) goes onto a named queue and is done by a worker, a plain SQS
 * handler `(event: SQSEvent) => Promise<SQSBatchResponse>` reporting partial batch failures.
 *
 * In AWS (STAGE `aws`) messages go to SQS, whose event source mapping invokes the worker. Every
 * other stage keeps them in the local queue: items of the main table on DynamoDB Local with a
 * visibility deadline and a receive count, leased by the local stack's poller
 * (infra/local/queue-poller.ts) with conditional updates, so a message outlives a worker or a
 * process that dies holding it. The poller's lease, delete and dead-letter steps live here,
 * beside the item format they share with {@link enqueue}. test/integration/queue.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSRecord } from 'aws-lambda';
import { QUEUES, queueUrlVariable, type QueueName } from '#shared/queues.ts';
import { TABLE } from '#shared/resources.ts';
import { documentClient } from './clients.ts';
import { config, type Config } from './config.ts';
import { traced } from './tracing.ts';

export type { QueueName } from '#shared/queues.ts';

/** SQS's limit of one message body, bytes (UTF-8). */
const MAX_BODY_BYTES = 256 * 1024;
/** SQS's limit of entries in one SendMessageBatch. */
const BATCH_ENTRIES = 10;
/** SQS's longest delivery delay, s. */
const MAX_DELAY_SECONDS = 900;
/** How long the local queue keeps a message or a dead letter, s (SQS's longest retention). */
const RETENTION_SECONDS = 14 * 24 * 3600;
/** Sends of one batch SQS refused before enqueue gives up (its own retries come first). */
const SEND_ATTEMPTS = 3;

let sqs: SQSClient | undefined;
const sqsClient = (): SQSClient => {
  sqs ??= traced(new SQSClient({ region: config().AWS_REGION }));
  return sqs;
};

/** Splits serialised bodies into batches of at most 10 entries and 256 KiB. */
function batches(bodies: readonly string[]): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  let bytes = 0;
  for (const body of bodies) {
    const size = Buffer.byteLength(body);
    if (current.length === BATCH_ENTRIES || (current.length > 0 && bytes + size > MAX_BODY_BYTES)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(body);
    bytes += size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/**
 * Sends messages to a queue, in batches of 10 (and at most 256 KiB a batch).
 * AWS: SQS SendMessageBatch to the URL in env `QUEUE_URL_<NAME>` (entries SQS refuses are sent
 * again, up to 3 times); elsewhere: the local queue on DynamoDB Local.
 * @param bodies JSON-serialisable message bodies, each at most 256 KiB serialised
 * @param options.delaySeconds hide the messages this long first, s (0–900; default 0)
 * @throws RangeError for a body over 256 KiB or a delay outside 0–900 s, before anything is
 *   sent; Error when the queue URL is not configured in AWS or SQS keeps refusing an entry
 *   (earlier batches stay sent: callers make their messages idempotent).
 */
export async function enqueue(
  queue: QueueName,
  bodies: readonly unknown[],
  options: { delaySeconds?: number } = {},
): Promise<void> {
  const delaySeconds = options.delaySeconds ?? 0;
  if (!Number.isInteger(delaySeconds) || delaySeconds < 0 || delaySeconds > MAX_DELAY_SECONDS)
    throw new RangeError(`delaySeconds must be a whole number of seconds from 0 to 900`);
  const serialised = bodies.map((b) => JSON.stringify(b));
  for (const body of serialised)
    if (Buffer.byteLength(body) > MAX_BODY_BYTES)
      throw new RangeError(`A ${queue} message is over 256 KiB (${Buffer.byteLength(body)} bytes)`);
  const c = config();
  if (c.STAGE !== 'aws') {
    for (const body of serialised) await localQueue.send(queue, body, delaySeconds * 1000);
    return;
  }
  const url = c[queueUrlVariable(queue) as keyof Config] as string | undefined;
  if (!url) throw new Error(`${queueUrlVariable(queue)} is not set`);
  for (const batch of batches(serialised)) {
    let entries = batch.map((MessageBody, i) => ({
      Id: String(i),
      MessageBody,
      ...(delaySeconds ? { DelaySeconds: delaySeconds } : {}),
    }));
    for (let attempt = 1; entries.length > 0; attempt++) {
      const { Failed = [] } = await sqsClient().send(
        new SendMessageBatchCommand({ QueueUrl: url, Entries: entries }),
      );
      const failed = new Set(Failed.map((f) => f.Id));
      entries = entries.filter((e) => failed.has(e.Id));
      if (entries.length > 0 && attempt >= SEND_ATTEMPTS)
        throw new Error(
          `SQS refused ${entries.length} ${queue} message(s): ${Failed.map((f) => f.Code).join(', ')}`,
        );
    }
  }
}

/** A message leased from the local queue: the SQS record its worker gets. */
export interface LeasedMessage {
  record: SQSRecord;
  /** The lease's own handle: only it deletes the message (a later lease gets another). */
  receiptHandle: string;
}

const partition = (queue: QueueName) => `queue#${queue}`;
const deadPartition = (queue: QueueName) => `queue#${queue}#dead`;
/** The queue's index partition; its sort key orders messages by when they are visible. */
const INDEX = TABLE.globalSecondaryIndexes[2]!; // gsi3
const visibleKey = (ms: number, id: string) => `vis#${String(ms).padStart(15, '0')}#${id}`;
const ttl = () => Math.floor(Date.now() / 1000) + RETENTION_SECONDS;

/** A message item of the local queue (its table item). */
export interface MessageItem {
  pk: string;
  sk: string;
  id: string;
  body: string;
  sentAt: number;
  visibleAt: number;
  receiveCount: number;
  firstReceivedAt?: number;
  receipt?: string;
}

/**
 * The local queue's steps on the main table (DynamoDB Local), one item per message:
 * pk `queue#<name>`, sk `msg#<id>`, and on gsi3 `queue#<name>` / `vis#<visibleAt ms>#<id>`, so the
 * poller finds due messages with one query. Dead letters move to pk `queue#<name>#dead`.
 */
export const localQueue = {
  /** Adds one message, visible after `delayMs`. */
  async send(queue: QueueName, body: string, delayMs = 0): Promise<void> {
    const id = randomUUID();
    const at = Date.now();
    await documentClient().send(
      new PutCommand({
        TableName: config().TABLE_NAME,
        Item: {
          pk: partition(queue),
          sk: `msg#${id}`,
          [INDEX.partitionKey]: partition(queue),
          [INDEX.sortKey]: visibleKey(at + delayMs, id),
          id,
          body,
          sentAt: at,
          visibleAt: at + delayMs,
          receiveCount: 0,
          [TABLE.ttlAttribute]: ttl(),
        },
      }),
    );
  },

  /**
   * Leases up to `max` due messages for `visibilityMs`: each is taken by a conditional update
   * (still due, so two pollers never both take one) that counts the receive. A message already
   * received `maxReceiveCount` times moves to the dead letters instead.
   * @returns the leased messages as SQS records (ApproximateReceiveCount counts this receive)
   */
  async lease(
    queue: QueueName,
    max: number,
    visibilityMs: number,
    maxReceiveCount = QUEUES[queue].maxReceiveCount,
  ): Promise<LeasedMessage[]> {
    const now = Date.now();
    const table = config().TABLE_NAME;
    const { Items = [] } = await documentClient().send(
      new QueryCommand({
        TableName: table,
        IndexName: INDEX.indexName,
        KeyConditionExpression: '#p = :p AND #s <= :s',
        ExpressionAttributeNames: { '#p': INDEX.partitionKey, '#s': INDEX.sortKey },
        ExpressionAttributeValues: { ':p': partition(queue), ':s': visibleKey(now, '~') },
        Limit: max * 2,
      }),
    );
    const leased: LeasedMessage[] = [];
    for (const item of Items as MessageItem[]) {
      if (leased.length >= max) break;
      if (item.receiveCount >= maxReceiveCount) {
        await this.deadLetter(queue, item);
        continue;
      }
      const receipt = randomUUID();
      const until = now + visibilityMs;
      try {
        const { Attributes } = await documentClient().send(
          new UpdateCommand({
            TableName: table,
            Key: { pk: item.pk, sk: item.sk },
            UpdateExpression:
              'SET visibleAt = :until, #s = :vis, receipt = :r, firstReceivedAt = if_not_exists(firstReceivedAt, :now) ADD receiveCount :one',
            ConditionExpression: 'attribute_exists(pk) AND visibleAt <= :now',
            ExpressionAttributeNames: { '#s': INDEX.sortKey },
            ExpressionAttributeValues: {
              ':until': until,
              ':vis': visibleKey(until, item.id),
              ':r': receipt,
              ':now': now,
              ':one': 1,
            },
            ReturnValues: 'ALL_NEW',
          }),
        );
        const m = Attributes as MessageItem;
        leased.push({ receiptHandle: receipt, record: sqsRecord(queue, m, receipt) });
      } catch (error) {
        if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
      }
    }
    return leased;
  },

  /** Deletes a message its lease finished; false when that lease had run out and another took it. */
  async remove(queue: QueueName, messageId: string, receiptHandle: string): Promise<boolean> {
    try {
      await documentClient().send(
        new DeleteCommand({
          TableName: config().TABLE_NAME,
          Key: { pk: partition(queue), sk: `msg#${messageId}` },
          ConditionExpression: 'receipt = :r',
          ExpressionAttributeValues: { ':r': receiptHandle },
        }),
      );
      return true;
    } catch (error) {
      if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  },

  /** Moves a message to the queue's dead letters (kept 14 days), unless another poller did. */
  async deadLetter(queue: QueueName, item: MessageItem): Promise<void> {
    const table = config().TABLE_NAME;
    try {
      await documentClient().send(
        new DeleteCommand({
          TableName: table,
          Key: { pk: item.pk, sk: item.sk },
          ConditionExpression: 'receiveCount = :n',
          ExpressionAttributeValues: { ':n': item.receiveCount },
        }),
      );
    } catch (error) {
      if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return;
      throw error;
    }
    await documentClient().send(
      new PutCommand({
        TableName: table,
        Item: {
          pk: deadPartition(queue),
          sk: item.sk,
          id: item.id,
          body: item.body,
          sentAt: item.sentAt,
          receiveCount: item.receiveCount,
          deadAt: Date.now(),
          [TABLE.ttlAttribute]: ttl(),
        },
      }),
    );
  },

  /** The queue's dead letters (at most 1,000): their message ids, bodies and receive counts. */
  async deadLetters(
    queue: QueueName,
  ): Promise<Array<{ messageId: string; body: string; receiveCount: number }>> {
    const { Items = [] } = await documentClient().send(
      new QueryCommand({
        TableName: config().TABLE_NAME,
        KeyConditionExpression: 'pk = :p',
        ExpressionAttributeValues: { ':p': deadPartition(queue) },
        Limit: 1000,
      }),
    );
    return (Items as MessageItem[]).map((i) => ({
      messageId: i.id,
      body: i.body,
      receiveCount: i.receiveCount,
    }));
  },

  /**
   * Deletes a dead letter its consumer handled (functions/send-lists/dead-letters.ts; the local
   * stack's poller calls it, as SQS's event source mapping deletes from the dead-letter queue).
   */
  async removeDeadLetter(queue: QueueName, messageId: string): Promise<void> {
    await documentClient().send(
      new DeleteCommand({
        TableName: config().TABLE_NAME,
        Key: { pk: deadPartition(queue), sk: `msg#${messageId}` },
      }),
    );
  },

  /** Messages still on the queue, visible or leased (at most 10,000). */
  async depth(queue: QueueName): Promise<number> {
    let count = 0;
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await documentClient().send(
        new QueryCommand({
          TableName: config().TABLE_NAME,
          KeyConditionExpression: 'pk = :p',
          ExpressionAttributeValues: { ':p': partition(queue) },
          Select: 'COUNT',
          ExclusiveStartKey,
        }),
      );
      count += page.Count ?? 0;
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey && count < 10_000);
    return count;
  },
};

/** The SQS record of a leased message, as the event source mapping would deliver it. */
function sqsRecord(queue: QueueName, m: MessageItem, receipt: string): SQSRecord {
  const region = config().AWS_REGION;
  return {
    messageId: m.id,
    receiptHandle: receipt,
    body: m.body,
    attributes: {
      ApproximateReceiveCount: String(m.receiveCount),
      SentTimestamp: String(m.sentAt),
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: String(m.firstReceivedAt ?? Date.now()),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:${region}:000000000000:picsnippets-local-${queue}`,
    awsRegion: region,
  };
}
