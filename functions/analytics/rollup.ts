/**
 * The roll-up of campaign analytics (docs/analytics.md "The roll-up"): runs the SQL of
 * rollup-sql.ts over the CDN's log records of one hour through a {@link LogQueryEngine} (Athena
 * in AWS, DuckDB locally: infra/local/duckdb-log-engine.ts) and writes each design's hour and
 * day items (`DesignAnalytics`). Idempotent: running an hour again rewrites the same items.
 */
import type { EntityItem } from 'electrodb';
import { db } from '#lib/db/index.ts';
import { parseDesignDocument, type DesignDocument } from '#shared/design.ts';
import { variantCountsByDesign, type VariantCounts } from './variants.ts';
import { DEFAULT_REWEIGH_EVERY_MS, reweighSplits, type SplitDesign } from './split-weights.ts';
import { logger } from '#lib/logger.ts';
import { hourOf, isHour, ROLLUP_RETENTION_DAYS } from './cdn-log.ts';
import {
  ANALYTICS_CLIENTS,
  ANALYTICS_DEVICES,
  breakdownSql,
  recipientsSql,
  type BreakdownRow,
  type RecipientsRow,
  type VariantInputRow,
  variantInputsSql,
} from './rollup-sql.ts';

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

/** How a roll-up runs beyond its hours. */
export interface RollupOptions {
  /**
   * How often an optimised split is reweighed, ms (docs/optimiser.md "In the product"): a
   * design's reweigh runs with the first roll-up at least this long after its last one. Default
   * a day; 0 reweighs with every roll-up.
   */
  reweighEveryMs?: number;
}

/** What one roll-up wrote. */
export interface RollupResult {
  hour: string;
  /** Designs with an hour item written. */
  designs: number;
  /** Log records counted in the hour. */
  records: number;
}

/**
 * Rolls up hours: each hour's items, and the items of each day they fall in, recomputed from
 * all of the day's partitions (so a late log file is counted when its day is rolled up again).
 * A day is read once however many of its hours are asked for.
 * Then the optimised splits of the designs counted that are due are reweighed
 * (split-weights.ts).
 * @param hours `YYYY-MM-DDTHH`, UTC, at most 48; default: the current hour.
 * @returns what each hour's roll-up counted.
 * @throws RangeError for a malformed hour or too many; the engine's and DynamoDB's errors.
 */
export async function rollUpHours(
  engine: LogQueryEngine,
  hours: readonly string[] = [hourOf(Date.now())],
  options: RollupOptions = {},
): Promise<RollupResult[]> {
  if (hours.length > 48) throw new RangeError('At most 48 hours a roll-up.');
  for (const hour of hours) if (!isHour(hour)) throw new RangeError(`Not an hour: ${hour}`);
  const days = [...new Set(hours.map((hour) => hour.slice(0, 10)))];
  const [hourRows, dayRows] = await Promise.all([
    Promise.all(
      hours.map((hour) =>
        engine.run<BreakdownRow>((source) => breakdownSql(source, { hour }), [hour]),
      ),
    ),
    Promise.all(
      days.map((day) =>
        Promise.all([
          engine.run<BreakdownRow>((source) => breakdownSql(source, { day }), hoursOf(day)),
          engine.run<RecipientsRow>((source) => recipientsSql(source, { day }), hoursOf(day)),
        ]),
      ),
    ),
  ]);
  const periods: Array<{
    granularity: 'hour' | 'day';
    period: string;
    counts: Map<string, PeriodCounts>;
    recipients?: Map<string, number>;
  }> = [
    ...hours.map((hour, i) => ({
      granularity: 'hour' as const,
      period: hour,
      counts: countsByDesign(hourRows[i]!),
    })),
    ...days.map((day, i) => ({
      granularity: 'day' as const,
      period: day,
      counts: countsByDesign(dayRows[i]![0]),
      recipients: new Map(dayRows[i]![1].map((r) => [r.public_id, Number(r.recipients)])),
    })),
  ];
  const designs = await designsOf([...new Set(periods.flatMap((p) => [...p.counts.keys()]))]);
  const variants = await variantsOf(engine, periods, designs);
  const rolledUpAt = new Date().toISOString();
  const items = periods.flatMap(({ granularity, period, counts, recipients }, p) => {
    const ttl =
      Math.floor(Date.parse(`${period.slice(0, 10)}T00:00:00Z`) / 1000) +
      ROLLUP_RETENTION_DAYS * 86_400;
    return [...counts].flatMap(([publicId, designCounts]) => {
      const design = designs.get(publicId);
      if (!design) return [];
      return [
        {
          analyticsDesign: design.designId,
          teamId: design.teamId,
          granularity,
          period,
          ...designCounts,
          ...(recipients ? { recipients: recipients.get(publicId) ?? 0 } : {}),
          ...(variants[p]!.has(publicId) ? { variants: variants[p]!.get(publicId) } : {}),
          ttl,
          rolledUpAt,
        },
      ];
    });
  });
  await writeAll(items);
  await reweighSplits(designs, Date.now(), options.reweighEveryMs ?? DEFAULT_REWEIGH_EVERY_MS);
  return hours.map((hour, i) => {
    const result = {
      hour,
      designs: periods[i]!.counts.size,
      records: hourRows[i]!.reduce((sum, row) => sum + Number(row.requests), 0),
    };
    logger.info('analytics rolled up', result);
    return result;
  });
}

