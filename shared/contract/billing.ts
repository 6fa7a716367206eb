/**
 * The contract of the `billing` routes (docs/billing.md; shared/routes.ts;
 * docs/adr/0044-the-api-contract.md "The API contract"): zod schemas and types for every billing
 * request and answer. functions/billing parses its bodies with them, the SPA's billing calls take
 * their types from them, and the test stack checks every answer against them. shared/billing.ts
 * re-exports them beside the billing constants and paths. Change it additively.
 *
 * Conventions:
 * - money is in **cents** of the price's currency (docs/billing.md "Model" Coupon: "amount_off (in
 *   cents)");
 * - dates are ISO 8601 strings in UTC (`2026-11-22T07:15:00.000Z`), `null` when absent;
 * - user paths (`/settings/subscription`, …) act on the caller's current team, which the caller
 *   must own; team paths (`/settings/companies/{id}/…`) on team `{id}`
 *   (docs/adr/0032-billing-server.md "Billing is per team");
 * - errors: 422 `{ message, errors: { field: [message] } }` for field errors; 400
 *   {@link PaymentActionRequiredSchema} `{ paymentId }` when a payment needs confirmation
 *   (3-D Secure; the contract's `errorAnswers`); anything else from Stripe answers 502 with
 *   {@link BILLING_MESSAGES.subscriptionFailed} (docs/accounts.md "Error answers in the SPA").
 *
 * `GET /settings/invoice/{id}` answers 302 to the Stripe-hosted PDF (a link, not XHR), and
 * `GET /{CASHIER_PATH}/payment/{paymentId}` as XHR the payment to confirm; the same path opened
 * in the browser is the SPA's payment-confirmation page (docs/adr/0026-billing-in-the-spa.md
 * "Billing in the SPA").
 */
import { z } from 'zod';
import { defineContract, IdParams, NoJsonAnswer, type RouteContract } from './core.ts';

/** Default billing country (docs/accounts.md "Constants"). */
export const DEFAULT_COUNTRY = 'US';

/** Cancel reasons, in the spec's order (docs/billing.md "Model": "Cancel reasons"). */
export const CANCEL_REASONS = [
  'cost',
  'difficultyOfUse',
  'missingFunctionality',
  'usingOtherProduct',
  'notUsingIt',
  'somethingElse',
] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

/** Messages the billing answers carry (docs/accounts.md "Error answers in the SPA" where it gives them). */
export const BILLING_MESSAGES = {
  /** docs/accounts.md "Error answers in the SPA": plan change or subscribe failures other than 400 and 422. */
  subscriptionFailed:
    'We were unable to update your subscription. Please contact customer support.',
  /** docs/accounts.md "Error answers in the SPA": "Missing payment provider key". Offline mode (docs/billing.md "Offline mode"). */
  invalidStripeKey: 'Invalid Stripe Key/Secret',
  /** The 400 answer that sends the SPA to the payment-confirmation page (docs/billing.md "Flows", docs/accounts.md "Error answers in the SPA"). */
  paymentActionRequired: 'Extra confirmation is needed to process your payment.',
  /** docs/adr/0023-team-roles.md "Team roles": a capability the team's plan lacks. */
  proOnly: 'This feature is available only for Pro plans.',
  planInvalid: 'The selected plan is invalid.',
  couponInvalid: 'This coupon code is invalid.',
  vatIdInvalid: 'The VAT ID is invalid.',
  noSubscription: 'You have no subscription.',
  cardRequired: 'Please provide a card.',
} as const;

// ---------------------------------------------------------------------------------------------
// Plans (docs/billing.md "Model" Plan, docs/accounts.md "Constants")

export const PlanIntervalSchema = z.enum(['monthly', 'yearly']);
export type PlanInterval = z.infer<typeof PlanIntervalSchema>;

/** Plan capabilities (docs/adr/0023-team-roles.md "Team roles" `can_export_pdf`, `can_upload_custom_fonts`). */
export const PlanFeaturesSchema = z.object({
  can_export_pdf: z.boolean(),
  can_upload_custom_fonts: z.boolean(),
});

