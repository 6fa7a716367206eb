/**
 * How the analytics page reads a report (shared/contract/analytics.ts `AnalyticsReportSchema`;
 * docs/analytics.md "The report"): the series filled out to every day or hour of the range, the
 * breakdowns as sorted rows with their share of the impressions, and how counts, rates, periods
 * and the roll-up's time are written.
 */
import type { AnalyticsPoint, AnalyticsReport } from '#shared/contract/analytics.ts';
import { shiftDay, type Granularity } from './range.ts';

const PERCENT = new Intl.NumberFormat('en-GB', { style: 'percent', maximumFractionDigits: 1 });

/** A ratio (0–1, a click-through rate may pass 1) as a percent, `5.2%`; `—` when not known. */
export const formatPercent = (ratio: number | null): string =>
  ratio === null ? '—' : PERCENT.format(ratio);

const DAY_LONG = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const DAY_SHORT = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});

/**
 * A period of the series as the page writes it (UTC, as the report's periods are): a day
 * `2026-03-09` is `9 Mar 2026` (`9 Mar` short), an hour `2026-03-09T14` is `9 Mar 2026, 14:00`
 * (`9 Mar 14:00` short). Anything else is written as it is.
 */
export function periodLabel(period: string, size: 'long' | 'short' = 'long'): string {
  const match = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}))?$/.exec(period);
  const date = match ? new Date(`${match[1]}T00:00:00Z`) : null;
  if (!match || !date || Number.isNaN(date.getTime())) return period;
  const day = (size === 'long' ? DAY_LONG : DAY_SHORT).format(date);
  if (match[2] === undefined) return day;
  return size === 'long' ? `${day}, ${match[2]}:00` : `${day} ${match[2]}:00`;
}

/**
 * Every period of a range, oldest first: its days (`YYYY-MM-DD`), or its hours
 * (`YYYY-MM-DDTHH`, 24 a day), none after `now`'s day or hour (the future has nothing to count
 * yet, and is not drawn as zeros).
 */
export function periodsOf(from: string, to: string, granularity: Granularity, now: Date): string[] {
  const last = now.toISOString().slice(0, granularity === 'hour' ? 13 : 10);
  const periods: string[] = [];
  for (let day = from; day <= to; day = shiftDay(day, 1)) {
    const ofDay =
      granularity === 'hour'
        ? Array.from({ length: 24 }, (_, h) => `${day}T${String(h).padStart(2, '0')}`)
        : [day];
    for (const period of ofDay) {
      if (period > last) return periods;
      periods.push(period);
    }
  }
  return periods;
}

/**
 * The report's series with every period of its range (`periodsOf`): the series holds only
 * periods with counts (docs/analytics.md "The report"), the others are zeros here (their
 * recipients 0 by the day, null by the hour, as the report gives them). A point outside the
 * periods (a server clock ahead of this one) is kept, in its place.
 * @returns points oldest first, one per period.
 */
export function filledSeries(
  report: Pick<AnalyticsReport, 'series' | 'from' | 'to' | 'granularity'>,
  now: Date,
): AnalyticsPoint[] {
  const counted = new Map(report.series.map((p) => [p.period, p]));
  const periods = new Set([
    ...periodsOf(report.from, report.to, report.granularity, now),
    ...counted.keys(),
  ]);
  return [...periods].sort().map(
    (period) =>
      counted.get(period) ?? {
        period,
        opens: 0,
        proxy_fetches: 0,
        clicks: 0,
        cdn_hits: 0,
        recipients: report.granularity === 'day' ? 0 : null,
      },
  );
}

/** One row of a breakdown: a value (a device, client or country) and its impressions. */
export interface BreakdownRow {
  key: string;
  label: string;
  count: number;
  /** Of the range's impressions, 0–1; null without impressions. */
  share: number | null;
}

/**
 * A breakdown's rows, most impressions first (equal counts by label), each with its share of
 * `impressions` (the report's total of opens and proxy fetches, which the breakdowns split).
 */
export function breakdownRows(
  counts: Record<string, number>,
  impressions: number,
  label: (key: string) => string,
): BreakdownRow[] {
  return Object.entries(counts)
    .map(([key, count]) => ({
      key,
      label: label(key),
      count,
      share: impressions > 0 ? count / impressions : null,
    }))
    .sort((a, b) => b.count - a.count || a.label.localeCompare(b.label, 'en'));
}

/** The device classes (docs/analytics.md "Devices and clients"). */
const DEVICES: Record<string, string> = {
  desktop: 'Desktop',
  mobile: 'Mobile',
  tablet: 'Tablet',
  unknown: 'Unknown',
};

/** The clients: the mail proxies, or none (docs/analytics.md "Devices and clients"). */
const CLIENTS: Record<string, string> = {
  gmail: 'Gmail',
  yahoo: 'Yahoo Mail',
  outlook: 'Outlook',
  apple: 'Apple Mail',
  other: 'Other (no proxy)',
};

export const deviceLabel = (key: string): string => DEVICES[key] ?? key;

export const clientLabel = (key: string): string => CLIENTS[key] ?? key;

let regions: Intl.DisplayNames | undefined;

/**
 * A country of the breakdown by name: a two-letter code by the browser's English name for it
 * (`DE` → `Germany`), `unknown` (the CDN did not know it) as `Unknown`, `other` (countries past
 * the roll-up's 60 a period) as `Other countries`; a code the browser does not know as it is.
 */
export function countryLabel(key: string): string {
  if (key === 'unknown') return 'Unknown';
  if (key === 'other') return 'Other countries';
  try {
    regions ??= new Intl.DisplayNames(['en'], { type: 'region' });
    return regions.of(key.toUpperCase()) ?? key;
  } catch {
    return key;
  }
}

const RELATIVE = new Intl.RelativeTimeFormat('en-GB', { numeric: 'auto' });
const LOCAL_TIME = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * When the report's newest roll-up ran (`rolled_up_at`), as the page says it: relative within a
 * day (`just now`, `5 minutes ago`, `3 hours ago`), else the local date and time
 * (`9 Mar 2026, 14:05`).
 * @returns `relative`, and `local`: the local date and time, always (the text's title).
 */
export function rolledUpLabel(iso: string, now: Date): { relative: string; local: string } {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return { relative: iso, local: iso };
  const local = LOCAL_TIME.format(at);
  const minutes = Math.round((now.getTime() - at.getTime()) / 60_000);
  if (minutes < 1) return { relative: 'just now', local };
  if (minutes < 60) return { relative: RELATIVE.format(-minutes, 'minute'), local };
  const hours = Math.round(minutes / 60);
  if (hours < 24) return { relative: RELATIVE.format(-hours, 'hour'), local };
  return { relative: local, local };
}
