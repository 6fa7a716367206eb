/**
 * The contract of the kiosk's announcements, performance indicators and cancel reasons
 * (docs/kiosk.md "Announcements", kiosk indicators, "Cancel reasons"; docs/kiosk.md "Kiosk";
 * docs/accounts.md "Constants" kiosk charts; docs/kiosk.md). functions/kiosk parses its input with
 * these schemas; the kiosk tabs and the notifications panel read the answers' types from here.
 */
import { z } from 'zod';
import { CANCEL_REASONS } from './billing.ts';
import { defineContract, IdParams, SuccessSchema } from './core.ts';

// ---------------------------------------------------------------------------------------------
// Announcements
// ---------------------------------------------------------------------------------------------

/** The longest announcement body, characters of Markdown (a few paragraphs; docs/kiosk.md). */
export const ANNOUNCEMENT_BODY_MAX = 5000;
/** The longest action text, characters (a button label). */
export const ANNOUNCEMENT_ACTION_TEXT_MAX = 60;
/** The longest URL kept, characters (browsers and CDNs handle 2 048 everywhere). */
export const URL_MAX = 2048;
/** How many announcements the kiosk lists, newest first. */
export const ANNOUNCEMENTS_LISTED = 100;

/** The messages of the announcement form (the spec gives none; docs/kiosk.md "Announcements"). */
export const ANNOUNCEMENT_MESSAGES = {
  bodyRequired: 'Write the announcement.',
  bodyTooLong: `The announcement may not be longer than ${ANNOUNCEMENT_BODY_MAX} characters.`,
  httpOnly: 'The link must start with http:// or https://.',
  actionTextTooLong: `The action text may not be longer than ${ANNOUNCEMENT_ACTION_TEXT_MAX} characters.`,
  actionTextRequired: 'Give the link a text.',
  actionUrlRequired: 'Give the action a link.',
  iconInvalid: 'Choose one of the icons.',
} as const;

/**
 * The icons an announcement can carry (docs/kiosk.md `icon`), each with the name a screen reader
 * reads; the SPA draws them (web/src/components/AnnouncementIcon.tsx), in the kiosk and the
 * notifications panel alike.
 */
export const ANNOUNCEMENT_ICONS = {
  megaphone: { label: 'Announcement' },
  sparkles: { label: 'New feature' },
  wrench: { label: 'Maintenance' },
  gift: { label: 'Offer' },
  info: { label: 'Information' },
  warning: { label: 'Warning' },
} as const;
export type AnnouncementIcon = keyof typeof ANNOUNCEMENT_ICONS;
const ICON_IDS = Object.keys(ANNOUNCEMENT_ICONS) as [AnnouncementIcon, ...AnnouncementIcon[]];

/**
 * True for an absolute http or https URL. The WHATWG URL parser decides (no regular
 * expression), so `javascript:`, `data:`, `mailto:` and relative paths are all refused.
 */
export function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'http:' || protocol === 'https:';
}

/** An optional text: trimmed, and empty or null means none (`undefined` after parsing). */
const optionalText = (max: number, message: string) =>
  z
    .string()
    .trim()
    .max(max, message)
    .nullish()
    .transform((v) => (v ? v : undefined));

/**
 * `POST /spark/kiosk/announcements` and `PUT …/{id}`: the Markdown body, an optional action
 * (text and http/https link, both or neither) and an icon (default `megaphone`).
 */
