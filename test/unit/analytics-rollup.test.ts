/**
 * The analytics roll-up's pieces without the stack (docs/analytics.md "The roll-up", "Devices
 * and clients"): the SQL run by DuckDB over log lines written here, how long a CDN keeps an
 * answer, and how rows become a design's counts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cdnLogRecord } from '#functions/analytics/cdn-log.ts';
import {
  breakdownSql,
  recipientsSql,
  variantInputsSql,
  type BreakdownRow,
} from '#functions/analytics/rollup-sql.ts';
import { countsByDesign, MAX_COUNTRIES } from '#functions/analytics/rollup.ts';
import { localSource, query } from '#infra/local/duckdb-log-engine.ts';
import { cdnLifetimeMs, LocalCdnCache } from '#infra/local/cdn-log-writer.ts';

const AT = Date.parse('2026-11-28T10:15:00Z');
const agents = {
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Safari/604.1',
  androidTablet:
    'Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 Chrome/120 Safari/537.36',
  androidPhone:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36',
  desktop: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120 Safari/537.36',
  gmail:
    'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
  // CloudFront writes spaces in the agent as %20.
  outlook: 'Microsoft%20Outlook%2016.0',
};

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'analytics-unit-'));
  const line = (
    path: string,
    userAgent: string | undefined,
    extra: Partial<{
      query: string;
      status: number;
      hit: boolean;
      at: number;
      country: string;
    }> = {},
  ) =>
    JSON.stringify(
      cdnLogRecord({
        at: extra.at ?? AT,
        method: 'GET',
        path,
        query: extra.query ?? 'first_name=A',
        userAgent,
        status: extra.status ?? 200,
        hit: extra.hit ?? false,
        country: extra.country,
      }),
    );
  const lines = [
    line('/r/pub1.jpg', agents.iphone, { country: 'fr' }),
    line('/r/pub1.jpg', agents.iphone, { country: 'FR', hit: true }),
    line('/r/pub1/v3.png', agents.ipad, { query: 'first_name=B' }),
    line('/r/pub1', agents.androidTablet, { query: 'first_name=C' }),
    line('/r/pub1', agents.androidPhone, { query: 'first_name=D' }),
    line('/r/pub1', agents.desktop, { query: '' }),
    line('/r/pub1', agents.gmail, { query: 'first_name=E' }),
    line('/r/pub1', agents.outlook, { query: 'first_name=F' }),
    line('/r/pub1', undefined, { query: 'first_name=G' }),
    line('/l/pub1', agents.iphone, { status: 302 }),
    // Not counted: a preview, a failed link, another hour, a POST-like method, another path.
    line('/r/pub1', agents.desktop, { query: 'first_name=A&__preview=1' }),
    line('/l/pub1', agents.desktop, { status: 404 }),
    line('/r/pub1', agents.desktop, { at: AT + 3_600_000 }),
    line('/api/health', agents.desktop),
    line('/r/pub2.jpg', agents.desktop, { query: 'first_name=Z' }),
  ];
  await writeFile(join(dir, 'a.jsonl'), lines.join('\n') + '\n');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the roll-up SQL (DuckDB)', () => {
  it('tells opens, proxy fetches and clicks apart, by device, client and country', async () => {
    const rows = await query<BreakdownRow>(
      breakdownSql(localSource(dir), { hour: '2026-11-28T10' }),
    );
    const counts = countsByDesign(rows).get('pub1')!;
    expect(counts).toMatchObject({ opens: 7, proxyFetches: 2, clicks: 1, cdnHits: 1 });
    expect(counts.devices).toEqual({ mobile: 3, tablet: 2, desktop: 1, unknown: 3 });
    expect(counts.clients).toEqual({ gmail: 1, outlook: 1, yahoo: 0, apple: 0, other: 7 });
    expect(counts.countries).toEqual({ FR: 2, unknown: 7 });
    expect(countsByDesign(rows).get('pub2')?.opens).toBe(1);
  });

  it('counts a day’s distinct recipients by their values, not URLs without any', async () => {
    const rows = await query<{ public_id: string; recipients: number }>(
      recipientsSql(localSource(dir), { day: '2026-11-28' }),
    );
    // pub1: A (twice, and the next hour), B, C, D, E, F, G; the bare URL names nobody.
    expect(rows.find((r) => r.public_id === 'pub1')?.recipients).toBe(7);
  });

  it('writes no period it has not checked into its SQL', () => {
    expect(() => breakdownSql('t', { hour: "2026-11-28T10' OR 1=1 --" })).toThrow(RangeError);
    expect(() => recipientsSql('t', { day: '28/11/2026' })).toThrow(RangeError);
    expect(() => variantInputsSql('t', { day: '2026-11-28' }, ["pub1') OR ('1'='1"])).toThrow(
      RangeError,
    );
    expect(() => variantInputsSql('t', { day: '2026-11-28' }, [])).toThrow(RangeError);
  });
});

describe('countsByDesign', () => {
  it(`keeps at most ${MAX_COUNTRIES} countries an item, the rest as other`, () => {
    const rows: BreakdownRow[] = Array.from({ length: MAX_COUNTRIES + 5 }, (_, i) => ({
      public_id: 'p',
      kind: 'open',
      device: 'desktop',
      client: 'other',
      country: `C${i}`,
      requests: 1,
      cdn_hits: 0,
    }));
    const counts = countsByDesign(rows).get('p')!;
    expect(Object.keys(counts.countries)).toHaveLength(MAX_COUNTRIES + 1);
    expect(counts.countries.other).toBe(5);
    expect(counts.opens).toBe(MAX_COUNTRIES + 5);
  });
});

describe('the local CDN', () => {
  it('keeps what a shared cache may keep, for as long as it may', () => {
    expect(cdnLifetimeMs('public, max-age=300, stale-while-revalidate=86400')).toBe(300_000);
    expect(cdnLifetimeMs('public, max-age=60, s-maxage=600')).toBe(600_000);
    expect(cdnLifetimeMs('no-store')).toBe(0);
    expect(cdnLifetimeMs('private, max-age=60')).toBe(0);
    expect(cdnLifetimeMs(undefined)).toBe(0);
    const cdn = new LocalCdnCache();
    expect(cdn.hit('/r/a?x=1', 0, 'public, max-age=300')).toBe(false);
    expect(cdn.hit('/r/a?x=1', 299_000, 'public, max-age=300')).toBe(true);
    expect(cdn.hit('/r/a?x=1', 301_000, 'no-store')).toBe(false);
    expect(cdn.hit('/r/a?x=1', 302_000, 'no-store')).toBe(false);
  });
});
