/**
 * The AWS engine of the analytics roll-up (docs/analytics.md "The roll-up"): Athena runs the
 * roll-up's SQL (functions/analytics/rollup-sql.ts) over the CloudFront log table, the Parquet
 * files standard logging writes to the logs bucket, partitioned by hour and read through
 * partition projection (infra/constructs/analytics.ts). Only the hours asked for are scanned.
 */
import {
  AthenaClient,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
  type GetQueryResultsCommandOutput,
} from '@aws-sdk/client-athena';
import type { LogQueryEngine } from '#functions/analytics/rollup.ts';

/** Result pages read at most per statement (1,000 rows each): a bound on one roll-up's rows. */
const MAX_RESULT_PAGES = 500;

/** What the engine sends commands through: the SDK's client, or a recording in tests. */
export interface AthenaSender {
  send(command: object): Promise<unknown>;
}

export interface AthenaEngineOptions {
  /** The workgroup (its result location and scan limit apply). */
  workGroup: string;
  /** The Glue database and table of the CloudFront log. */
  database: string;
  table: string;
  client?: AthenaSender;
  /** Between two state checks of a running query, ms. */
  pollMs?: number;
  /** How long a statement may run before the roll-up gives up, ms. */
  timeoutMs?: number;
}

/** A Glue name as Athena quotes it; names are the stack's own (letters, digits, `_`). */
const quoted = (name: string): string => {
  if (!/^\w{1,255}$/.test(name)) throw new RangeError(`Not a Glue name: ${name}`);
  return `"${name}"`;
};

/**
 * The `FROM` item of some hours: the table's rows in those partitions only (`year`, `month`,
 * `day`, `hour`, as strings), so Athena scans nothing else.
 * @throws RangeError for a malformed hour or name.
 */
export function athenaSource(database: string, table: string, hours: readonly string[]): string {
  const partitions = hours.map((hour) => {
    const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})$/.exec(hour);
    if (!match) throw new RangeError(`Not an hour: ${hour}`);
    const [, y, m, d, h] = match;
    return `(year = '${y}' AND month = '${m}' AND day = '${d}' AND hour = '${h}')`;
  });
  return `(SELECT * FROM ${quoted(database)}.${quoted(table)} WHERE ${partitions.join(' OR ')}) AS logs`;
}

/**
 * Reads a finished statement's rows: the first row of the first page is the header; columns
 * Athena types as integers come back as numbers.
 */
function rowsOf<Row>(pages: GetQueryResultsCommandOutput[]): Row[] {
  const columns = pages[0]?.ResultSet?.ResultSetMetadata?.ColumnInfo ?? [];
  const numeric = columns.map((c) => ['bigint', 'integer', 'int', 'double'].includes(c.Type ?? ''));
  const rows: Row[] = [];
  pages.forEach((page, p) => {
    (page.ResultSet?.Rows ?? []).forEach((row, r) => {
      if (p === 0 && r === 0) return; // the header
      const data = row.Data ?? [];
      rows.push(
        Object.fromEntries(
          columns.map((column, i) => {
            const value = data[i]?.VarCharValue ?? '';
            return [column.Name ?? `_${i}`, numeric[i] ? Number(value) : value];
          }),
        ) as Row,
      );
    });
  });
  return rows;
}

/**
 * An engine over the CloudFront log table.
 * @throws from `run`: Error naming Athena's reason when a statement fails, is cancelled or runs
 *   past `timeoutMs`; the SDK's errors.
 */
export function athenaLogEngine(options: AthenaEngineOptions): LogQueryEngine {
  const client = options.client ?? new AthenaClient({});
  const pollMs = options.pollMs ?? 1000;
  const timeoutMs = options.timeoutMs ?? 5 * 60_000;
  return {
    async run<Row>(sql: (source: string) => string, hours: readonly string[]): Promise<Row[]> {
      if (hours.length === 0) return [];
      const started = (await client.send(
        new StartQueryExecutionCommand({
          QueryString: sql(athenaSource(options.database, options.table, hours)),
          WorkGroup: options.workGroup,
        }),
      )) as { QueryExecutionId?: string };
      const id = started.QueryExecutionId;
      if (!id) throw new Error('Athena started no query');
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const state = (await client.send(
          new GetQueryExecutionCommand({ QueryExecutionId: id }),
        )) as {
          QueryExecution?: { Status?: { State?: string; StateChangeReason?: string } };
        };
        const status = state.QueryExecution?.Status;
        if (status?.State === 'SUCCEEDED') break;
        if (status?.State === 'FAILED' || status?.State === 'CANCELLED')
          throw new Error(`Athena query ${id} ${status.State}: ${status.StateChangeReason ?? ''}`);
        if (Date.now() > deadline) throw new Error(`Athena query ${id} ran past ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
      const pages: GetQueryResultsCommandOutput[] = [];
      let token: string | undefined;
      do {
        const page = (await client.send(
          new GetQueryResultsCommand({ QueryExecutionId: id, NextToken: token, MaxResults: 1000 }),
        )) as GetQueryResultsCommandOutput;
        pages.push(page);
        token = page.NextToken;
      } while (token && pages.length < MAX_RESULT_PAGES);
      return rowsOf<Row>(pages);
    },
  };
}
