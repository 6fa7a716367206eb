/**
 * Coupons and discounts (spec 001 §3 Coupon, Discount; §5 "Invalid coupon sets an invalid
 * flag"; §7 `GET /coupon/{code}`, `GET /coupon/user/{id}`): a code a client sends is a
 * promotion code (customer-facing), never a coupon id; the partner campaign's coupon id comes
 * from configuration and applies only through `POST /register/partner`. Applied with
 * `discounts: [{ promotion_code } | { coupon }]` (the API's top-level `coupon` is gone).
 */
import {
  type CouponLookupResponse,
  type Discount,
  PARTNER_COUPON_LOOKUP,
} from '#shared/billing.ts';
import { billingOnline, config } from '#lib/config.ts';
import { idempotencyKey, Stripe, stripe } from '#lib/stripe.ts';
import { applySubscription, apiSnapshotTime } from './subscriptions.ts';
import { subscriptionOf, type TeamRecord } from './account.ts';

type DiscountParam = { coupon: string } | { promotion_code: string };

const isMissing = (error: unknown) =>
  error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404;

/**
 * The coupon behind a customer-facing code: only an active promotion code (Stripe
 * `promotion_codes` looked up by `code`, `active: true`) whose coupon is valid. A raw coupon id
 * is never accepted from a client: coupon ids are internal (the partner campaign's, an admin's
 * discounts) and guessable (docs/security.md "Money the client declares").
 */
async function findPromotion(
  code: string,
): Promise<{ coupon: Stripe.Coupon; discount: DiscountParam } | undefined> {
  const promotions = await stripe().promotionCodes.list({
    code,
    active: true,
    limit: 1,
    expand: ['data.promotion.coupon'],
  });
  const promotion = promotions.data[0];
  const promoted = promotion?.promotion.coupon;
  if (promotion && promoted && typeof promoted !== 'string' && promoted.valid)
    return { coupon: promoted, discount: { promotion_code: promotion.id } };
  return undefined;
}

/**
 * The partner campaign's coupon (`STRIPE_PARTNER_COUPON`, chosen by the server, spec 001 §2),
 * when configured and valid. Only `POST /register/partner` applies it.
 */
async function findPartnerCoupon(): Promise<
  { coupon: Stripe.Coupon; discount: DiscountParam } | undefined
> {
  const id = config().STRIPE_PARTNER_COUPON;
  if (!billingOnline() || !id) return undefined;
  try {
    const coupon = await stripe().coupons.retrieve(id);
    return coupon.valid ? { coupon, discount: { coupon: coupon.id } } : undefined;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** The `discounts` entry for a promotion code, or undefined when the code is not valid. */
export async function resolveDiscount(code: string): Promise<DiscountParam | undefined> {
  return (await findPromotion(code))?.discount;
}

/** The `discounts` entry of the partner campaign's coupon, or undefined (none, or invalid). */
export async function partnerDiscount(): Promise<DiscountParam | undefined> {
  return (await findPartnerCoupon())?.discount;
}

/**
 * `GET /coupon/{code}`: the terms of an active promotion code, `valid: false` for an unknown,
 * inactive or used-up code, for a raw coupon id, and offline (spec 001 §5). `partner-campaign` ({@link PARTNER_COUPON_LOOKUP}) stands for the
 * configured partner coupon, answered under that word.
 */
export async function lookupCoupon(code: string): Promise<CouponLookupResponse> {
  // The partner campaign's coupon is looked up by a word, its id stays here (spec 001 §2).
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

/** A Stripe discount as the contract's Discount (needs `source.coupon` expanded). */
export function discountView(d: Stripe.Discount): Discount | null {
  const coupon = d.source.coupon;
  if (!coupon || typeof coupon === 'string') return null;
  return {
    coupon_id: coupon.id,
    name: coupon.name,
    percent_off: coupon.percent_off,
    amount_off: coupon.amount_off,
    duration: coupon.duration as Discount['duration'],
    duration_in_months: coupon.duration_in_months,
    ends_at: d.end ? new Date(d.end * 1000).toISOString() : null,
  };
}

/**
 * The discount of a subscription snapshot as stored JSON: the first discount when Stripe
 * expanded it, '' when there is none, undefined when only ids came (keep what is stored).
 */
export function storedDiscount(sub: Stripe.Subscription): string | undefined {
  if (sub.discounts.length === 0) return '';
  const first = sub.discounts[0];
  if (!first || typeof first === 'string') return undefined;
  const view = discountView(first);
  return view ? JSON.stringify(view) : undefined;
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
