/**
 * The contract of the kiosk's users (search, profile, impersonation, discounts) and teams
 * (search, profile, additional permissions): docs/kiosk.md Discount and Team, docs/kiosk.md
 * platform admin, docs/kiosk.md "Kiosk"; docs/kiosk.md "Users, impersonation and discounts" and
 * "Teams and additional permissions".
 */
import { z } from 'zod';
import { DiscountSchema, InvoiceSchema, SubscriptionStatusSchema } from './billing.ts';
import { defineContract, IdParams, type RouteContract } from './core.ts';
import { lengthAwarePage } from './paging.ts';

/** Kiosk answers' messages that the SPA and tests read (docs/kiosk.md). */
export const KIOSK_USER_MESSAGES = {
  adminTarget: 'Platform admins cannot be impersonated.',
  notImpersonating: 'You are not impersonating anyone.',
  noSubscription: 'This user has no subscription to discount.',
  /** The 503 of a discount while billing is offline (no Stripe key; docs/operations.md "First start"). */
  billingOffline:
    'Billing is offline (no Stripe key is configured), so discounts cannot be applied.',
  chooseTeam: 'This user pays for more than one team: choose the team to discount.',
  /**
   * The 403 of a password, two-factor or API-token change while impersonating; the SPA shows it
   * above those forms, which it disables (docs/kiosk.md "Users, impersonation and discounts").
   */
  readOnlyWhileImpersonating:
    "You are impersonating this user: their password, two-factor authentication and API tokens can't be changed. Stop impersonating to change your own.",
} as const;

// ---------------------------------------------------------------------------------------------
// Users

/** A search text: trimmed, at most 100 characters, empty for everyone. */
const SearchText = z.string().trim().max(100, 'The search may not be greater than 100 characters.');

/** `POST /spark/kiosk/users/search`: a name or e-mail fragment (case-insensitive), and a page. */
export const KioskUserSearchBody = z.object({
  query: SearchText.default(''),
  page: z.coerce
    .number({ error: 'The page must be a number.' })
    .int('The page must be a whole number.')
    .min(1, 'The page must be at least 1.')
    .max(1000, 'The page may not be greater than 1000.')
    .default(1),
});

/** A user as the search lists them. */
export const KioskUserRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
  /** ISO 8601. */
  created_at: z.string(),
});
export type KioskUserRow = z.infer<typeof KioskUserRowSchema>;

/** A team's subscription as the kiosk shows it (null: none). */
export const KioskSubscriptionSchema = z.object({
  status: SubscriptionStatusSchema,
  plan: z.string(),
  /** ISO 8601: the end of a cancelled subscription's grace period, else null. */
  ends_at: z.string().nullable(),
  trial_ends_at: z.string().nullable(),
  discount: DiscountSchema.nullable(),
});
export type KioskSubscription = z.infer<typeof KioskSubscriptionSchema>;

/** One of the user's teams on the profile: role, plan, subscription and (owned teams) invoices. */
export const KioskUserTeamSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** `owner` or the team role (`admin`, `member`). */
  role: z.string(),
  plan: z.object({ id: z.string(), name: z.string() }),
  subscription: KioskSubscriptionSchema.nullable(),
  /**
   * The team's paid invoices, newest first: only for a team the user owns (the owner pays);
   * `null` when Stripe could not be read.
   */
  invoices: z.array(InvoiceSchema).nullable(),
});
export type KioskUserTeam = z.infer<typeof KioskUserTeamSchema>;

/** `GET /spark/kiosk/users/{id}/profile`. */
export const KioskUserProfileSchema = KioskUserRowSchema.extend({
  photo_url: z.string().nullable(),
  email_verified: z.boolean(),
  two_factor_enabled: z.boolean(),
  current_team_id: z.string().nullable(),
  teams: z.array(KioskUserTeamSchema),
  /** The last sign-ins, newest first (at most 20). */
  sign_ins: z.array(z.object({ at: z.string(), ip: z.string(), user_agent: z.string() })),
  /** Who impersonated this user and when, newest first (at most 20). */
  impersonations: z.array(
    z.object({
      id: z.string(),
      admin: z.object({ id: z.string(), name: z.string(), email: z.string() }).nullable(),
      started_at: z.string(),
      ended_at: z.string().nullable(),
    }),
  ),
  /** False while billing is offline: discounts cannot be applied (the screen says why). */
  billing_online: z.boolean(),
});
export type KioskUserProfile = z.infer<typeof KioskUserProfileSchema>;

/** Where the SPA goes after an impersonation starts or stops (a path on this origin). */
const RedirectSchema = z.object({ success: z.literal(true), redirect: z.string() });

/**
 * `POST /spark/kiosk/users/discount/{id}` (docs/kiosk.md Discount, docs/accounts.md "Constants":
 * "Default discount: type amount, duration once"): `value` is dollars for an amount (sent to Stripe
 * in cents) or a percentage; `months` only, and then required, for a repeating discount. `team_id`
 * picks the team when the user pays for more than one.
 */
