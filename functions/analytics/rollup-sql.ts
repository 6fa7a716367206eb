/**
 * The roll-up's SQL over the CDN's log records (docs/analytics.md "The roll-up"): one statement
 * text that both engines run, Athena (Trino) over the Parquet logs in AWS and DuckDB over the
 * local JSON lines; only the `FROM` source differs. It keeps to functions both dialects share
 * (`lower`, `replace`, `strpos`, `substr`, `regexp_extract`, `concat`, `nullif`,
 * `count(DISTINCT)`), and every literal in it is this file's own: the period is checked before it
 * is written in.
 */
import { MAIL_PROXY_AGENTS } from '#functions/render/mail-proxies.ts';
import { isDay, isHour } from './cdn-log.ts';

/** The period a statement covers: one hour (`YYYY-MM-DDTHH`) or one day (`YYYY-MM-DD`), UTC. */
export type RollupPeriod = { hour: string } | { day: string };

/** The device classes counted, as the rules name them, plus `unknown` (docs/analytics.md "Devices and clients"). */
export const ANALYTICS_DEVICES = ['mobile', 'tablet', 'desktop', 'unknown'] as const;
export type AnalyticsDevice = (typeof ANALYTICS_DEVICES)[number];

/** The e-mail clients counted: the image proxies (mail-proxies.ts), else `other`. */
export const ANALYTICS_CLIENTS = ['gmail', 'yahoo', 'outlook', 'apple', 'other'] as const;
export type AnalyticsClient = (typeof ANALYTICS_CLIENTS)[number];

/** What a request was: a recipient's open, a mail proxy's fetch, or a click through `/l/`. */
export type AnalyticsKind = 'open' | 'proxy' | 'click';

/** One row of {@link breakdownSql}. Counts are numbers (DuckDB's BIGINT read as such). */
export interface BreakdownRow {
  public_id: string;
  kind: AnalyticsKind;
  device: AnalyticsDevice;
  client: AnalyticsClient;
  /** Two letters, or `unknown`. */
  country: string;
  requests: number;
  cdn_hits: number;
}

/** One row of {@link recipientsSql}. */
export interface RecipientsRow {
  public_id: string;
  recipients: number;
}

/** A SQL string literal of a value this file wrote (quotes doubled all the same). */
const literal = (value: string): string => `'${value.replaceAll("'", "''")}'`;

/** The User-Agent, lower case, with CloudFront's `%20` read as spaces. */
const AGENT = "lower(replace(cs_user_agent, '%20', ' '))";

const contains = (fragment: string): string =>
  `strpos(${AGENT}, ${literal(fragment.toLowerCase())}) > 0`;

/** The client: the first proxy whose fragment the agent holds (mail-proxies.ts), else `other`. */
const CLIENT = `CASE ${MAIL_PROXY_AGENTS.map(
  ({ proxy, fragment }) => `WHEN ${contains(fragment)} THEN ${literal(proxy)}`,
).join(' ')} ELSE 'other' END`;

/** A request from a mail proxy: its agent holds a proxy's fragment. */
const FROM_PROXY = MAIL_PROXY_AGENTS.map(({ fragment }) => contains(fragment)).join(' OR ');

/**
 * The device class: unknown behind a proxy (its agent says nothing of the reader) or without an
 * agent; tablets (`ipad`, `tablet`, an Android without `mobile`), phones (`iphone`, `mobile`),
 * else desktop (docs/analytics.md "Devices and clients").
 */
const DEVICE = `CASE WHEN ${FROM_PROXY} OR cs_user_agent = '-' THEN 'unknown'
  WHEN ${contains('ipad')} OR ${contains('tablet')} THEN 'tablet'
  WHEN ${contains('iphone')} OR ${contains('mobile')} THEN 'mobile'
  WHEN ${contains('android')} THEN 'tablet'
  ELSE 'desktop' END`;

const KIND = `CASE WHEN cs_uri_stem LIKE '/l/%' THEN 'click' WHEN ${FROM_PROXY} THEN 'proxy' ELSE 'open' END`;

/** The design's public id from `/r/{publicId}…` or `/l/{publicId}…`. */
const PUBLIC_ID = "regexp_extract(cs_uri_stem, '^/[rl]/([A-Za-z0-9_-]+)', 1)";

/**
 * The requests that count: answered GETs of a render or a link (a 304 is an open whose image
 * the client kept; a link's answer is its 302), never the product's own previews (`__preview=1`).
 */
