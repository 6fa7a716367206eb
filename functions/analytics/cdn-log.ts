/**
 * The CDN's access-log records of the render paths, the source of truth of campaign analytics
 * (docs/analytics.md "The source of truth"). In AWS CloudFront's standard logging (v2) writes
 * them to the logs bucket as Parquet, partitioned by hour; locally the gateway writes the same
 * fields as JSON lines under the same partitions (infra/local/cdn-log-writer.ts). The roll-up
 * reads both with the same SQL (rollup-sql.ts).
 */

/**
 * One request of `/r/*` or `/l/*` as the CDN logged it. Field names are CloudFront's Parquet
 * names (docs/analytics.md "Log fields"); every value is a string, `-` when absent, as
 * CloudFront writes them.
 */
export interface CdnLogRecord {
  /** `YYYY-MM-DD`, UTC. */
  date: string;
  /** `HH:MM:SS`, UTC. */
  time: string;
  cs_method: string;
  /** The path, e.g. `/r/abc123.jpg` or `/l/abc123`. */
  cs_uri_stem: string;
  /** The query without `?`, `-` when none. Raw recipient values: never leaves the log bucket. */
  cs_uri_query: string;
  /** The viewer's User-Agent (CloudFront may percent-encode it). */
  cs_user_agent: string;
  /** The HTTP status answered, e.g. `200`. */
  sc_status: string;
  /** `Hit`, `RefreshHit` (the CDN's cache answered), `Miss`, `Error`, … */
  x_edge_result_type: string;
  /** The viewer's country, ISO 3166-1 alpha-2 (CloudFront's geolocation), `-` when unknown. */
  c_country: string;
}

/**
 * How long roll-ups and fallback counts are kept, days (about 13 months; docs/analytics.md
 * "Privacy and retention").
 */
export const ROLLUP_RETENTION_DAYS = 400;

/** The record's fields in order: the columns the roll-up reads (all strings). */
export const CDN_LOG_FIELDS: ReadonlyArray<keyof CdnLogRecord> = [
  'date',
  'time',
  'cs_method',
  'cs_uri_stem',
  'cs_uri_query',
  'cs_user_agent',
  'sc_status',
  'x_edge_result_type',
  'c_country',
];

/** Where an hour's records live under the log prefix: `YYYY/MM/DD/HH/` (CloudFront v2's partitioning). */
export function hourPartition(hour: string): string {
  const [date, hh] = hour.split('T') as [string, string];
  return `${date.replaceAll('-', '/')}/${hh}/`;
}

/** An hour, `YYYY-MM-DDTHH` (UTC), of an instant in ms since the epoch. */
export const hourOf = (ms: number): string => new Date(ms).toISOString().slice(0, 13);

/** Whether `value` is an hour as {@link hourOf} writes it. */
export const isHour = (value: string): boolean => /^\d{4}-\d{2}-\d{2}T\d{2}$/.test(value);

/** Whether `value` is a day, `YYYY-MM-DD`. */
export const isDay = (value: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(value);

/**
 * A record of one answered render or link request, as the CDN would log it.
 * @param at when the answer went out, ms since the epoch.
 * @param hit whether a CDN would have answered it from its cache.
 */
export function cdnLogRecord(request: {
  at: number;
  method: string;
  path: string;
  query: string;
  userAgent: string | undefined;
  status: number;
  hit: boolean;
  country: string | undefined;
}): CdnLogRecord {
  const iso = new Date(request.at).toISOString();
  const dash = (value: string | undefined) => (value === undefined || value === '' ? '-' : value);
  return {
    date: iso.slice(0, 10),
    time: iso.slice(11, 19),
    cs_method: request.method,
    cs_uri_stem: request.path,
    cs_uri_query: dash(request.query),
    cs_user_agent: dash(request.userAgent?.slice(0, 1000)),
    sc_status: String(request.status),
    x_edge_result_type: request.hit ? 'Hit' : 'Miss',
    c_country: dash(request.country?.toUpperCase()),
  };
}
