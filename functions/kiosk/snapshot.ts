/**
 * The kiosk's daily snapshot job (docs/kiosk.md kiosk indicators; docs/kiosk.md "Metrics and the
 * daily snapshot"): once a day it stores the performance indicators of the day that ended, so
 * the kiosk can chart them and compare with a month and a year before. In AWS an EventBridge
 * Scheduler schedule invokes functions/kiosk-snapshot/handler.ts; locally the same function
 * runs from `npm run kiosk:snapshot` and from the local stack once a day
 * (infra/local/daily.ts).
 *
 * Idempotent per day: a snapshot is created only where none exists (a conditional put), so a
 * second run the same day, or two runs at once, change nothing.
 */
import { db, isConditionFailure } from '#lib/db/index.ts';
import { logger } from '#lib/logger.ts';
import {
  addDays,
  BACKFILL_DAYS,
  plannedSnapshots,
  utcDay,
  type DayFigures,
  type SnapshotRecords,
} from './snapshot-figures.ts';

/** The local records the figures are computed from (one scan of users and subscriptions). */
export async function readSnapshotRecords(): Promise<SnapshotRecords> {
  const [users, subscriptions, plans] = await Promise.all([
    db().User.scan.go({ pages: 'all', attributes: ['createdAt'] }),
    db().Subscription.scan.go({ pages: 'all' }),
    db().Plan.query.all({}).go({ pages: 'all' }),
  ]);
  return {
    userCreatedAt: users.data.flatMap((u) => (u.createdAt ? [u.createdAt] : [])),
    subscriptions: subscriptions.data,
    plans: plans.data,
  };
}

/** The days in `[from, to]` (inclusive) that have a snapshot. */
async function snapshotDays(from: string, to: string): Promise<Set<string>> {
  const { data } = await db()
    .KioskSnapshot.query.byDay({ scope: 'daily' })
    .between({ day: from }, { day: to })
    .go({ pages: 'all', attributes: ['day'] });
  return new Set(data.map((s) => s.day));
}

/** Creates one snapshot unless its day has one. @returns true when it was written. */
async function createSnapshot(figures: DayFigures): Promise<boolean> {
  try {
    await db().KioskSnapshot.create(figures).go();
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** What one run did. */
export interface SnapshotRun {
  /** The day whose snapshot the run is for (the UTC day before `now`). */
  day: string;
  /** The days written by this run, oldest first (none when all existed). */
  written: string[];
}

/**
 * Runs the daily snapshot at `now` (default: the clock): writes the snapshot of the UTC day
 * before `now` and backfills the {@link BACKFILL_DAYS} days before it that have none.
 * @throws what DynamoDB throws (the schedule retries the invocation).
 */
export async function runDailySnapshot(now: Date = new Date()): Promise<SnapshotRun> {
  const day = addDays(utcDay(now), -1);
  const existing = await snapshotDays(addDays(day, -BACKFILL_DAYS), day);
  const planned = plannedSnapshots(await readSnapshotRecords(), existing, now);
  const written: string[] = [];
  for (const figures of planned) if (await createSnapshot(figures)) written.push(figures.day);
  logger.info('kiosk snapshot', { day, written: written.length });
  return { day, written };
}
