/**
 * Billing constants and paths (docs/billing.md): the plan ids, the VAT countries, the cancel
 * reasons' labels, the partner campaign, and the SPA's billing paths. The billing routes' request
 * and answer schemas are their contract, shared/contract/billing.ts, re-exported here so billing
 * code reads one module.
 *
 * Paths (docs/billing.md "Flows": "Registration and lookups", "Subscription and payment";
 * `shared/routes.ts`; each route's shapes in `BILLING_CONTRACT`):
 * - `GET /spark/plans` → {@link PlansResponse}
 * - `GET /stripe/key` (public) → {@link StripeKeyResponse}
 * - `GET /stripe/token[?team_id=]` → {@link StripeTokenResponse} (a SetupIntent)
 * - `GET /coupon/{code}` → {@link CouponLookupResponse}
 * - `POST /tax-rate` {@link TaxRateRequest} → {@link TaxRateResponse}
 * - `GET /coupon/user/{userId}`, `GET /settings/companies/coupon/{teamId}` → {@link Discount}
 *   (204 when there is no discount: "200 means a discount exists")
 * - `GET /settings/subscription`, `GET /settings/companies/{id}/subscription` →
 *   {@link SubscriptionView}
 * - `POST` same paths {@link SubscribeRequest} → {@link SubscriptionAnswer} | 400
 *   {@link PaymentActionRequired}
 * - `PUT` same paths {@link SwapRequest} (switch plan, resume, freeze) → {@link SubscriptionAnswer}
 *   | 400 {@link PaymentActionRequired}
 * - `DELETE` same paths {@link CancelRequest} → {@link SubscriptionAnswer}
 * - `PUT /settings/companies/{id}/metaData` {@link CancelMetaDataRequest} → {@link SuccessAnswer}
 * - `PUT /settings/payment-method`, `PUT /settings/companies/{id}/payment-method`,
 *   `PUT /settings/companies/{id}/update-payment-method` {@link PaymentMethodRequest} →
 *   {@link SubscriptionAnswer}
 * - `PUT …/payment-method/vat-id` {@link VatIdRequest} → {@link SubscriptionAnswer}
 * - `POST …/payment-method/coupon` {@link ApplyCouponRequest} → {@link SubscriptionAnswer}
 * - `PUT /settings/extra-billing-information` {@link ExtraBillingInformationRequest} →
 *   {@link SubscriptionAnswer}
 * - `GET /settings/invoices`, `GET /settings/companies/{id}/invoices` → {@link InvoicesResponse}
 * - `GET /settings/invoice/{id}` → 302 to the Stripe-hosted PDF (a link, not XHR)
 * - `GET /{CASHIER_PATH}/payment/{paymentId}` (XHR) → {@link PaymentLookupResponse}; the same
 *   path opened in the browser is the SPA's payment-confirmation page
 *   (docs/adr/0026-billing-in-the-spa.md "Billing in the SPA").
 */
import type { CancelReason } from './contract/billing.ts';

export * from './contract/billing.ts';

/** The cashier path prefix of the payment-confirmation page (docs/adr/0026-billing-in-the-spa.md "Billing in the SPA", docs/accounts.md "Constants"); Cashier's default. */
export const CASHIER_PATH = 'stripe';

/** The free plan's id (docs/billing.md "Model": "Free plan has price 0"); registration's fallback. */
export const FREE_PLAN_ID = 'free';

/** The special plan a frozen account is on (docs/billing.md "Model": "A special plan id is plan-freeze"). */
export const FREEZE_PLAN_ID = 'plan-freeze';

/** Countries where VAT applies and `POST /tax-rate` previews a rate (docs/accounts.md "Constants", GB included). */
export const EU_VAT_COUNTRIES = [
  'BE',
  'BG',
  'CZ',
  'DK',
  'DE',
  'EE',
  'IE',
  'GR',
  'ES',
  'FR',
  'HR',
  'IT',
  'CY',
  'LV',
  'LT',
  'LU',
  'HU',
  'MT',
  'NL',
  'AT',
  'PL',
  'PT',
  'RO',
  'SI',
  'SK',
  'FI',
  'SE',
  'GB',
] as const;
export type VatCountry = (typeof EU_VAT_COUNTRIES)[number];

/** True when VAT applies to a billing country (docs/accounts.md "Constants"); case-insensitive ISO 3166-1 alpha-2. */
export const isVatCountry = (country: string | null | undefined): boolean =>
  (EU_VAT_COUNTRIES as readonly string[]).includes((country ?? '').toUpperCase());

/** Labels for the cancel reasons (the spec gives only the keys). */
export const CANCEL_REASON_LABELS: Record<CancelReason, string> = {
  cost: 'It costs too much',
  difficultyOfUse: 'It is difficult to use',
  missingFunctionality: 'It is missing something I need',
  usingOtherProduct: 'I use another product',
  notUsingIt: 'I am not using it',
  somethingElse: 'Something else',
};

/**
 * The SPA's partner-campaign registration path (docs/adr/0026-billing-in-the-spa.md "Billing in the
 * SPA": "A special registration path for a partner campaign applies a fixed coupon (the coupon
 * value is not shown)"). It is the registration page, which posts to `POST /register/partner` (the
 * same path; web/src/api/ registration.ts) with no `coupon`: the route, never a field of the form,
 * asks for the campaign's coupon.
 */
export const PARTNER_CAMPAIGN_PATH = '/register/partner';