export const AnnouncementBody = z
  .object({
    body: z
      .string({ error: ANNOUNCEMENT_MESSAGES.bodyRequired })
      .trim()
      .min(1, ANNOUNCEMENT_MESSAGES.bodyRequired)
      .max(ANNOUNCEMENT_BODY_MAX, ANNOUNCEMENT_MESSAGES.bodyTooLong),
    action_text: optionalText(
      ANNOUNCEMENT_ACTION_TEXT_MAX,
      ANNOUNCEMENT_MESSAGES.actionTextTooLong,
    ),
    action_url: optionalText(URL_MAX, ANNOUNCEMENT_MESSAGES.httpOnly).refine(
      (v) => v === undefined || isHttpUrl(v),
      ANNOUNCEMENT_MESSAGES.httpOnly,
    ),
    icon: z.enum(ICON_IDS, { error: ANNOUNCEMENT_MESSAGES.iconInvalid }).default('megaphone'),
  })
  .superRefine((b, ctx) => {
    if (b.action_url && !b.action_text)
      ctx.addIssue({
        code: 'custom',
        path: ['action_text'],
        message: ANNOUNCEMENT_MESSAGES.actionTextRequired,
      });
    if (b.action_text && !b.action_url)
      ctx.addIssue({
        code: 'custom',
        path: ['action_url'],
        message: ANNOUNCEMENT_MESSAGES.actionUrlRequired,
      });
  });
export type AnnouncementInput = z.input<typeof AnnouncementBody>;

/** An announcement as the kiosk and the notifications panel read it (docs/kiosk.md). */
export const AnnouncementSchema = z.object({
  id: z.string(),
  /** Markdown; the SPA renders it without raw HTML, links http/https only. */
  body: z.string(),
  action_text: z.string().nullable(),
  /** http or https only. */
  action_url: z.string().nullable(),
  icon: z.enum(ICON_IDS),
  /** ISO 8601. */
  created_at: z.string(),
  /** ISO 8601: the last edit. */
  updated_at: z.string(),
});
export type Announcement = z.infer<typeof AnnouncementSchema>;

// ---------------------------------------------------------------------------------------------
// Performance indicators
// ---------------------------------------------------------------------------------------------

/** The days the recurring-revenue charts show (docs/accounts.md "Constants"). */
export const REVENUE_CHART_DAYS = 30;
/** The days the daily-volume and new-user charts show (docs/accounts.md "Constants"). */
export const ACTIVITY_CHART_DAYS = 14;

/**
 * One day's snapshot (docs/kiosk.md kiosk indicators). Amounts are US cents. A recurring revenue
 * is null on a day the job filled in afterwards (it cannot be known from today's records;
 * docs/kiosk.md "Metrics and the daily snapshot").
 */
export const IndicatorSchema = z.object({
  /** The UTC day, `YYYY-MM-DD`. */
  day: z.string(),
  /** Cents per month. */
  monthly_recurring_revenue: z.number().int().nullable(),
  /** Cents per year (12 × the monthly figure). */
  yearly_recurring_revenue: z.number().int().nullable(),
  /** Cents charged that day by subscription renewals, at list price. */
  daily_volume: z.number().int(),
  /** Accounts created that day. */
  new_users: z.number().int(),
  /** True when the job filled the day in later from the records. */
  backfilled: z.boolean(),
  /** ISO 8601: when the snapshot was written. */
  created_at: z.string(),
});
export type Indicator = z.infer<typeof IndicatorSchema>;

/** The indicators whose change the kiosk shows. */
export const INDICATOR_KEYS = [
  'monthly_recurring_revenue',
  'yearly_recurring_revenue',
  'daily_volume',
  'new_users',
] as const;
export type IndicatorKey = (typeof INDICATOR_KEYS)[number];

/**
 * `GET /spark/kiosk/performance-indicators`: the last {@link REVENUE_CHART_DAYS} days' snapshots
 * (oldest first), and the snapshots of one month and one year before the newest, for the
 * percent changes (docs/kiosk.md `last_month`, `last_year`).
 */
export const PerformanceIndicatorsSchema = z.object({
  indicators: z.array(IndicatorSchema),
  last_month: IndicatorSchema.nullable(),
  last_year: IndicatorSchema.nullable(),
});
export type PerformanceIndicators = z.infer<typeof PerformanceIndicatorsSchema>;