export const KioskDiscountBody = z
  .object({
    type: z
      .enum(['amount', 'percent'], { error: 'The type must be amount or percent.' })
      .default('amount'),
    value: z.coerce
      .number({ error: 'The value must be a number.' })
      .positive('The value must be greater than 0.')
      .max(100_000, 'The value may not be greater than 100000.'),
    duration: z
      .enum(['once', 'repeating', 'forever'], {
        error: 'The duration must be once, repeating or forever.',
      })
      .default('once'),
    months: z.coerce
      .number({ error: 'The months must be a number.' })
      .int('The months must be a whole number.')
      .min(1, 'The months must be at least 1.')
      .max(36, 'The months may not be greater than 36.')
      .nullish(),
    team_id: z.string().max(100).nullish(),
  })
  .superRefine((body, ctx) => {
    if (body.type === 'percent' && body.value > 100)
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: 'A percentage may not be over 100.',
      });
    if (body.type === 'amount' && Math.round(body.value * 100) !== body.value * 100)
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: 'An amount has at most 2 decimals.',
      });
    if (body.duration === 'repeating' && !body.months)
      ctx.addIssue({ code: 'custom', path: ['months'], message: 'Give the number of months.' });
  });
export type KioskDiscountInput = z.input<typeof KioskDiscountBody>;

// ---------------------------------------------------------------------------------------------
// Teams

/** `POST /teams/search`: a name or slug fragment (case-insensitive). */
export const KioskTeamSearchBody = z.object({ query: SearchText.default('') });

/** A team as the search lists them (the bundle modal reads `id` and `name`). */
export const KioskTeamRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  frozen: z.boolean(),
  current_billing_plan: z.string(),
  owner: z.object({ id: z.string(), name: z.string(), email: z.string() }).nullable(),
});
export type KioskTeamRow = z.infer<typeof KioskTeamRowSchema>;

/** Teams a search answers at most: a narrower query finds the rest. */
export const TEAM_SEARCH_LIMIT = 25;

/**
 * `additional_picsnippets`: designs a team may keep active beyond its plan's limit;
 * `limited_permission`: members who are not the owner or a team admin cannot archive or
 * activate designs (docs/adr/0049-additional-permissions.md "Additional permissions"). `frozen`
 * blocks design actions.
 */
export const AdditionalPermissionsBody = z.object({
  additional_picsnippets: z.coerce
    .number({ error: 'The additional designs must be a number.' })
    .int('The additional designs must be a whole number.')
    .min(0, 'The additional designs must be at least 0.')
    .max(10_000, 'The additional designs may not be greater than 10000.')
    .optional(),
  limited_permission: z.boolean().optional(),
  frozen: z.boolean().optional(),
});
export type AdditionalPermissionsInput = z.input<typeof AdditionalPermissionsBody>;

/** `GET /custom/teams/{id}`: members, plan, designs count, bundles and the admin-set flags. */
export const KioskTeamProfileSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  owner: z.object({ id: z.string(), name: z.string(), email: z.string() }).nullable(),
  users: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      email: z.string(),
      pivot: z.object({ role: z.string() }),
    }),
  ),
  current_billing_plan: z.string(),
  plan: z.object({
    id: z.string(),
    name: z.string(),
    /** Active designs the plan allows, null for no limit. */
    designs: z.number().int().nullable(),
  }),
  /** Active and archived designs (counted up to 10 000 each). */
  designs: z.object({ active: z.number().int(), archived: z.number().int() }),
  bundles: z.array(
    z.object({ id: z.string(), name: z.string(), status: z.enum(['active', 'inactive']) }),
  ),
  frozen: z.boolean(),
  additional_picsnippets: z.number().int(),
  limited_permission: z.boolean(),
  /** ISO 8601. */
  created_at: z.string(),
});
export type KioskTeamProfile = z.infer<typeof KioskTeamProfileSchema>;

/** These routes' contracts, by route key. */
export const KIOSK_USERS_CONTRACT = {
  'POST /spark/kiosk/users/search': defineContract({
    body: KioskUserSearchBody,
    answer: lengthAwarePage(KioskUserRowSchema),
  }),
  'GET /spark/kiosk/users/{id}/profile': defineContract({
    params: IdParams,
    answer: KioskUserProfileSchema,
  }),
  'POST /spark/kiosk/users/impersonate/{id}': defineContract({
    params: IdParams,
    answer: RedirectSchema,
  }),
  'POST /spark/kiosk/users/stop-impersonating': defineContract({
    answer: RedirectSchema,
    errors: [409],
  }),
  'POST /spark/kiosk/users/discount/{id}': defineContract({
    params: IdParams,
    body: KioskDiscountBody,
    answer: z.object({
      success: z.literal(true),
      team_id: z.string(),
      discount: DiscountSchema,
    }),
    errors: [409, 502],
  }),
  'POST /teams/search': defineContract({
    body: KioskTeamSearchBody,
    answer: z.array(KioskTeamRowSchema),
  }),
  'GET /custom/teams/{id}': defineContract({ params: IdParams, answer: KioskTeamProfileSchema }),
  'POST /custom/teams/{id}/additional_permissions': defineContract({
    params: IdParams,
    body: AdditionalPermissionsBody,
    answer: z.object({ success: z.literal(true), team: KioskTeamProfileSchema }),
  }),
} as const satisfies Record<string, RouteContract>;
