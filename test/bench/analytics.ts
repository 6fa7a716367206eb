/**
 * The analytics part of `npm run bench` (docs/performance.md "Campaign analytics"): 10 million
 * synthetic CDN log records over 30 days for 1,000 designs, written by DuckDB as Parquet
 * partitioned by hour (as CloudFront's standard logging delivers them), rolled up day by day
 * with the roll-up code AWS runs (functions/analytics/rollup.ts) on DuckDB over those files, then
 * the dashboard's query, a design's 30-day report through the gateway, asked for random designs.
 * Written to bench-results/analytics.json:
 * - `records`: log records rolled up;
 * - `records_per_s`: records over the roll-up's wall time (the SQL and the DynamoDB writes);
 * - `query_p95_ms`: the 95th percentile of the report route's answer time, ms;
 * - `items`: roll-up items written; `generate_s`, `rollup_s`: the two phases' seconds.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalStack } from '#infra/local/stack.ts';
import type { db as Db } from '#lib/db/index.ts';
import { TestClient } from '../support/client.ts';
import { formatTable } from './table.ts';
import { percentile, round1 } from './measure.ts';
import { RESULTS_DIR, sized } from './scale.ts';

/** The sizes of a measuring run, and of a smoke run. */
export const ANALYTICS_SIZE = {
  records: sized(10_000_000, 20_000),
  designs: sized(1_000, 10),
  days: sized(30, 2),
  queries: sized(200, 5),
};

/** The first day of the synthetic log (UTC). */
const FIRST_DAY = '2026-10-01';

export interface AnalyticsBenchResult {
  records: number;
  records_per_s: number;
  query_p95_ms: number;
  designs: number;
  days: number;
  items: number;
  generate_s: number;
  rollup_s: number;
}

/**
 * The synthetic log as one DuckDB statement: record `i` falls at an even step over the days, on a
 * design drawn with a skew (a few designs take most opens, as campaigns do), with a recipient,
 * an agent, a country and a CDN hit (80 %) from its hash; one in 20 is a click.
 */
function generateSql(dir: string, size: typeof ANALYTICS_SIZE): string {
  const seconds = size.days * 86_400;
  return `COPY (
  WITH r AS (
    SELECT i,
      TIMESTAMP '${FIRST_DAY} 00:00:00' + to_seconds(CAST(i * ${seconds} // ${size.records} AS BIGINT)) AS ts,
      hash(i) AS h
    FROM range(${size.records}) t(i)
  )
  SELECT strftime(ts, '%Y-%m-%d') AS date,
    strftime(ts, '%H:%M:%S') AS time,
    'GET' AS cs_method,
    CASE WHEN h % 20 = 0 THEN '/l/' ELSE '/r/' END
      || 'bench-' || CAST(CAST(floor(${size.designs} * pow((h % 1000003) / 1000003.0, 3)) AS BIGINT) AS VARCHAR)
      || CASE WHEN h % 20 = 0 THEN '' ELSE '.jpg' END AS cs_uri_stem,
    'first_name=R' || CAST((h // 7) % 200000 AS VARCHAR) AS cs_uri_query,
    CASE (h // 11) % 5
      WHEN 0 THEN 'Mozilla/5.0%20(iPhone;%20CPU%20iPhone%20OS%2017_0)%20Mobile/15E148'
      WHEN 1 THEN 'Mozilla/5.0%20(Windows%20NT%2010.0)%20Chrome/120%20Safari/537.36'
      WHEN 2 THEN 'Mozilla/5.0%20(via%20ggpht.com%20GoogleImageProxy)'
      WHEN 3 THEN 'Mozilla/5.0%20(Linux;%20Android%2014)%20Mobile%20Safari/537.36'
      ELSE 'Microsoft%20Outlook%2016.0' END AS cs_user_agent,
    CASE WHEN h % 20 = 0 THEN '302' ELSE '200' END AS sc_status,
    CASE WHEN (h // 13) % 5 = 0 THEN 'Miss' ELSE 'Hit' END AS x_edge_result_type,
    CASE (h // 17) % 6 WHEN 0 THEN 'US' WHEN 1 THEN 'FR' WHEN 2 THEN 'DE' WHEN 3 THEN 'GB'
      WHEN 4 THEN 'BR' ELSE '-' END AS c_country,
    strftime(ts, '%Y') AS year, strftime(ts, '%m') AS month,
    strftime(ts, '%d') AS day, strftime(ts, '%H') AS hour
  FROM r
) TO '${dir}' (FORMAT parquet, PARTITION_BY (year, month, day, hour))`;
}

/** The days of the synthetic log, `YYYY-MM-DD`. */
const daysOf = (count: number): string[] =>
  Array.from({ length: count }, (_, d) =>
    new Date(Date.parse(`${FIRST_DAY}T00:00:00Z`) + d * 86_400_000).toISOString().slice(0, 10),
  );