function counted(period: RollupPeriod): string {
  const inPeriod =
    'hour' in period
      ? `date = ${literal(period.hour.slice(0, 10))} AND substr(time, 1, 2) = ${literal(period.hour.slice(11, 13))}`
      : `date = ${literal(period.day)}`;
  return `${inPeriod}
  AND cs_method = 'GET'
  AND (cs_uri_stem LIKE '/r/%' OR cs_uri_stem LIKE '/l/%')
  AND sc_status IN ('200', '302', '304')
  AND strpos(cs_uri_query, '__preview=1') = 0`;
}

/** @throws RangeError when the period is not an hour or a day as written by cdn-log.ts. */
function checked(period: RollupPeriod): RollupPeriod {
  if ('hour' in period ? !isHour(period.hour) : !isDay(period.day))
    throw new RangeError(`Not a roll-up period: ${JSON.stringify(period)}`);
  return period;
}

/**
 * Requests of the period by design, kind, device, client and country, with how many the CDN's
 * cache answered ({@link BreakdownRow}).
 * @param source the `FROM` item: Athena's table, or DuckDB's `read_json(…)` of the files.
 * @throws RangeError for a malformed period.
 */
export function breakdownSql(source: string, period: RollupPeriod): string {
  return `SELECT ${PUBLIC_ID} AS public_id,
  ${KIND} AS kind,
  ${DEVICE} AS device,
  ${CLIENT} AS client,
  CASE WHEN c_country = '-' THEN 'unknown' ELSE upper(c_country) END AS country,
  count(*) AS requests,
  sum(CASE WHEN x_edge_result_type IN ('Hit', 'RefreshHit') THEN 1 ELSE 0 END) AS cdn_hits
FROM ${source}
WHERE ${counted(checked(period))}
GROUP BY 1, 2, 3, 4, 5`;
}

/**
 * Distinct recipients of the period's opens and proxy fetches by design: distinct queries, the
 * URL's values (a URL without a query names nobody and is not counted). Only the count leaves
 * the engine, never a value ({@link RecipientsRow}).
 * @throws RangeError for a malformed period.
 */
export function recipientsSql(source: string, period: RollupPeriod): string {
  return `SELECT ${PUBLIC_ID} AS public_id,
  count(DISTINCT nullif(cs_uri_query, '-')) AS recipients
FROM ${source}
WHERE ${counted(checked(period))}
  AND cs_uri_stem LIKE '/r/%'
GROUP BY 1`;
}

/** One row of {@link variantInputsSql}: a group of requests a design's rules read alike. */
export interface VariantInputRow {
  public_id: string;
  /** `click` (`/l/`), else a view (an open or a proxy fetch). */
  kind: 'click' | 'view';
  cs_uri_query: string;
  cs_user_agent: string;
  c_country: string;
  /** `YYYY-MM-DD` and `HH:MM`, UTC: the minute the rules' clock reads. */
  date: string;
  minute: string;
  requests: number;
}

/** Groups read per variant statement at most (past it, the rest is not attributed). */
export const MAX_VARIANT_GROUPS = 500_000;

/** A public id as the render path allows it (shared/render-url.ts), safe as a literal. */
const PUBLIC_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * What the rules of the named designs read, grouped: the query (the recipient's values and the
 * split bucket), the agent (device, OS, mail client), the country and the minute, with how many
 * requests of each kind (docs/analytics.md "Variants"). The roll-up replays the rules on each
 * group; the counts leave the engine, and the values are read there, never stored.
 * @param publicIds the designs with rules, at most 1,000, each a valid public id.
 * @throws RangeError for a malformed period, a bad id or too many.
 */
export function variantInputsSql(
  source: string,
  period: RollupPeriod,
  publicIds: readonly string[],
): string {
  if (publicIds.length === 0 || publicIds.length > 1000)
    throw new RangeError('Between 1 and 1,000 designs a variant statement.');
  for (const id of publicIds)
    if (!PUBLIC_ID_PATTERN.test(id)) throw new RangeError(`Not a public id: ${id}`);
  return `SELECT ${PUBLIC_ID} AS public_id,
  CASE WHEN cs_uri_stem LIKE '/l/%' THEN 'click' ELSE 'view' END AS kind,
  cs_uri_query, cs_user_agent, c_country, date, substr(time, 1, 5) AS minute,
  count(*) AS requests
FROM ${source}
WHERE ${counted(checked(period))}
  AND ${PUBLIC_ID} IN (${publicIds.map(literal).join(', ')})
GROUP BY 1, 2, 3, 4, 5, 6, 7
LIMIT ${MAX_VARIANT_GROUPS}`;
}
