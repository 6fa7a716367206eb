/**
 * The SQS workers' partial batch answers (functions/lib/sqs-batch.ts `eachRecord`): a failed
 * record is delivered again, the others are not; records run one after the other; a batch whose
 * every record failed is answered, not thrown.
 */
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { eachRecord } from '#lib/sqs-batch.ts';

const eventOf = (...bodies: string[]): SQSEvent => ({
  Records: bodies.map(
    (body, i) =>
      ({
        messageId: `m${i + 1}`,
        receiptHandle: `h${i + 1}`,
        body,
        attributes: {},
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:eu-west-1:000000000000:q',
        awsRegion: 'eu-west-1',
      }) as unknown as SQSRecord,
  ),
});

describe('eachRecord', () => {
  it('answers the records that threw, and only those', async () => {
    const answer = await eachRecord(eventOf('ok', 'bad', 'ok'), async (record) => {
      if (record.body === 'bad') throw new Error('table out of reach');
    });
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'm2' }] });
  });

  it('runs the records one after the other, in order', async () => {
    const log: string[] = [];
    await eachRecord(eventOf('a', 'b', 'c'), async (record) => {
      log.push(`start ${record.body}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      log.push(`end ${record.body}`);
    });
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('answers a batch whose every record failed rather than throwing', async () => {
    const answer = await eachRecord(eventOf('x', 'y'), async () => {
      throw new Error('down');
    });
    expect(answer.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(['m1', 'm2']);
  });

  it('answers an empty list for a batch that all went well', async () => {
    expect(await eachRecord(eventOf('a'), async () => {})).toEqual({ batchItemFailures: [] });
  });
});
