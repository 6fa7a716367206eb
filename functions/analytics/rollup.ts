/**
 * The roll-up of campaign analytics (docs/analytics.md "The roll-up"): runs the SQL of
 * rollup-sql.ts over the CDN's log records of one hour through a {@link LogQueryEngine} (Athena
 * in AWS, DuckDB locally: infra/local/duckdb-log-engine.ts) and writes each design's hour and
 * day items (`DesignAnalytics`). Idempotent: running an hour again rewrites the same items.
 */
import { db } from '#lib/db/index.ts';
import { logger } from '#lib/logger.ts';
import { hourOf, isHour } from './cdn-log.ts';
import {
  ANALYTICS_CLIENTS,
  ANALYTICS_DEVICES,
  breakdownSql,
  recipientsSql,
  type BreakdownRow,
  type RecipientsRow,
  type RollupPeriod,
} from './rollup-sql.ts';

/** How long roll-ups are kept, days (about 13 months; docs/analytics.md "Privacy and retention"). */
export const ROLLUP_RETENTION_DAYS = 400;

/** Distinct countries kept per item; the rest are counted under `other` (bounded items). */
export const MAX_COUNTRIES = 60;

/** Designs resolved per roll-up at most (public ids of unknown designs are skipped). */
export const MAX_DESIGNS_PER_ROLLUP = 100_000;

/**
 * Runs a roll-up statement over the log records of some hours.
 * @param sql the statement, given the `FROM` source the engine reads.
 * @param hours the hours (`YYYY-MM-DDTHH`) whose partitions it must read.
 * @returns the rows, counts as numbers.
 */
export interface LogQueryEngine {
  run<Row>(sql: (source: string) => string, hours: readonly string[]): Promise<Row[]>;
}

/** A design's counts in one period, as the item stores them. */
export interface PeriodCounts {
  opens: number;
  proxyFetches: number;
  clicks: number;
  cdnHits: number;
  devices: Record<string, number>;
  clients: Record<string, number>;
  countries: Record<string, number>;
}

const zeroes = (names: readonly string[]): Record<string, number> =>
  Object.fromEntries(names.map((n) => [n, 0]));

/**
 * The rows of {@link breakdownSql} summed per design: impressions (opens and proxy fetches) by
 * device, client and country; clicks apart. Countries past {@link MAX_COUNTRIES} go to `other`.
 */
export function countsByDesign(rows: readonly BreakdownRow[]): Map<string, PeriodCounts> {
  const byDesign = new Map<string, PeriodCounts>();
  for (const row of rows) {
    if (!row.public_id) continue;
    let counts = byDesign.get(row.public_id);
    if (!counts) {
      counts = {
        opens: 0,
        proxyFetches: 0,
        clicks: 0,
        cdnHits: 0,
        devices: zeroes(ANALYTICS_DEVICES),
        clients: zeroes(ANALYTICS_CLIENTS),
        countries: {},
      };
      byDesign.set(row.public_id, counts);
    }
    const n = Number(row.requests);
    counts.cdnHits += Number(row.cdn_hits);
    if (row.kind === 'click') {
      counts.clicks += n;
      continue;
    }
    if (row.kind === 'proxy') counts.proxyFetches += n;
    else counts.opens += n;
    counts.devices[row.device] = (counts.devices[row.device] ?? 0) + n;
    counts.clients[row.client] = (counts.clients[row.client] ?? 0) + n;
    const known = row.country in counts.countries;
    const country =
      known || Object.keys(counts.countries).length < MAX_COUNTRIES ? row.country : 'other';
    counts.countries[country] = (counts.countries[country] ?? 0) + n;
  }
  return byDesign;
}

/** The hours of a day, `YYYY-MM-DDT00` … `T23`. */
const hoursOf = (day: string): string[] =>
  Array.from({ length: 24 }, (_, h) => `${day}T${String(h).padStart(2, '0')}`);

/** What one roll-up wrote. */
export interface RollupResult {
  hour: string;
  /** Designs with an hour item written. */
  designs: number;
  /** Log records counted in the hour. */
  records: number;
}

/**
 * Rolls up one hour: that hour's items, and the day's items recomputed from all of the day's
 * partitions (so a late log file is counted when its day is rolled up again).
 * @param hour `YYYY-MM-DDTHH`, UTC; default: the current hour.
 * @throws RangeError for a malformed hour; the engine's and DynamoDB's errors.
 */
export async function rollUpHour(
  engine: LogQueryEngine,
  hour: string = hourOf(Date.now()),
): Promise<RollupResult> {
  if (!isHour(hour)) throw new RangeError(`Not an hour: ${hour}`);
  const day = hour.slice(0, 10);
  const period: RollupPeriod = { hour };
  const [hourRows, dayRows, dayRecipients] = await Promise.all([
    engine.run<BreakdownRow>((source) => breakdownSql(source, period), [hour]),
    engine.run<BreakdownRow>((source) => breakdownSql(source, { day }), hoursOf(day)),
    engine.run<RecipientsRow>((source) => recipientsSql(source, { day }), hoursOf(day)),
  ]);
  const hourCounts = countsByDesign(hourRows);
  const dayCounts = countsByDesign(dayRows);
  const recipients = new Map(dayRecipients.map((r) => [r.public_id, Number(r.recipients)]));
  const designs = await designsOf([...dayCounts.keys()]);
  const rolledUpAt = new Date().toISOString();
  const ttl = Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000) + ROLLUP_RETENTION_DAYS * 86_400;
  const items = [
    ...[...hourCounts].map(([publicId, counts]) => ({
      publicId,
      granularity: 'hour' as const,
      period: hour,
      counts,
    })),
    ...[...dayCounts].map(([publicId, counts]) => ({
      publicId,
      granularity: 'day' as const,
      period: day,
      counts,
      recipients: recipients.get(publicId) ?? 0,
    })),
  ].flatMap((item) => {
    const design = designs.get(item.publicId);
    if (!design) return [];
    return [
      {
        designId: design.designId,
        teamId: design.teamId,
        granularity: item.granularity,
        period: item.period,
        ...item.counts,
        ...('recipients' in item ? { recipients: item.recipients } : {}),
        ttl,
        rolledUpAt,
      },
    ];
  });
  for (let i = 0; i < items.length; i += 25) {
    await db()
      .DesignAnalytics.put(items.slice(i, i + 25))
      .go();
  }
  const records = hourRows.reduce((sum, row) => sum + Number(row.requests), 0);
  logger.info('analytics rolled up', { hour, designs: hourCounts.size, records });
  return { hour, designs: hourCounts.size, records };
}

/** The designs of public ids (unknown ones left out), read by the public-id index. */
async function designsOf(
  publicIds: readonly string[],
): Promise<Map<string, { designId: string; teamId: string }>> {
  const found = new Map<string, { designId: string; teamId: string }>();
  const ids = publicIds.slice(0, MAX_DESIGNS_PER_ROLLUP);
  for (let i = 0; i < ids.length; i += 25) {
    const batch = ids.slice(i, i + 25);
    const answers = await Promise.all(
      batch.map((publicId) => db().Design.query.byPublicId({ publicId }).go({ limit: 1 })),
    );
    answers.forEach((answer, j) => {
      const design = answer.data[0];
      if (design)
        found.set(batch[j]!, { designId: design.designId, teamId: design.teamId as string });
    });
  }
  return found;
}
