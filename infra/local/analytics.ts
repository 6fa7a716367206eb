/**
 * Campaign analytics on the local stack (docs/analytics.md "Locally"): the gateway's CDN log
 * (cdn-log-writer.ts) rolled up by DuckDB (duckdb-log-engine.ts) with the roll-up code AWS runs
 * (functions/analytics/rollup.ts), on a timer for `npm start` and on demand for tests.
 */
import { config } from '#lib/config.ts';
import { logger } from '#lib/logger.ts';
import { hourOf } from '#functions/analytics/cdn-log.ts';
import { rollUpHours, type RollupOptions, type RollupResult } from '#functions/analytics/rollup.ts';
import { cdnLog } from './cdn-log-writer.ts';
import { duckDbLogEngine } from './duckdb-log-engine.ts';

/**
 * Writes the pending log records, then rolls up the hour of `at` (ms since the epoch; default
 * now) and, in the first five minutes of an hour, the hour before (its last records).
 * @param options the reweigh cadence; default `SPLIT_REWEIGH_HOURS` (functions/lib/config.ts).
 * @returns what each roll-up wrote.
 */
export async function rollUpLocalAnalytics(
  at: number = Date.now(),
  options: RollupOptions = { reweighEveryMs: config().SPLIT_REWEIGH_HOURS * 3_600_000 },
): Promise<RollupResult[]> {
  await cdnLog.flush();
  const engine = duckDbLogEngine(config().CDN_LOGS_BUCKET, config().CDN_LOGS_PREFIX);
  const hours = [hourOf(at)];
  if (at % 3_600_000 < 5 * 60_000) hours.unshift(hourOf(at - 3_600_000));
  return rollUpHours(engine, hours, options);
}

/** Rolls up every `everyMs` until stopped; a failed run is logged and the next one tries again. */
export function startAnalyticsRollups(
  everyMs: number,
  log: (line: string) => void,
): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = rollUpLocalAnalytics().catch((error: unknown) => {
      logger.warn('local analytics roll-up failed', { error: error as Error });
    });
  }, everyMs);
  timer.unref();
  log(`Analytics: the CDN log is rolled up every ${Math.round(everyMs / 1000)} s`);
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
      await cdnLog.flush();
    },
  };
}
