/**
 * The product's metrics (docs/infra.md "Observability"): counts and timings the alarms and the
 * dashboard read (infra/constructs/monitoring.ts).
 *
 * - In AWS each value is written at once as CloudWatch Embedded Metric Format lines through
 *   Powertools Metrics (no API call, no added latency: CloudWatch Logs turns the lines into the
 *   metric), namespace {@link METRICS_NAMESPACE}, one line per value: the dimension set `service`
 *   only (the total the alarms read) and, for a value with its own dimension, a second set of
 *   `service` and it in the same line (EMF's `Dimensions` takes several sets).
 * - Locally (`npm start`) the same metrics are summed and printed as one `metrics` log line at
 *   most every {@link LOCAL_SUMMARY_MS}, so a developer sees them without AWS.
 * - In tests nothing is printed; {@link metricTotals} reads the sums.
 *
 * Metric names and the namespace live in shared/metrics.ts, which the monitoring construct's
 * alarms read too.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { METRIC, METRICS_NAMESPACE, type MetricName } from '#shared/metrics.ts';
import { logger } from './logger.ts';

export { METRIC, METRICS_NAMESPACE, type MetricName };

/** Local summary interval, ms. */
export const LOCAL_SUMMARY_MS = 60_000;

let powertools: Metrics | undefined;
const totals = new Map<string, number>();
let summaryTimer: NodeJS.Timeout | undefined;

const stage = () => process.env.STAGE ?? 'local';

/** `Render{outcome=miss}`: the local and test key of a metric and its dimension. */
const keyOf = (name: MetricName, dimension?: [string, string]) =>
  dimension ? `${name}{${dimension[0]}=${dimension[1]}}` : name;

/**
 * Records one metric value.
 * @param name one of {@link METRIC}.
 * @param value a count (default 1) or, for a `…Ms` metric, milliseconds.
 * @param dimension an optional `[name, value]` pair (value cut to 64 characters: dimensions must
 *   stay few, so callers pass fixed words such as a fallback reason, never user input).
 * Never throws: a metric must not fail the request that records it.
 */
export function recordMetric(name: MetricName, value = 1, dimension?: [string, string]): void {
  try {
    const dim: [string, string] | undefined = dimension
      ? [dimension[0], dimension[1].slice(0, 64)]
      : undefined;
    const unit = name.endsWith('Ms') ? MetricUnit.Milliseconds : MetricUnit.Count;
    if (stage() === 'aws') {
      powertools ??= new Metrics({
        namespace: METRICS_NAMESPACE,
        serviceName: process.env.FEATURE ?? 'picsnippets',
      });
      // One line: the total (the set `service` only, what the alarms read) and the breakdown.
      const single = powertools.singleMetric();
      if (dim) single.addDimensions({}).addDimensions({ [dim[0]]: dim[1] });
      single.addMetric(name, unit, value);
      return;
    }
    const key = keyOf(name, dim);
    totals.set(key, (totals.get(key) ?? 0) + value);
    if (stage() === 'local' && !summaryTimer) {
      summaryTimer = setTimeout(printSummary, LOCAL_SUMMARY_MS);
      summaryTimer.unref();
    }
  } catch (error) {
    logger.warn('metric not recorded', { name, error: error as Error });
  }
}

/** Prints and clears the local sums (one `metrics` line). */
function printSummary(): void {
  summaryTimer = undefined;
  if (totals.size === 0) return;
  logger.info('metrics', { window_ms: LOCAL_SUMMARY_MS, ...Object.fromEntries(totals) });
  totals.clear();
}

/**
 * The sums recorded since the last summary, by `Name` or `Name{dimension=value}`; for tests and
 * the local stack (empty in AWS, where each value is written at once).
 */
export function metricTotals(): Record<string, number> {
  return Object.fromEntries(totals);
}
