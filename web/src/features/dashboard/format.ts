/**
 * How the dashboard and the show page write dates and counts (docs/decisions.md "Dashboard SPA": "A card shows
 * preview image, title, created date and views count").
 */

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

/** "1 view", "1,234 views" (docs/decisions.md "The design document: versions and restore" `counter`). */
export function viewsLabel(views: number): string {
  return `${views.toLocaleString('en-GB')} ${views === 1 ? 'view' : 'views'}`;
}