/** One plan of `GET /spark/plans` (docs/billing.md "Model" Plan). `plan-freeze` is never listed. */
export const PlanSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** cents per interval; 0 is the free plan (docs/accounts.md "Constants"). */
  price: z.number().int().nonnegative(),
  interval: PlanIntervalSchema,
  /** `user`: priced per member (seats = item quantity); `team`: one price per team. */
  type: z.enum(['user', 'team']),
  active: z.boolean(),
  /** Team limit (teams a user may own) and member limit (users per team), docs/billing.md "Model", docs/accounts.md "Validation rules". */
  attributes: z.object({ teams: z.number().int(), teamMembers: z.number().int() }),
  features: PlanFeaturesSchema,
  /** False for paid plans while billing is offline (no Stripe keys; docs/billing.md "Offline mode"). */
  available: z.boolean(),
  /** Days of free trial registration starts; absent: none (docs/billing.md "Trials"). */
  trial_days: z.number().int().positive().optional(),
  /** False: registering asks for no card (the trial runs without one); absent: true. */
  card_up_front: z.boolean().optional(),
});
export type Plan = z.infer<typeof PlanSchema>;

/** `GET /spark/plans`: active plans, cheapest first. */
export const PlansResponseSchema = z.array(PlanSchema);
export type PlansResponse = z.infer<typeof PlansResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Stripe keys and card collection (docs/billing.md "Flows": "Saving a card uses a setup-intent
// step")

/** `GET /stripe/key` (public, for registration's card field): the publishable key. Offline: 422. */
export const StripeKeyResponseSchema = z.object({ publishableKey: z.string() });
export type StripeKeyResponse = z.infer<typeof StripeKeyResponseSchema>;

/**
 * `GET /stripe/token[?team_id=]` (docs/billing.md "Flows"): a SetupIntent for the team's Stripe
 * customer (created on first use). The SPA mounts the Payment Element with `clientSecret` and calls
 * `stripe.confirmSetup({ redirect: 'if_required' })`, then sends the SetupIntent's `payment_method`
 * as `stripe_payment_method`. Offline: 422 with `errors.stripe_payment_method = ['Invalid Stripe
 * Key/Secret']`.
 */
export const StripeTokenResponseSchema = z.object({
  clientSecret: z.string(),
  publishableKey: z.string(),
});
export type StripeTokenResponse = z.infer<typeof StripeTokenResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Coupons and discounts (docs/billing.md "Model" Coupon, Discount; docs/accounts.md "Validation
// rules": "Invalid coupon sets an invalid flag")

export const CouponDurationSchema = z.enum(['once', 'repeating', 'forever']);

/**
 * `GET /coupon/{code}` (docs/billing.md "Flows"): always 200; `valid: false` for an unknown,
 * expired or used-up code, and offline. `code` may be a promotion code or a coupon id.
 */
export const CouponLookupResponseSchema = z.object({
  valid: z.boolean(),
  code: z.string(),
  name: z.string().nullable(),
  /** percent, 0–100, or null */
  percent_off: z.number().nullable(),
  /** cents, or null */
  amount_off: z.number().int().nullable(),
  currency: z.string().nullable(),
  duration: CouponDurationSchema.nullable(),
  duration_in_months: z.number().int().nullable(),
});
export type CouponLookupResponse = z.infer<typeof CouponLookupResponseSchema>;

/**
 * A discount applied to a team's subscription or customer (docs/billing.md "Model" Discount;
 * docs/billing.md "Flows" `GET /coupon/user/{id}` reads `percent_off` and `amount_off`).
 */
export const DiscountSchema = z.object({
  coupon_id: z.string(),
  name: z.string().nullable(),
  /** percent, 0–100, or null */
  percent_off: z.number().nullable(),
  /** cents, or null */
  amount_off: z.number().int().nullable(),
  duration: CouponDurationSchema,
  duration_in_months: z.number().int().nullable(),
  /** When the discount stops applying (ISO), null for forever or once. */
  ends_at: z.string().nullable(),
});
export type Discount = z.infer<typeof DiscountSchema>;

// ---------------------------------------------------------------------------------------------
// Billing address, VAT and tax (docs/billing.md "Model" Registration form / User billing fields;
// docs/accounts.md "Constants")

/** Billing address fields as the registration form names them (docs/billing.md "Model"). */
export const BillingAddressSchema = z.object({
  address: z.string().trim().max(255).optional().nullable(),
  address_line_2: z.string().trim().max(255).optional().nullable(),
  city: z.string().trim().max(255).optional().nullable(),
  state: z.string().trim().max(255).optional().nullable(),
  zip: z.string().trim().max(32).optional().nullable(),
  /** ISO 3166-1 alpha-2; default US (docs/accounts.md "Constants"). */
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'The country must be a two-letter code.')
    .default(DEFAULT_COUNTRY),
});
export type BillingAddress = z.infer<typeof BillingAddressSchema>;

/** The stored billing address, as answered (all fields present, null when empty). */
export const BillingAddressViewSchema = z.object({
  address: z.string().nullable(),
  address_line_2: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zip: z.string().nullable(),
  country: z.string(),
});
export type BillingAddressView = z.infer<typeof BillingAddressViewSchema>;

/**
 * `POST /tax-rate` (docs/billing.md "Flows"): the billing address and VAT id the form holds, and
 * the plan to price. Public (registration uses it).
 */
export const TaxRateRequestSchema = BillingAddressSchema.extend({
  vat_id: z.string().trim().max(64).optional().nullable(),
  /** Plan id; the tax amount is for one interval of this plan (one seat). */
  plan: z.string().optional().nullable(),
});
export type TaxRateRequest = z.input<typeof TaxRateRequestSchema>;

/**
 * `POST /tax-rate` answer: `rate` in percent (e.g. 21 for 21 %), `amount` in cents of tax on one
 * interval of `plan` (0 without a plan). Countries outside {@link EU_VAT_COUNTRIES} answer 0
 * without asking Stripe. A valid EU VAT id outside the seller's country gives 0 (reverse
 * charge). Offline, a VAT country answers 422 'Invalid Stripe Key/Secret' on `country`.
 */
export const TaxRateResponseSchema = z.object({
  rate: z.number().nonnegative(),
  amount: z.number().int().nonnegative(),
  currency: z.string().nullable(),
  /** True when the country is in the spec's VAT list. */
  vat_country: z.boolean(),
  /** True when Stripe applied the reverse charge (valid VAT id). */
  reverse_charge: z.boolean(),
});
export type TaxRateResponse = z.infer<typeof TaxRateResponseSchema>;

// ---------------------------------------------------------------------------------------------
// The subscription view (docs/billing.md "Model" Subscription, Team; docs/billing.md "Flows"
// states)

export const SubscriptionStatusSchema = z.enum([
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'canceled',
  'unpaid',
  'paused',
]);
export type SubscriptionStatus = z.infer<typeof SubscriptionStatusSchema>;

/** What the team may do now (docs/adr/0023-team-roles.md "Team roles"; docs/billing.md), from its plan and subscription. */
export const CapabilitiesSchema = z.object({
  can_export_pdf: z.boolean(),
  can_upload_custom_fonts: z.boolean(),
  /** Team limit of the owner's plan (docs/accounts.md "Validation rules"). */
  teams: z.number().int(),
  /** Member limit of the team's plan (docs/accounts.md "Validation rules"). */
  teamMembers: z.number().int(),
  /** Frozen accounts cannot create, archive, clone or activate designs (docs/billing.md "Flows"). */
  frozen: z.boolean(),
});
export type Capabilities = z.infer<typeof CapabilitiesSchema>;

/** A card on file: brand (Stripe's `visa`, `mastercard`, `amex`, …) and last four digits. */
export const CardSchema = z.object({
  brand: z.string(),
  last4: z.string(),
  exp_month: z.number().int().nullable(),
  exp_year: z.number().int().nullable(),
});
export type Card = z.infer<typeof CardSchema>;

/**
 * `GET /settings/subscription`, `GET /settings/companies/{id}/subscription`: the team's billing
 * as the subscription, payment-method and invoice tabs show it (docs/adr/0026-billing-in-the-spa.md
 * "Billing in the SPA" Settings, docs/billing.md "Model", docs/billing.md "Flows").
 */
export const SubscriptionViewSchema = z.object({
  team_id: z.string(),
  /** False in offline mode: paid plans, cards and invoices are unavailable (docs/billing.md "Offline mode"). */
  billing_online: z.boolean(),
  /**
   * The plan id whose capabilities apply now (`Team.current_billing_plan`): the subscription's
   * plan while it is active, trialing or on grace period; `plan-freeze` when frozen; else the
   * team's plan as data (the free plan after a lapse).
   */
  plan: z.string(),
  /** Stripe subscription id (`sub_…`), null without a subscription. */
  subscription_id: z.string().nullable(),
  status: SubscriptionStatusSchema.nullable(),
  /** Seats billed (item quantity; per-user plans count members, per-team plans 1). */
  quantity: z.number().int().nullable(),
  /** docs/billing.md "Flows": active when it exists, its status is not incomplete/past_due/unpaid/…, and no past end date. */
  active: z.boolean(),
  on_trial: z.boolean(),
  /** ISO; the SPA shows it as 'MMMM Do, YYYY' (docs/billing.md "Flows"). */
  trial_ends_at: z.string().nullable(),
  /** docs/billing.md "Flows": cancelled, `ends_at` in the future. Resume is possible. */
  on_grace_period: z.boolean(),
  /** ISO; set when the subscription is cancelled (end of the paid period). */
  ends_at: z.string().nullable(),
  /** ISO; the end of the current billing period (renewal date). */
  current_period_end: z.string().nullable(),
  /** docs/billing.md "Flows": none, or `ends_at` passed. */
  needs_subscription: z.boolean(),
  /** On `plan-freeze` (docs/billing.md "Flows" cancel flow). */
  frozen: z.boolean(),
  /** The plan restored when a frozen subscription is cancelled or unfrozen (docs/billing.md "Model" `canceled_data`). */
  frozenPlan: z.string().nullable(),
  /** docs/billing.md "Flows": the cancel flow's type — `cancel` when frozen, else `freeze`. */
  cancel_type: z.enum(['freeze', 'cancel']),
  card: CardSchema.nullable(),
  billing_address: BillingAddressViewSchema.nullable(),
  vat_id: z.string().nullable(),
  extra_billing_information: z.string().nullable(),
  discount: DiscountSchema.nullable(),
  capabilities: CapabilitiesSchema,
});
export type SubscriptionView = z.infer<typeof SubscriptionViewSchema>;

/** Success of a billing change: the team's billing afterwards. */
export const SubscriptionAnswerSchema = z.object({
  success: z.literal(true),
  subscription: SubscriptionViewSchema,
});
export type SubscriptionAnswer = z.infer<typeof SubscriptionAnswerSchema>;

/** A plain success (`{ success: true, message? }`). */
export const SuccessAnswerSchema = z.object({
  success: z.literal(true),
  message: z.string().optional(),
});
export type SuccessAnswer = z.infer<typeof SuccessAnswerSchema>;

/**
 * The 400 answer of subscribe or plan change when the first payment needs action (3-D Secure):
 * the SPA goes to `/{CASHIER_PATH}/payment/{paymentId}?redirect=…` (docs/billing.md "Flows",
 * docs/accounts.md "Error answers in the SPA"). `paymentId` is the Stripe PaymentIntent id
 * (`pi_…`).
 */
export const PaymentActionRequiredSchema = z.object({
  success: z.literal(false),
  code: z.literal('payment_action_required'),
  message: z.string(),
  paymentId: z.string(),
});
export type PaymentActionRequired = z.infer<typeof PaymentActionRequiredSchema>;

/** The 422 answer (docs/accounts.md "Error answers in the SPA": "422: show field errors"). */
export const FieldErrorsAnswerSchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())),
});
export type FieldErrorsAnswer = z.infer<typeof FieldErrorsAnswerSchema>;