/**
 * The word the partner page looks up with `GET /coupon/{code}`: the server answers the terms of
 * the configured coupon (`STRIPE_PARTNER_COUPON`) with this word as `code`, so the coupon's own
 * id never reaches the browser; `valid: false` when none is configured, and offline.
 */
export const PARTNER_COUPON_LOOKUP = 'partner-campaign';

/**
 * The SPA's card-update page for a team whose payment failed (docs/adr/0026-billing-in-the-spa.md
 * "Billing in the SPA": "Card-update page for an account being cancelled, with team_id in the
 * query"); e-mails about a failed payment can link here. It saves through `PUT
 * /settings/companies/{id}/update-payment-method`.
 */
export const cardUpdatePath = (teamId: string): string =>
  `/settings/card-update?team_id=${encodeURIComponent(teamId)}`;

/** `/{cashierPath}/payment/{paymentId}?redirect=…` (docs/adr/0026-billing-in-the-spa.md "Billing in the SPA", docs/accounts.md "Constants"). */
export const paymentConfirmationPath = (paymentId: string, redirect?: string): string =>
  `/${CASHIER_PATH}/payment/${encodeURIComponent(paymentId)}` +
  (redirect ? `?redirect=${encodeURIComponent(redirect)}` : '');

/**
 * What a plan may render (docs/security.md "Render limits"): draws a month per team (cache hits
 * are free and not counted) and draws a second per team in each render container (burst:
 * tokens a quiet team has saved up). Past the month's quota the render URL answers the
 * design's fallback image for new draws, cached 5 minutes, until the next month (UTC).
 */
export interface RenderAllowance {
  /** Draws a month (UTC calendar month) for the whole team, renders. */
  rendersPerMonth: number;
  /** Draws a second per render container, renders/s. */
  rendersPerSecond: number;
  /** Draws in a burst above the rate, renders. */
  burst: number;
}

/** The free plan's allowance: also any plan id not listed (a plan renamed, a frozen team). */
export const FREE_RENDER_ALLOWANCE: RenderAllowance = {
  rendersPerMonth: 10_000,
  rendersPerSecond: 10,
  burst: 200,
};

/**
 * Render allowances by plan id (the plans of functions/billing/plans.ts `PLAN_CATALOGUE`):
 * Starter 100,000 a month, Pro 1,000,000 a month; yearly plans as their monthly twin.
 */
export const PLAN_RENDER_ALLOWANCES: Readonly<Record<string, RenderAllowance>> = {
  [FREE_PLAN_ID]: FREE_RENDER_ALLOWANCE,
  'starter-monthly': { rendersPerMonth: 100_000, rendersPerSecond: 50, burst: 1000 },
  'starter-yearly': { rendersPerMonth: 100_000, rendersPerSecond: 50, burst: 1000 },
  'pro-monthly': { rendersPerMonth: 1_000_000, rendersPerSecond: 200, burst: 4000 },
  'pro-yearly': { rendersPerMonth: 1_000_000, rendersPerSecond: 200, burst: 4000 },
  [FREEZE_PLAN_ID]: FREE_RENDER_ALLOWANCE,
};

/**
 * Rows one send list may have, by plan id (docs/send-lists.md "Limits"): a plan attribute like
 * the render allowance. Free 1,000, Starter 25,000, Pro 250,000; yearly plans as their monthly
 * twin; any plan id not listed (a frozen team, a renamed plan) gets the free plan's.
 */
export const PLAN_SEND_LIST_ROWS: Readonly<Record<string, number>> = {
  [FREE_PLAN_ID]: 1_000,
  'starter-monthly': 25_000,
  'starter-yearly': 25_000,
  'pro-monthly': 250_000,
  'pro-yearly': 250_000,
  [FREEZE_PLAN_ID]: 1_000,
};

/** The send-list row limit of a plan id; the free plan's for an id not listed. */
export const sendListRowsOf = (planId: string | undefined): number =>
  planId !== undefined && Object.hasOwn(PLAN_SEND_LIST_ROWS, planId)
    ? PLAN_SEND_LIST_ROWS[planId]!
    : PLAN_SEND_LIST_ROWS[FREE_PLAN_ID]!;

/** The render allowance of a plan id; the free plan's for an id not listed. */
export const renderAllowanceOf = (planId: string | undefined): RenderAllowance =>
  planId !== undefined && Object.hasOwn(PLAN_RENDER_ALLOWANCES, planId)
    ? PLAN_RENDER_ALLOWANCES[planId]!
    : FREE_RENDER_ALLOWANCE;

/**
 * Plans whose designs carry the product mark (docs/adr/0057-watermark.md "Watermark"): a plan
 * attribute like the render allowance, `productWatermark: true` on Free and on any plan id not
 * listed (a frozen team, a renamed plan), false on paid plans. Drawn by shared/scene/watermark.ts.
 */
export const PLAN_PRODUCT_WATERMARK: Readonly<Record<string, boolean>> = {
  [FREE_PLAN_ID]: true,
  'starter-monthly': false,
  'starter-yearly': false,
  'pro-monthly': false,
  'pro-yearly': false,
  [FREEZE_PLAN_ID]: true,
};

/** Whether a plan id's designs carry the product mark; true for an id not listed. */
export const planProductWatermark = (planId: string | undefined): boolean =>
  planId !== undefined && Object.hasOwn(PLAN_PRODUCT_WATERMARK, planId)
    ? PLAN_PRODUCT_WATERMARK[planId]!
    : true;
