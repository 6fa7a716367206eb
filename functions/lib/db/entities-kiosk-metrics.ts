/**
 * The entities of the kiosk's daily metrics snapshots (docs/billing.md "Model" kiosk indicators;
 * docs/kiosk.md "Metrics and the daily snapshot").
 */
import { Entity } from 'electrodb';
import { now, SERVICE, type EntityKit } from './entity-kit.ts';

/** Builds these entities against one table. */
export function kioskMetricsEntities({ opts, primary }: EntityKit) {
  /**
   * One UTC day's performance indicators, written once by the daily snapshot job
   * (functions/kiosk/snapshot.ts) and never changed: the job creates it only when absent, so a
   * second run the same day changes nothing. All snapshots share one partition (`scope` =
   * `daily`) ordered by `day`, so a date range is one query; a year is 366 small items.
   */
  const KioskSnapshot = new Entity(
    {
      model: { entity: 'kiosksnapshot', version: '1', service: SERVICE },
      attributes: {
        scope: { type: 'string', required: true, default: 'daily', readOnly: true },
        /** The UTC day, `YYYY-MM-DD`. */
        day: { type: 'string', required: true, readOnly: true },
        /** Cents per month; unset on a backfilled day (not knowable from later records). */
        monthlyRecurringRevenue: { type: 'number' },
        /** Cents per year; unset on a backfilled day. */
        yearlyRecurringRevenue: { type: 'number' },
        /** Cents charged that day by subscription renewals, at list price. */
        dailyVolume: { type: 'number', required: true },
        /** Accounts created that day. */
        newUsers: { type: 'number', required: true },
        /** True when the job filled the day in after it had passed (a missed run, a new install). */
        backfilled: { type: 'boolean', required: true, default: false },
        createdAt: { type: 'string', default: now, readOnly: true },
      },
      indexes: {
        byDay: {
          pk: { ...primary.pk, composite: ['scope'] },
          sk: { ...primary.sk, composite: ['day'] },
        },
      },
    },
    opts,
  );

  return { KioskSnapshot };
}