// ---------------------------------------------------------------------------------------------
// Subscribe, swap, resume, freeze, cancel (docs/billing.md "Flows" Subscription and payment)

/**
 * `POST /settings/subscription` or team variant (docs/billing.md "Flows"): subscribe the team to a
 * paid plan. Send `stripe_payment_method` (a `pm_…` from the SetupIntent) or
 * `use_existing_payment_method: true` to charge the card on file (docs/billing.md "Flows").
 */
export const SubscribeRequestSchema = BillingAddressSchema.extend({
  plan: z.string({ error: BILLING_MESSAGES.planInvalid }).min(1, BILLING_MESSAGES.planInvalid),
  coupon: z.string().trim().max(128).optional().nullable(),
  stripe_payment_method: z.string().trim().max(255).optional().nullable(),
  use_existing_payment_method: z.boolean().optional(),
  vat_id: z.string().trim().max(64).optional().nullable(),
  /** Billing e-mail and name of the customer; default the owner's. */
  email: z.string().trim().max(255).optional().nullable(),
  name: z.string().trim().max(255).optional().nullable(),
});
export type SubscribeRequest = z.input<typeof SubscribeRequestSchema>;

/**
 * `PUT /settings/subscription` or team variant (docs/billing.md "Flows": "plan change; body plan …
 * and subscriptionId"): switch plan (prorated), resume a subscription on grace period (same or
 * other plan), or freeze with `plan: 'plan-freeze'` (the current plan is kept as `frozenPlan`).
 * Switching a frozen subscription to a paid plan unfreezes it.
 */
