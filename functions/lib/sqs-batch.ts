/**
 * Partial batch answers for the SQS workers (docs/adr/0051-queues.md "Queues"), through Powertools'
 * batch processor (`@aws-lambda-powertools/batch`) rather than a loop of our own: each record of
 * the event is handed to `handle` one after the other (a worker's records share its time
 * budget and its table writes; order keeps logs readable), and the records whose `handle` threw
 * are answered in `batchItemFailures`, for the queue to deliver again. A batch whose every
 * record failed is answered the same way rather than thrown, so the event source mapping and
 * the local stack's poller (infra/local/queue-poller.ts) see one shape.
 *
 * A processor is made per call: the local stack runs several pollers' handlers in one process,
 * and a processor keeps the batch it works on.
 *
 * @param event the SQS event (at most the queue's batch size of records)
 * @param handle does one record's work; throws to have the record delivered again
 * @returns `{ batchItemFailures: [{ itemIdentifier: messageId }, …] }`
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';

export async function eachRecord(
  event: SQSEvent,
  handle: (record: SQSRecord) => Promise<void>,
): Promise<SQSBatchResponse> {
  const processor = new BatchProcessor(EventType.SQS);
  return (await processPartialResponse(event, handle, processor, {
    processInParallel: false,
    throwOnFullBatchFailure: false,
  })) as SQSBatchResponse;
}
