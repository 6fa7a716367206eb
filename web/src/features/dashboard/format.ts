/**
 * How the dashboard and the show page write dates and counts (docs/adr/0020-dashboard-spa.md
 * "Dashboard SPA": "A card shows preview image, title, created date and views count").
 */
import { rolledUpLabel } from '../analytics/report.ts';
import { formatCount } from '../../lib/format.ts';

/**
 * "1 open", "1,234 opens": the design's `counter`, called opens wherever it shows (the dashboard,
 * the design page, the analytics page; docs/analytics.md "Counts on the dashboard").
 */
export function opensLabel(opens: number): string {
  return `${formatCount(opens)} ${opens === 1 ? 'open' : 'opens'}`;
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
