/**
 * The analytics report of a design (docs/analytics.md "The report"): `GET
 * /api/pic-snippet/{id}/analytics?from=YYYY-MM-DD&to=YYYY-MM-DD&granularity=day|hour`. The
 * roll-ups behind it come from the CDN's log (functions/analytics/rollup.ts).
 */
import { z } from 'zod';

/** Longest range of a `day` report, days (the roll-ups' retention). */
export const MAX_REPORT_DAYS = 400;
/** Longest range of an `hour` report, days (168 points). */
export const MAX_HOURLY_DAYS = 7;

/** A calendar day, `YYYY-MM-DD` (a real date: `2026-02-30` is refused). */
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'A day is YYYY-MM-DD.')
  .refine((value) => {
    const parsed = Date.parse(`${value}T00:00:00Z`);
    return !Number.isNaN(parsed) && new Date(parsed).toISOString().slice(0, 10) === value;
  }, 'A day is YYYY-MM-DD.');

/** The day `days` after `day` (negative: before), `YYYY-MM-DD`. */
const shiftDay = (day: string, days: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The range fields of a report's query (`AnalyticsQuerySchema`, the campaign report's). */
export const RANGE_FIELDS = {
  from: day.optional(),
  to: day.optional(),
  granularity: z.enum(['day', 'hour']).default('day'),
};

/** The range with its defaults: without `to`, today; without `from`, 30 days (7 by the hour). */
export function rangeOf(q: {
  from?: string | undefined;
  to?: string | undefined;
  granularity: 'day' | 'hour';
}): {
  from: string;
  to: string;
  granularity: 'day' | 'hour';
} {
  const to = q.to ?? new Date().toISOString().slice(0, 10);
  const from = q.from ?? shiftDay(to, q.granularity === 'hour' ? -(MAX_HOURLY_DAYS - 1) : -29);
  return { from, to, granularity: q.granularity };
}

/** The checks of a range, each with its message on `to`. */
export const RANGE_CHECKS = [
  {
    ok: (q: { from: string; to: string }) => q.from <= q.to,
    message: 'The range must end on or after its start.',
  },
  {
    ok: (q: { from: string; to: string; granularity: 'day' | 'hour' }) =>
      (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 + 1 <=
      (q.granularity === 'hour' ? MAX_HOURLY_DAYS : MAX_REPORT_DAYS),
    message: `The range may span at most ${MAX_REPORT_DAYS} days (${MAX_HOURLY_DAYS} by the hour).`,
  },
] as const;

/**
 * The query: an inclusive range of UTC days, and the points' size. Without `to`, today; without
 * `from`, 30 days up to `to` (7 by the hour).
 */
export const AnalyticsQuerySchema = z
  .object(RANGE_FIELDS)
  .transform(rangeOf)
  .refine(RANGE_CHECKS[0].ok, { message: RANGE_CHECKS[0].message, path: ['to'] })
  .refine(RANGE_CHECKS[1].ok, { message: RANGE_CHECKS[1].message, path: ['to'] });
export type AnalyticsQuery = z.output<typeof AnalyticsQuerySchema>;

const counts = z.record(z.string(), z.number().int().nonnegative());

/** One point of the series: a day or an hour with anything counted. */
export const AnalyticsPointSchema = z.object({
  /** `YYYY-MM-DD` or `YYYY-MM-DDTHH`, UTC. */
  period: z.string(),
  opens: z.number().int().nonnegative(),
  proxy_fetches: z.number().int().nonnegative(),
  clicks: z.number().int().nonnegative(),
  cdn_hits: z.number().int().nonnegative(),
  /** Distinct recipients of the day (day points only). */
  recipients: z.number().int().nonnegative().nullable(),
});
export type AnalyticsPoint = z.output<typeof AnalyticsPointSchema>;

/** The report: totals over the range, the series, and the breakdowns of impressions. */
export const AnalyticsReportSchema = z.object({
  design_id: z.string(),
  from: z.string(),
  to: z.string(),
  granularity: z.enum(['day', 'hour']),
  totals: z.object({
    opens: z.number().int().nonnegative(),
    proxy_fetches: z.number().int().nonnegative(),
    /** Opens and proxy fetches. */
    impressions: z.number().int().nonnegative(),
    clicks: z.number().int().nonnegative(),
    /** Clicks per impression, 0–1; null without impressions. */
    click_through_rate: z.number().min(0).nullable(),
    /** Requests the CDN's cache answered, 0–1 of all; null without requests. */
    cdn_hit_ratio: z.number().min(0).max(1).nullable(),
    /** The days' distinct recipients summed (a recipient of two days counts twice). */
    recipients: z.number().int().nonnegative(),
  }),
  series: z.array(AnalyticsPointSchema),
  devices: counts,
  clients: counts,
  countries: counts,
  /**
   * A design with rules: each variant's impressions and clicks over the range (docs/analytics.md
   * "Variants"), the design's rules in order, then `default` (no rule matched); empty without
   * rules. `name` is the rule's name now (`Default` for the default).
   */
  variants: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      impressions: z.number().int().nonnegative(),
      clicks: z.number().int().nonnegative(),
      /** Clicks per impression; null without impressions. */
      click_through_rate: z.number().min(0).nullable(),
    }),
  ),
  /**
   * Fallback images the render URL served over the range, by why (docs/analytics.md
   * "Fallbacks"): a signed design's URL refused, past the draw budgets, past the monthly quota,
   * or a draw that failed. Counted by the render function, hour by hour.
   */
  fallbacks: z.object({
    refused: z.number().int().nonnegative(),
    rate_limited: z.number().int().nonnegative(),
    over_quota: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
  }),
  /**
   * Which variant leads on clicks (docs/optimiser.md "The sampling"): each variant's
   * probability of having the best click-through rate, by Thompson sampling over the range's
   * counts; `collecting` while a variant has fewer than the minimum impressions (then no
   * winner). Null for a design with fewer than two variants.
   */
  optimiser: z
    .object({
      collecting: z.boolean(),
      /** Impressions each variant needs before a winner is named. */
      min_impressions: z.number().int().nonnegative(),
      winner: z
        .object({ id: z.string(), name: z.string(), probability_best: z.number().min(0).max(1) })
        .nullable(),
      /** The split the optimiser would give each variant (0–1, summing to 1). */
      weights: z.array(z.object({ id: z.string(), weight: z.number().min(0).max(1) })),
    })
    .nullable(),
  /**
   * A design set to "Optimise for clicks" (docs/optimiser.md "In the product"): the share of
   * recipients (0–1) each split rule gets now, when the roll-up last reweighed (ISO 8601, null
   * before the first), and whether a rule is still under the minimum sample (the split then
   * stays equal). Null for a design that does not optimise.
   */
  split: z
    .object({
      shares: z.array(
        z.object({ id: z.string(), name: z.string(), share: z.number().min(0).max(1) }),
      ),
      reweighed_at: z.string().nullable(),
      collecting: z.boolean(),
    })
    .nullable(),
  /** When the newest roll-up in the range ran (ISO 8601), null when none did. */
  rolled_up_at: z.string().nullable(),
});
export type AnalyticsReport = z.output<typeof AnalyticsReportSchema>;