type AnalyticsItem = EntityItem<ReturnType<typeof db>['DesignAnalytics']>;

/** Batches written at once. */
const WRITE_CONCURRENCY = 8;
/** Tries of a batch's unprocessed items (DynamoDB's throttling) before the roll-up fails. */
const WRITE_TRIES = 5;

/**
 * Writes items 25 to a batch, {@link WRITE_CONCURRENCY} batches at once, trying a batch's
 * unprocessed items again with a growing pause.
 * @throws Error when items stay unprocessed after {@link WRITE_TRIES} tries.
 */
async function writeAll(items: AnalyticsItem[]): Promise<void> {
  const batches: AnalyticsItem[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      let batch = batches[next++]!;
      for (let attempt = 1; batch.length > 0; attempt++) {
        const { unprocessed } = await db().DesignAnalytics.put(batch).go();
        if (unprocessed.length === 0) break;
        if (attempt >= WRITE_TRIES)
          throw new Error(`analytics roll-up: ${unprocessed.length} items left unwritten`);
        const keys = new Set(
          unprocessed.map((k) => `${k.analyticsDesign}|${k.granularity}|${k.period}`),
        );
        batch = batch.filter((item) =>
          keys.has(`${item.analyticsDesign}|${item.granularity}|${item.period}`),
        );
        await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
      }
    }
  };
  await Promise.all(Array.from({ length: WRITE_CONCURRENCY }, worker));
}

/**
 * Each period's counts per variant of the designs with rules (variants.ts): one statement per
 * period over those designs' requests, 1,000 designs a statement.
 * @returns per period (in `periods`' order), public id → variant → counts.
 */
async function variantsOf(
  engine: LogQueryEngine,
  periods: ReadonlyArray<{ granularity: 'hour' | 'day'; period: string }>,
  designs: ReadonlyMap<string, SplitDesign>,
): Promise<Array<Map<string, Record<string, VariantCounts>>>> {
  const ruled = [...designs].flatMap(([publicId, d]) =>
    d.document && d.document.rules.length > 0 ? [[publicId, d.document] as const] : [],
  );
  const documents = new Map(ruled);
  const splits = new Map([...designs].map(([publicId, d]) => [publicId, d.split?.tables]));
  return Promise.all(
    periods.map(async ({ granularity, period }) => {
      const counts = new Map<string, Record<string, VariantCounts>>();
      for (let i = 0; i < ruled.length; i += 1000) {
        const ids = ruled.slice(i, i + 1000).map(([publicId]) => publicId);
        const hours = granularity === 'hour' ? [period] : hoursOf(period);
        const rows = await engine.run<VariantInputRow>(
          (source) =>
            variantInputsSql(
              source,
              granularity === 'hour' ? { hour: period } : { day: period },
              ids,
            ),
          hours,
        );
        for (const [publicId, byVariant] of variantCountsByDesign(rows, documents, splits))
          counts.set(publicId, byVariant);
      }
      return counts;
    }),
  );
}

/**
 * A design's document for replaying its rules, or undefined when it cannot be read (the design
 * is still counted; only its variants are not): a roll-up never stops on one design.
 */
function documentOf(designId: string, stored: unknown): DesignDocument | undefined {
  try {
    return parseDesignDocument(stored);
  } catch (error) {
    logger.warn('analytics roll-up: a design document could not be read; no variants', {
      designId,
      error: error as Error,
    });
    return undefined;
  }
}

/**
 * The designs of public ids (unknown ones left out), read by the public-id index, with the
 * `DesignSplit` item of those that optimise their split.
 */
async function designsOf(publicIds: readonly string[]): Promise<Map<string, SplitDesign>> {
  const found = new Map<string, SplitDesign>();
  const ids = publicIds.slice(0, MAX_DESIGNS_PER_ROLLUP);
  for (let i = 0; i < ids.length; i += 25) {
    const batch = ids.slice(i, i + 25);
    const answers = await Promise.all(
      batch.map(async (publicId) => {
        const design = (await db().Design.query.byPublicId({ publicId }).go({ limit: 1 })).data[0];
        if (!design) return undefined;
        const document = documentOf(design.designId, design.document);
        const split = document?.split_optimiser
          ? (
              await db()
                .DesignSplit.get({ analyticsDesign: design.designId })
                .go({ attributes: ['tables', 'reweighedAt'] })
            ).data
          : null;
        return {
          designId: design.designId,
          teamId: design.teamId as string,
          document,
          ...(split ? { split: { tables: split.tables, reweighedAt: split.reweighedAt } } : {}),
        };
      }),
    );
    answers.forEach((design, j) => {
      if (design) found.set(batch[j]!, design);
    });
  }
  return found;
}
