/**
 * The second CDN invalidation after a team's watermark or plan changes (docs/adr/0057-watermark.md
 * "Watermark", its "CDN" point): a plain SQS handler on the `render-invalidations` queue
 * (functions/lib/queue.ts; in AWS an event source mapping with partial batch failures, locally
 * infra/local/queue-poller.ts). Each message `{ teamId, which }` was queued with a delay by
 * functions/designs/team-renders.ts `invalidateTeamRenders`; the worker invalidates the team's
 * affected render paths once more. A malformed message is dropped (logged); a failed table read
 * or CloudFront call fails the message, which the queue delivers again (at most 5 times, then
 * the dead-letter queue). test/integration/render-invalidation.test.ts.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger } from '#lib/logger.ts';
import { eachRecord } from '#lib/sqs-batch.ts';
import { recheckTeamRenders, type RenderRecheck } from './team-renders.ts';

/** A message body as queued, or null when it is not one. */
function recheckOf(body: string): RenderRecheck | null {
  try {
    const parsed = JSON.parse(body) as Partial<RenderRecheck>;
    if (
      typeof parsed.teamId === 'string' &&
      parsed.teamId.length > 0 &&
      parsed.teamId.length <= 100 &&
      (parsed.which === 'all' || parsed.which === 'watermarked')
    )
      return { teamId: parsed.teamId, which: parsed.which };
  } catch {
    // falls through: not JSON
  }
  return null;
}

/**
 * Invalidates each message's team renders (at most the queue's batch size, 10, a call).
 * @returns the messages that failed, for SQS to deliver again.
 */
export function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  return eachRecord(event, async (record) => {
    const recheck = recheckOf(record.body);
    if (!recheck) {
      logger.warn('render invalidation: malformed message dropped', {
        messageId: record.messageId,
      });
      return;
    }
    try {
      await recheckTeamRenders(recheck);
    } catch (error) {
      logger.warn('render invalidation: will be retried', {
        teamId: recheck.teamId,
        error: error as Error,
      });
      throw error;
    }
  });
}
