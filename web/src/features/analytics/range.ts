/**
 * The analytics page's range (docs/analytics.md "The report"): inclusive UTC days and the
 * points' size, kept in the page's search parameters (`from`, `to`, `granularity`) so a range
 * has an address to share or reload. The rules (defaults, the longest ranges) are the
 * contract's: shared/contract/analytics.ts `AnalyticsQuerySchema`.
 */
import {
  AnalyticsQuerySchema,
  MAX_HOURLY_DAYS,
  type AnalyticsQuery,
} from '#shared/contract/analytics.ts';

export type Granularity = AnalyticsQuery['granularity'];

const DAY_MS = 86_400_000;

/** The range presets: the last `days` UTC days, today included. */
export const PRESETS = [
  { days: 7, label: 'Last 7 days' },
  { days: 30, label: 'Last 30 days' },
  { days: 90, label: 'Last 90 days' },
] as const;

/** Today's UTC day at `now`, `YYYY-MM-DD` (the report's days are UTC days). */
export const utcDay = (now: Date): string => now.toISOString().slice(0, 10);

/** The day `days` after `day` (negative: before), both `YYYY-MM-DD`. */
export const shiftDay = (day: string, days: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** Days from `from` to `to`, both counted (`2026-03-01`–`2026-03-07` is 7). */
export const spanDays = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

/**
 * Whether a range may be shown by the hour: at most `MAX_HOURLY_DAYS` (7) days
 * (docs/analytics.md "The report"; the server answers 422 on `to` otherwise).
 */
export const hourlyAllowed = (from: string, to: string): boolean =>
  spanDays(from, to) <= MAX_HOURLY_DAYS;

/** The preset range of `days` days ending `today`. */
export function presetRange(days: number, today: string): { from: string; to: string } {
  return { from: shiftDay(today, -(days - 1)), to: today };
}

/** The preset a range is, when it is one (it ends today and spans the preset's days). */
export function presetOf(range: { from: string; to: string }, today: string): number | null {
  const preset = PRESETS.find(
    (p) => range.to === today && range.from === presetRange(p.days, today).from,
  );
  return preset?.days ?? null;
}

/** The page's range as its address says it: the query to send, or why there is none. */
export type RangeRead =
  | { ok: true; query: AnalyticsQuery }
  | {
      ok: false;
      /** The parameters as written (empty when absent), for the inputs. */
      from: string;
      to: string;
      granularity: Granularity;
      /** Messages by field (`from`, `to`, `granularity`), the contract's own. */
      errors: Record<string, string[]>;
    };

/**
 * Reads the range of the search parameters with the contract's schema: without `to`, today;
 * without `from`, 30 days up to `to` (7 by the hour); a range past the longest, or ending before
 * it starts, is refused with the message the server would give (docs/analytics.md "The
 * report").
 */
export function readRange(params: URLSearchParams): RangeRead {
  const raw = {
    from: params.get('from') || undefined,
    to: params.get('to') || undefined,
    granularity: params.get('granularity') || undefined,
  };
  const parsed = AnalyticsQuerySchema.safeParse(raw);
  if (parsed.success) return { ok: true, query: parsed.data };
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? 'to');
    (errors[field] ??= []).push(issue.message);
  }
  return {
    ok: false,
    from: raw.from ?? '',
    to: raw.to ?? '',
    granularity: raw.granularity === 'hour' ? 'hour' : 'day',
    errors,
  };
}

/**
 * The search parameters for a new range, the others kept: `from` and `to` set (an empty value
 * removes one: the contract's default then applies), `granularity` written only for `hour`, and
 * dropped when the range is too long for hours (so picking 30 days while by the hour shows the
 * 30 days by the day instead of refusing them).
 */
export function withRange(
  previous: URLSearchParams,
  range: { from: string; to: string; granularity: Granularity },
): URLSearchParams {
  const next = new URLSearchParams(previous);
  for (const name of ['from', 'to'] as const) {
    if (range[name]) next.set(name, range[name]);
    else next.delete(name);
  }
  const hourly =
    range.granularity === 'hour' &&
    (!range.from || !range.to || hourlyAllowed(range.from, range.to));
  if (hourly) next.set('granularity', 'hour');
  else next.delete('granularity');
  return next;
}
