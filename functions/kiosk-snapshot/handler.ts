/**
 * The kiosk's daily snapshot function (AWS): an EventBridge Scheduler schedule invokes it once a
 * day shortly after midnight UTC (infra/constructs/kiosk-snapshot.ts) to store the kiosk's
 * performance indicators of the day that ended (functions/kiosk/snapshot.ts; docs/kiosk.md "Metrics
 * and the daily snapshot"). Not an HTTP route; the schedule's payload is not read: the day comes
 * from the clock.
 */
import type { Context } from 'aws-lambda';
import { logger } from '#lib/logger.ts';
import { runDailySnapshot, type SnapshotRun } from '#functions/kiosk/snapshot.ts';

/**
 * Lambda entry: runs the snapshot job once.
 * @returns the day snapshotted and the days written (none when the day already had one).
 * @throws what the job throws, so the schedule's retry policy runs it again.
 */
export async function handler(_event: unknown, context?: Context): Promise<SnapshotRun> {
  if (context) logger.addContext(context);
  try {
    return await runDailySnapshot();
  } finally {
    logger.resetKeys();
  }
}
