/**
 * The analytics roll-up function (AWS): an EventBridge Scheduler schedule invokes it every hour
 * (infra/constructs/analytics.ts) to roll up the CloudFront log of the hour before and of the
 * current hour so far, through Athena (docs/analytics.md "The roll-up"). Idempotent: the
 * scheduler's retries rewrite the same items. Not an HTTP route; the payload may name an `hour`
 * (`YYYY-MM-DDTHH`) to roll up again by hand.
 */
import type { Context } from 'aws-lambda';
import { z } from 'zod';
import { logger } from '#lib/logger.ts';
import { hourOf, isHour } from '#functions/analytics/cdn-log.ts';
import { rollUpHours, type RollupResult } from '#functions/analytics/rollup.ts';
import { athenaLogEngine } from './athena-engine.ts';
import { config } from '#lib/config.ts';

const Env = z.object({
  ANALYTICS_WORKGROUP: z.string().min(1),
  ANALYTICS_DATABASE: z.string().min(1),
  ANALYTICS_TABLE: z.string().min(1),
});

/**
 * Lambda entry.
 * @param event `{ hour?: 'YYYY-MM-DDTHH' }`; without it, the hour before now and the current one.
 * @returns what each roll-up wrote.
 * @throws what the roll-up throws, so the schedule's retry policy runs it again.
 */
export async function handler(event: unknown, context?: Context): Promise<RollupResult[]> {
  if (context) logger.addContext(context);
  try {
    const env = Env.parse(process.env);
    const engine = athenaLogEngine({
      workGroup: env.ANALYTICS_WORKGROUP,
      database: env.ANALYTICS_DATABASE,
      table: env.ANALYTICS_TABLE,
    });
    const asked = (event as { hour?: unknown } | null)?.hour;
    const now = Date.now();
    const hours =
      typeof asked === 'string' && isHour(asked) ? [asked] : [hourOf(now - 3_600_000), hourOf(now)];
    return await rollUpHours(engine, hours, {
      reweighEveryMs: config().SPLIT_REWEIGH_HOURS * 3_600_000,
    });
  } finally {
    logger.resetKeys();
  }
}