export const SwapRequestSchema = z.object({
  plan: z.string({ error: BILLING_MESSAGES.planInvalid }).min(1, BILLING_MESSAGES.planInvalid),
  subscriptionId: z.string().optional().nullable(),
});
export type SwapRequest = z.input<typeof SwapRequestSchema>;

/**
 * `DELETE /settings/subscription` or team variant: cancel at the end of the period (grace
 * period; resume with PUT). A frozen subscription gets its `frozenPlan` back first (docs/billing.md
 * "Flows"). The optional reason is kept in metadata and `cancellation_details.feedback`.
 */
export const CancelRequestSchema = z.object({
  type: z.enum(CANCEL_REASONS).optional().nullable(),
  description: z.string().trim().max(1000).optional().nullable(),
});
export type CancelRequest = z.input<typeof CancelRequestSchema>;

/**
 * `PUT /settings/companies/{id}/metaData` (docs/billing.md "Flows"): the cancel flow's answers,
 * stored on the subscription's metadata before freezing or cancelling. `type` is the cancel reason,
 * `cancelType` `freeze` or `cancel` (docs/billing.md "Flows").
 */
export const CancelMetaDataRequestSchema = z.object({
  type: z.enum(CANCEL_REASONS, { error: 'Please choose a reason.' }),
  description: z.string().trim().max(1000).optional().nullable(),
  subscriptionId: z.string().optional().nullable(),
  currentTeam: z.union([z.string(), z.number()]).optional().nullable(),
  cancelType: z.enum(['freeze', 'cancel']),
  confirm: z.boolean().optional(),
  frozenPlan: z.string().optional().nullable(),
});
export type CancelMetaDataRequest = z.input<typeof CancelMetaDataRequestSchema>;