/** A plan with its live subscriptions (teams), from the local subscription records. */
export const PlanFigureSchema = z.object({
  id: z.string(),
  name: z.string(),
  interval: z.enum(['monthly', 'yearly']),
  /** Cents per interval. */
  price: z.number().int(),
  /** Live subscriptions on the plan (teams on the free plan). */
  subscribers: z.number().int(),
  /** Cents per month this plan brings. */
  monthly_recurring_revenue: z.number().int(),
});
export type PlanFigure = z.infer<typeof PlanFigureSchema>;

/** `…/revenue`: today's recurring revenue, in total and per plan (cents). */
export const RevenueSchema = z.object({
  monthly_recurring_revenue: z.number().int(),
  yearly_recurring_revenue: z.number().int(),
  plans: z.array(PlanFigureSchema),
});

/**
 * The percent change of `current` against `previous`, as the kiosk shows it (docs/accounts.md
 * "Constants"): rounded to a whole number, `+` when positive (`+12%`, `-3%`, `0%`). Null when there
 * is nothing to compare with: no previous figure, or a previous figure of 0 (no percentage of
 * nothing).
 */
export function percentChange(
  current: number | null | undefined,
  previous: number | null | undefined,
): string | null {
  if (current == null || previous == null || previous === 0) return null;
  const rounded = Math.round(((current - previous) / Math.abs(previous)) * 100);
  if (rounded === 0) return '0%';
  return rounded > 0 ? `+${rounded}%` : `${rounded}%`;
}

// ---------------------------------------------------------------------------------------------
// Cancel reasons
// ---------------------------------------------------------------------------------------------

/** How many comments the cancel-reasons tab lists, newest first. */
export const CANCEL_COMMENTS_LISTED = 50;

/** `GET /spark/cancelReasons`: every reason with its count, and the latest comments. */
export const CancelReasonsSchema = z.object({
  /** Each reason of docs/kiosk.md, in the spec's order, with how many teams gave it. */
  reasons: z.array(z.object({ reason: z.enum(CANCEL_REASONS), count: z.number().int() })),
  /** The descriptions given with a reason, newest first. */
  comments: z.array(
    z.object({
      reason: z.enum(CANCEL_REASONS),
      description: z.string(),
      team: z.object({ id: z.string(), name: z.string() }).nullable(),
      /** ISO 8601: when the subscription record last changed (the reason was given by then). */
      at: z.string(),
    }),
  ),
});
export type CancelReasons = z.infer<typeof CancelReasonsSchema>;

/** These routes' contracts, by route key. */
export const KIOSK_CONTRACT = {
  /** At most {@link ANNOUNCEMENTS_LISTED}, newest first. */
  'GET /spark/kiosk/announcements': defineContract({ answer: z.array(AnnouncementSchema) }),
  'POST /spark/kiosk/announcements': defineContract({
    body: AnnouncementBody,
    answer: AnnouncementSchema,
    status: 201,
  }),
  /** 404 for an unknown id. */
  'PUT /spark/kiosk/announcements/{id}': defineContract({
    params: IdParams,
    body: AnnouncementBody,
    answer: AnnouncementSchema,
  }),
  /** 404 for an unknown id. */
  'DELETE /spark/kiosk/announcements/{id}': defineContract({
    params: IdParams,
    answer: SuccessSchema,
  }),
  'GET /spark/kiosk/performance-indicators': defineContract({
    answer: PerformanceIndicatorsSchema,
  }),
  'GET /spark/kiosk/performance-indicators/revenue': defineContract({ answer: RevenueSchema }),
  'GET /spark/kiosk/performance-indicators/plans': defineContract({
    answer: z.array(PlanFigureSchema),
  }),
  'GET /spark/kiosk/performance-indicators/trialing': defineContract({
    answer: z.object({ trialing: z.number().int() }),
  }),
  'GET /spark/cancelReasons': defineContract({ answer: CancelReasonsSchema }),
} as const;
