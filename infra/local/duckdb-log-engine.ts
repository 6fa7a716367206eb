/**
 * The local engine of the analytics roll-up (docs/analytics.md "The roll-up"): DuckDB runs the
 * roll-up's SQL (functions/analytics/rollup-sql.ts), the statement Athena runs in AWS, over the
 * CDN log records the local gateway wrote to the local S3 (cdn-log-writer.ts). DuckDB reads
 * local files, so the hours' objects are copied to a temporary folder first.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { DuckDBInstance } from '@duckdb/node-api';
import { s3Client } from '#lib/clients.ts';
import { CDN_LOG_FIELDS, hourPartition } from '#functions/analytics/cdn-log.ts';
import type { LogQueryEngine } from '#functions/analytics/rollup.ts';

/** Objects listed per hour at most (the local gateway writes one every couple of seconds). */
const MAX_OBJECTS_PER_HOUR = 10_000;

/**
 * An engine over `s3://{bucket}/{prefix}YYYY/MM/DD/HH/*.jsonl`.
 * @param bucket the local logs bucket (`CDN_LOGS_BUCKET`).
 * @param prefix the log prefix (`CDN_LOGS_PREFIX`), ending in `/`.
 */
export function duckDbLogEngine(bucket: string, prefix: string): LogQueryEngine {
  return {
    async run<Row>(sql: (source: string) => string, hours: readonly string[]): Promise<Row[]> {
      const dir = await mkdtemp(join(tmpdir(), 'picsnippets-cdn-logs-'));
      try {
        let files = 0;
        for (const hour of hours) {
          const partition = `${prefix}${hourPartition(hour)}`;
          let token: string | undefined;
          let listed = 0;
          do {
            const page = await s3Client().send(
              new ListObjectsV2Command({
                Bucket: bucket,
                Prefix: partition,
                ContinuationToken: token,
              }),
            );
            for (const object of page.Contents ?? []) {
              const body = await s3Client().send(
                new GetObjectCommand({ Bucket: bucket, Key: object.Key }),
              );
              const file = join(dir, `${files++}.jsonl`);
              await writeFile(file, await body.Body!.transformToByteArray());
            }
            listed += page.KeyCount ?? 0;
            token = page.IsTruncated ? page.NextContinuationToken : undefined;
          } while (token && listed < MAX_OBJECTS_PER_HOUR);
        }
        if (files === 0) return [];
        return await query<Row>(sql(localSource(dir)));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * An engine over Parquet files already on this machine, partitioned as DuckDB's
 * `PARTITION_BY (year, month, day, hour)` writes them
 * (`{root}/year=YYYY/month=MM/day=DD/hour=HH/`): the analytics bench's synthetic log
 * (test/bench/analytics.ts). Only the hours asked for are read.
 */
export function parquetLogEngine(root: string): LogQueryEngine {
  return {
    async run<Row>(sql: (source: string) => string, hours: readonly string[]): Promise<Row[]> {
      const globs = hours
        .map((hour) => {
          const [y, m, d, h] = [
            hour.slice(0, 4),
            hour.slice(5, 7),
            hour.slice(8, 10),
            hour.slice(11, 13),
          ];
          return join(root, `year=${y}`, `month=${m}`, `day=${d}`, `hour=${h}`);
        })
        .filter((dir) => existsSync(dir))
        .map((dir) => `'${join(dir, '*.parquet').replaceAll("'", "''")}'`);
      if (globs.length === 0) return [];
      return query<Row>(sql(`read_parquet([${globs.join(', ')}], hive_partitioning = false)`));
    },
  };
}

/** DuckDB's `FROM` item for the JSON-lines files in `dir`: every field a string. */
export function localSource(dir: string): string {
  const columns = CDN_LOG_FIELDS.map((f) => `${f}: 'VARCHAR'`).join(', ');
  return `read_json('${join(dir, '*.jsonl').replaceAll("'", "''")}', format = 'newline_delimited', columns = {${columns}})`;
}

/** Runs one statement in a fresh in-memory DuckDB. @returns rows, BIGINTs as numbers. */
export async function query<Row>(sql: string): Promise<Row[]> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const reader = await connection.runAndReadAll(sql);
    return reader
      .getRowObjectsJS()
      .map(
        (row) =>
          Object.fromEntries(
            Object.entries(row).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v]),
          ) as Row,
      );
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