// ---------------------------------------------------------------------------------------------
// Payment method, VAT id, coupon, extra billing information

/**
 * `PUT /settings/payment-method`, team variant, and `PUT
 * /settings/companies/{id}/update-payment-method`: make `stripe_payment_method` (from the
 * SetupIntent) the default card; the address fields update the billing address.
 */
export const PaymentMethodRequestSchema = BillingAddressSchema.extend({
  /** Optional here: an absent country keeps the stored address (no default). */
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'The country must be a two-letter code.')
    .optional(),
}).extend({
  stripe_payment_method: z
    .string({ error: BILLING_MESSAGES.cardRequired })
    .trim()
    .min(1, BILLING_MESSAGES.cardRequired),
});
export type PaymentMethodRequest = z.input<typeof PaymentMethodRequestSchema>;

/** `PUT …/payment-method/vat-id`: set (or clear with null/'') the VAT id (Stripe tax id). */
export const VatIdRequestSchema = z.object({
  vat_id: z.string().trim().max(64).optional().nullable(),
});
export type VatIdRequest = z.input<typeof VatIdRequestSchema>;

/** `POST …/payment-method/coupon`: apply a coupon or promotion code to the subscription. */
export const ApplyCouponRequestSchema = z.object({
  coupon: z
    .string({ error: BILLING_MESSAGES.couponInvalid })
    .trim()
    .min(1, BILLING_MESSAGES.couponInvalid),
});
export type ApplyCouponRequest = z.input<typeof ApplyCouponRequestSchema>;

