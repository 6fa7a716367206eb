/**
 * Campaigns (docs/analytics.md "Campaigns"): a design may carry a campaign name, and a campaign's
 * report adds up the analytics of the team's designs that carry it.
 * - `PUT /api/pic-snippet/{id}/campaign`: set or clear a design's campaign (a versioned write);
 * - `GET /api/campaigns`: the current team's campaigns with how many designs each has;
 * - `GET /api/campaigns/report?campaign=…&from&to&granularity`: one campaign's report.
 */
import { z } from 'zod';
import { defineContract, IdParams } from './core.ts';
import { Version, WrittenSchema } from './designs.ts';
import { AnalyticsReportSchema, RANGE_CHECKS, RANGE_FIELDS, rangeOf } from './analytics.ts';

/** Longest campaign name, characters. */
export const MAX_CAMPAIGN_LENGTH = 60;
/** Designs one campaign's report adds up at most (the most recently updated first). */
export const MAX_CAMPAIGN_DESIGNS = 100;

/**
 * A campaign name: spaces trimmed and runs of them made one, 1–60 characters, no control
 * characters. Names are compared exactly as written after that ("Spring" and "spring" are two).
 */
export const CampaignNameSchema = z
  .string({ error: 'The campaign must be text.' })
  .transform((name) => name.replace(/\s+/g, ' ').trim())
  .pipe(
    z
      .string()
      .min(1, 'The campaign needs a name.')
      .max(
        MAX_CAMPAIGN_LENGTH,
        `The campaign may not be greater than ${MAX_CAMPAIGN_LENGTH} characters.`,
      )
      .regex(/^\P{Cc}+$/u, 'The campaign may not hold control characters.'),
  );

/** `PUT /api/pic-snippet/{id}/campaign`: the design's campaign, or null for none. */
export const CampaignBody = z.object({
  version: Version,
  campaign: CampaignNameSchema.nullable(),
});

/** The answer: the write's fields and the campaign as stored. */
export const CampaignSavedSchema = WrittenSchema.extend({ campaign: z.string().nullable() });

/** The team's campaigns, by name (A–Z), each with how many of the team's designs carry it. */
export const CampaignListSchema = z.object({
  campaigns: z.array(z.object({ name: z.string(), designs: z.number().int().positive() })),
});

/** `GET /api/campaigns/report`: the campaign and the range (as a design's report reads it). */
export const CampaignReportQuerySchema = z
  .object({ campaign: CampaignNameSchema, ...RANGE_FIELDS })
  .transform((q) => ({ campaign: q.campaign, ...rangeOf(q) }))
  .refine(RANGE_CHECKS[0].ok, { message: RANGE_CHECKS[0].message, path: ['to'] })
  .refine(RANGE_CHECKS[1].ok, { message: RANGE_CHECKS[1].message, path: ['to'] });
export type CampaignReportQuery = z.output<typeof CampaignReportQuerySchema>;

/**
 * A campaign's report: the sums of its designs' reports (totals, series, breakdowns, fallbacks;
 * no variants, which are each design's own), and each design's line, most impressions first.
 * `truncated` when the campaign has more designs than {@link MAX_CAMPAIGN_DESIGNS} (the most
 * recently updated are added up).
 */
export const CampaignReportSchema = AnalyticsReportSchema.pick({
  from: true,
  to: true,
  granularity: true,
  totals: true,
  series: true,
  devices: true,
  clients: true,
  countries: true,
  fallbacks: true,
  rolled_up_at: true,
}).extend({
  campaign: z.string(),
  designs: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      status: z.enum(['active', 'archived']),
      impressions: z.number().int().nonnegative(),
      clicks: z.number().int().nonnegative(),
      click_through_rate: z.number().nullable(),
    }),
  ),
  truncated: z.boolean(),
});
export type CampaignReport = z.output<typeof CampaignReportSchema>;

/** The routes' contracts, by route key. */
export const CAMPAIGNS_CONTRACT = {
  'PUT /api/pic-snippet/{id}/campaign': defineContract({
    params: IdParams,
    body: CampaignBody,
    answer: CampaignSavedSchema,
    errors: [409],
  }),
  'GET /api/campaigns': defineContract({ answer: CampaignListSchema }),
  'GET /api/campaigns/report': defineContract({
    query: CampaignReportQuerySchema,
    answer: CampaignReportSchema,
  }),
} as const;