/**
 * Runs the part on a started stack.
 * @throws Error when the team cannot be made or a report answers other than 200.
 */
export async function runAnalyticsBench(
  stack: LocalStack,
  size: typeof ANALYTICS_SIZE = ANALYTICS_SIZE,
): Promise<AnalyticsBenchResult> {
  const { db } = await import('#lib/db/index.ts');
  const { DesignDocumentSchema } = await import('#shared/design.ts');
  const { demoDesignDocument } = await import('#infra/local/seed.ts');
  const { query, parquetLogEngine } = await import('#infra/local/duckdb-log-engine.ts');
  const { rollUpHours } = await import('#functions/analytics/rollup.ts');

  // A team of the bench's own with the designs the log names (`bench-{n}`).
  const run = Date.now().toString(36);
  const email = `analytics-bench-${run}@example.com`;
  const owner = new TestClient(stack.url);
  const password = 'bench-analytics-42';
  const registered = await owner.request('POST', '/register', {
    name: 'Bench Analytics',
    email,
    team: 'Bench Analytics',
    password,
    password_confirmation: password,
    terms: true,
    plan: 'free',
  });
  if (registered.status >= 300) throw new Error(`analytics bench: register ${registered.status}`);
  const teamId = (await owner.request('GET', '/settings/companies/current')).json.id as string;
  const image = (await db().LibraryImage.get({ imageId: 'library-autumn' }).go()).data!;
  const document = DesignDocumentSchema.parse(
    demoDesignDocument({ key: image.key, width: image.width, height: image.height }),
  );
  const designIds: string[] = [];
  for (let n = 0; n < size.designs; n += 25) {
    const batch = Array.from({ length: Math.min(25, size.designs - n) }, (_, k) => ({
      designId: `design-bench-${run}-${n + k}`,
      teamId,
      publicId: `bench-${n + k}`,
      title: `Bench ${n + k}`,
      status: 'active' as const,
      version: 1,
      document,
    }));
    // Public ids are the log's: a design of an earlier run keeps its own public id.
    await db().Design.put(batch).go();
    designIds.push(...batch.map((d) => d.designId));
  }

  const dir = await mkdtemp(join(tmpdir(), 'picsnippets-analytics-bench-'));
  try {
    console.log(`bench: analytics: ${size.records.toLocaleString('en-US')} log records…`);
    const generateStarted = performance.now();
    await query(generateSql(dir, size));
    const generateS = (performance.now() - generateStarted) / 1000;

    console.log('bench: analytics: roll-up…');
    const engine = parquetLogEngine(dir);
    const rollupStarted = performance.now();
    let records = 0;
    for (const day of daysOf(size.days)) {
      const hours = Array.from({ length: 24 }, (_, h) => `${day}T${String(h).padStart(2, '0')}`);
      for (const result of await rollUpHours(engine, hours)) records += result.records;
    }
    const rollupS = (performance.now() - rollupStarted) / 1000;

    // The dashboard's query: a design's 30-day report, as the analytics page asks for it.
    const [from, to] = [daysOf(size.days)[0]!, daysOf(size.days).at(-1)!];
    const times: number[] = [];
    for (let q = 0; q < size.queries; q++) {
      const designId = designIds[(q * 7919) % designIds.length]!;
      const started = performance.now();
      const answer = await owner.request(
        'GET',
        `/api/pic-snippet/${designId}/analytics?from=${from}&to=${to}`,
      );
      times.push(performance.now() - started);
      if (answer.status !== 200) throw new Error(`analytics bench: report ${answer.status}`);
    }
    const items = await countItems(db, designIds);
    const result: AnalyticsBenchResult = {
      records,
      records_per_s: Math.round(records / rollupS),
      query_p95_ms: round1(percentile(times, 95)),
      designs: size.designs,
      days: size.days,
      items,
      generate_s: round1(generateS),
      rollup_s: round1(rollupS),
    };
    console.log(
      formatTable(
        ['measure', 'value'],
        Object.entries(result).map(([measure, value]) => ({ measure, value })),
      ),
    );
    await mkdir(RESULTS_DIR, { recursive: true });
    await writeFile(join(RESULTS_DIR, 'analytics.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log('wrote bench-results/analytics.json');
    return result;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The roll-up items written, estimated: the day items of up to 50 of the designs, scaled to all
 * of them, times 25 (each day item has up to 24 hour items beside it).
 */
async function countItems(db: typeof Db, designIds: readonly string[]): Promise<number> {
  let count = 0;
  for (const designId of designIds.slice(0, 50)) {
    const { data } = await db()
      .DesignAnalytics.query.byDesignPeriod({ analyticsDesign: designId, granularity: 'day' })
      .go({ pages: 'all' });
    count += data.length;
  }
  return Math.round((count * designIds.length) / Math.min(50, designIds.length)) * 25;
}