/**
 * `PUT /settings/extra-billing-information` (docs/billing.md "Model" `extra_billing_information`):
 * text printed on invoices. `team_id` picks a team the caller owns (default the current team).
 */
export const ExtraBillingInformationRequestSchema = z.object({
  information: z.string().trim().max(2000).optional().nullable(),
  team_id: z.string().optional().nullable(),
});
export type ExtraBillingInformationRequest = z.input<typeof ExtraBillingInformationRequestSchema>;

// ---------------------------------------------------------------------------------------------
// Invoices (docs/billing.md "Model" Invoice; docs/accounts.md "Validation rules": "$0.00 hidden")

/** One paid invoice with a non-zero total (docs/accounts.md "Validation rules"). */
export const InvoiceSchema = z.object({
  id: z.string(),
  number: z.string().nullable(),
  /** ISO; when it was created. */
  date: z.string(),
  /** cents */
  total: z.number().int(),
  currency: z.string(),
  status: z.literal('paid'),
  /** `/settings/invoice/{id}`: answers 302 to the Stripe-hosted PDF. */
  download_url: z.string(),
});
export type Invoice = z.infer<typeof InvoiceSchema>;

/** `GET /settings/invoices` or team variant: paid invoices, newest first; [] offline. */
export const InvoicesResponseSchema = z.array(InvoiceSchema);
export type InvoicesResponse = z.infer<typeof InvoicesResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Payment confirmation (docs/adr/0026-billing-in-the-spa.md "Billing in the SPA":
// "Payment-confirmation page at /{cashierPath}/payment/{paymentId}")

/**
 * `GET /{CASHIER_PATH}/payment/{paymentId}` (XHR): what the confirmation page needs. The page
 * calls `stripe.confirmCardPayment(clientSecret)` (or `handleNextAction`) while `status` is
 * `requires_action` or `requires_payment_method`, then follows `?redirect=`.
 */
export const PaymentLookupResponseSchema = z.object({
  id: z.string(),
  clientSecret: z.string(),
  publishableKey: z.string(),
  /** cents */
  amount: z.number().int(),
  currency: z.string(),
  /** Stripe PaymentIntent status: `requires_action`, `requires_payment_method`, `succeeded`, … */
  status: z.string(),
  /** True once nothing is left to do (`succeeded` or `processing`). */
  completed: z.boolean(),
  description: z.string().nullable(),
});
export type PaymentLookupResponse = z.infer<typeof PaymentLookupResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Registration step 1 (docs/adr/0026-billing-in-the-spa.md "Billing in the SPA", docs/billing.md
// "Model" Registration form)

/**
 * The billing fields of `POST /register` (besides plan and coupon, which the account step
 * already sends). A paid plan needs `stripe_payment_method` (docs/billing.md "Flows": the card only
 * for paid plans); offline a paid plan answers 422 on `plan`.
 */
export const RegistrationBillingSchema = BillingAddressSchema.extend({
  stripe_payment_method: z.string().trim().max(255).optional().nullable(),
  vat_id: z.string().trim().max(64).optional().nullable(),
});
export type RegistrationBilling = z.input<typeof RegistrationBillingSchema>;

// ---------------------------------------------------------------------------------------------
// The routes

/** The user path and the team path of one billing call: the same contract, `{id}` or not. */
function both<
  const U extends string,
  const T extends string,
  const C extends Omit<RouteContract, 'params'>,
>(user: U, team: T, contract: C) {
  return {
    [user]: defineContract(contract),
    [team]: defineContract({ ...contract, params: IdParams }),
  } as { [K in U]: C } & { [K in T]: C & { params: typeof IdParams } };
}

/** Subscribe and plan change: 400 `{ paymentId }` when the first payment needs 3-D Secure. */
const NEEDS_CONFIRMATION = { 400: PaymentActionRequiredSchema } as const;

/** The `billing` routes' contracts, by route key. */
export const BILLING_CONTRACT = {
  'GET /spark/plans': defineContract({ answer: PlansResponseSchema }),
  /** Public: registration's card field. Offline: 422. */
  'GET /stripe/key': defineContract({ answer: StripeKeyResponseSchema }),
  'GET /stripe/token': defineContract({
    /** A team the caller owns; default the current team. */
    query: z.object({ team_id: z.string().optional() }),
    answer: StripeTokenResponseSchema,
    errors: [502],
  }),
  /** Public, limited per client address. Always 200: `valid: false` for an unusable code. */
  'GET /coupon/{code}': defineContract({
    params: z.object({ code: z.string().min(1) }),
    answer: CouponLookupResponseSchema,
    errors: [502],
  }),
  /** Public, limited per client address. */
  'POST /tax-rate': defineContract({
    body: TaxRateRequestSchema,
    answer: TaxRateResponseSchema,
    errors: [502],
  }),
  /** The user's current team's discount: 200 with it, 204 without (docs/billing.md "Flows"). */
  'GET /coupon/user/{id}': defineContract({ params: IdParams, answer: DiscountSchema.optional() }),
  'GET /settings/companies/coupon/{id}': defineContract({
    params: IdParams,
    answer: DiscountSchema.optional(),
  }),
  ...both('GET /settings/subscription', 'GET /settings/companies/{id}/subscription', {
    answer: SubscriptionViewSchema,
  }),
  ...both('POST /settings/subscription', 'POST /settings/companies/{id}/subscription', {
    body: SubscribeRequestSchema,
    answer: SubscriptionAnswerSchema,
    errors: [400, 502],
    errorAnswers: NEEDS_CONFIRMATION,
  }),
  ...both('PUT /settings/subscription', 'PUT /settings/companies/{id}/subscription', {
    body: SwapRequestSchema,
    answer: SubscriptionAnswerSchema,
    errors: [400, 502],
    errorAnswers: NEEDS_CONFIRMATION,
  }),
  ...both('DELETE /settings/subscription', 'DELETE /settings/companies/{id}/subscription', {
    body: CancelRequestSchema,
    answer: SubscriptionAnswerSchema,
    errors: [502],
  }),
  'PUT /settings/companies/{id}/metaData': defineContract({
    params: IdParams,
    body: CancelMetaDataRequestSchema,
    answer: SuccessAnswerSchema,
    errors: [502],
  }),
  ...both('PUT /settings/payment-method', 'PUT /settings/companies/{id}/payment-method', {
    body: PaymentMethodRequestSchema,
    answer: SubscriptionAnswerSchema,
    errors: [502],
  }),
  /** The card-update page's call (docs/adr/0026-billing-in-the-spa.md "Billing in the SPA", docs/billing.md "Flows"). */
  'PUT /settings/companies/{id}/update-payment-method': defineContract({
    params: IdParams,
    body: PaymentMethodRequestSchema,
    answer: SubscriptionAnswerSchema,
    errors: [502],
  }),
  ...both(
    'PUT /settings/payment-method/vat-id',
    'PUT /settings/companies/{id}/payment-method/vat-id',
    { body: VatIdRequestSchema, answer: SubscriptionAnswerSchema, errors: [502] },
  ),
  ...both(
    'POST /settings/payment-method/coupon',
    'POST /settings/companies/{id}/payment-method/coupon',
    { body: ApplyCouponRequestSchema, answer: SubscriptionAnswerSchema, errors: [502] },
  ),
  ...both('GET /settings/invoices', 'GET /settings/companies/{id}/invoices', {
    answer: InvoicesResponseSchema,
    errors: [502],
  }),
  /** A link, not XHR: 302 to the Stripe-hosted PDF; 404 offline or for another's invoice. */
  'GET /settings/invoice/{id}': defineContract({
    params: IdParams,
    answer: NoJsonAnswer,
    status: 302,
    errors: [502],
  }),
  'PUT /settings/extra-billing-information': defineContract({
    body: ExtraBillingInformationRequestSchema,
    answer: SubscriptionAnswerSchema,
    errors: [502],
  }),
  /** `/{CASHIER_PATH}/payment/{paymentId}` as XHR: 404 for an unknown payment, 422 offline. */
  'GET /stripe/payment/{id}': defineContract({
    params: IdParams,
    answer: PaymentLookupResponseSchema,
    errors: [502],
  }),
} as const;
