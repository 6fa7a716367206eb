/**
 * How the dashboard and the show page write dates and counts (docs/adr/0020-dashboard-spa.md
 * "Dashboard SPA": "A card shows preview image, title, created date and views count").
 */
import { rolledUpLabel } from '../analytics/report.ts';

const DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/**
 * A readable day, "22 Nov 2026", in the browser's time zone.
 * @param iso an ISO 8601 date-time (`created_at`, `updated_at`).
 * @returns the day, or '' when `iso` is not a date (the caller then leaves the line out).
 */
export function formatDay(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : DATE.format(date);
}

/**
 * "1 open", "1,234 opens": the design's `counter`, called opens wherever it shows (the dashboard,
 * the design page, the analytics page; docs/analytics.md "Counts on the dashboard").
 */
export function opensLabel(opens: number): string {
  return `${opens.toLocaleString('en-GB')} ${opens === 1 ? 'open' : 'opens'}`;
}

/**
 * How fresh the counts are, from `counted_at`: "counted just now", "counted 5 minutes ago",
 * "counted 3 hours ago", else "counted 9 Mar 2026, 14:05" (analytics' `rolledUpLabel`); null
 * when never counted.
 */
export function countedLabel(
  countedAt: string | null | undefined,
  now = new Date(),
): string | null {
  if (!countedAt) return null;
  return `counted ${rolledUpLabel(countedAt, now).relative}`;
}
