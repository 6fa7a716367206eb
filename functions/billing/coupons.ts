/**
 * Coupon routes (docs/billing.md "Model" Coupon, Discount; docs/accounts.md "Validation rules":
 * "Invalid coupon sets an invalid flag"; docs/billing.md "Flows" `GET /coupon/{code}`, `GET
 * /coupon/user/{id}`, `POST …/payment-method/coupon`): a code a client sends is a promotion code
 * (customer-facing), never a coupon id; the partner campaign's coupon id comes from configuration
 * and applies only through `POST /register/partner`. Applied with `discounts: [{ promotion_code } |
 * { coupon }]` (the API's top-level `coupon` is gone). Resolving codes and the discount views live
 * in discounts.ts.
 */
import {
  type CouponLookupResponse,
  type Discount,
  PARTNER_COUPON_LOOKUP,
} from '#shared/billing.ts';
import { billingOnline } from '#lib/config.ts';
import { idempotencyKey, stripe } from '#lib/stripe.ts';
import { findPartnerCoupon, findPromotion, resolveDiscount } from './discounts.ts';
import { applySubscription, apiSnapshotTime } from './subscriptions.ts';
import { subscriptionOf, type TeamRecord } from './account.ts';

/**
 * `GET /coupon/{code}`: the terms of an active promotion code, `valid: false` for an unknown,
 * inactive or used-up code, for a raw coupon id, and offline (docs/accounts.md "Validation rules").
 * `partner-campaign` ({@link PARTNER_COUPON_LOOKUP}) stands for the configured partner coupon,
 * answered under that word.
 */
export async function lookupCoupon(code: string): Promise<CouponLookupResponse> {
  // The partner campaign's coupon is looked up by a word, its id stays here
  // (docs/adr/0026-billing-in-the-spa.md "Billing in the SPA").
  const found =
    code === PARTNER_COUPON_LOOKUP
      ? await findPartnerCoupon()
      : billingOnline()
        ? await findPromotion(code)
        : undefined;
  const c = found?.coupon;
  return {
    valid: c !== undefined,
    code,
    name: c?.name ?? null,
    percent_off: c?.percent_off ?? null,
    amount_off: c?.amount_off ?? null,
    currency: c?.currency ?? null,
    duration: (c?.duration ?? null) as CouponLookupResponse['duration'],
    duration_in_months: c?.duration_in_months ?? null,
  };
}

/** The stored discount of the team's live subscription, or null. */
export async function teamDiscount(teamId: string): Promise<Discount | null> {
  const sub = await subscriptionOf(teamId);
  if (!sub || !sub.discount || sub.stripeStatus === 'canceled') return null;
  return JSON.parse(sub.discount) as Discount;
}

/**
 * `POST …/payment-method/coupon`: applies a code to the team's live subscription (a customer
 * has no discount of its own in this API version).
 * @returns `invalid` for a code that is not valid, `no-subscription` without a live one.
 */
export async function applyCoupon(
  team: TeamRecord,
  code: string,
  requestId: string,
): Promise<'applied' | 'invalid' | 'no-subscription'> {
  const sub = await subscriptionOf(team.teamId);
  if (!sub || sub.stripeStatus === 'canceled' || sub.stripeStatus === 'incomplete_expired')
    return 'no-subscription';
  const discount = await resolveDiscount(code);
  if (!discount) return 'invalid';
  const updated = await stripe().subscriptions.update(
    sub.stripeId,
    { discounts: [discount], expand: ['discounts.source.coupon'] },
    { idempotencyKey: idempotencyKey('coupon', team.teamId, code, requestId) },
  );
  await applySubscription(updated, apiSnapshotTime());
  return 'applied';
}
