/**
 * Discounts (docs/billing.md "Model" Coupon, Discount): which Stripe discount a code stands for,
 * and a Stripe discount as the contract's Discount. A code a client sends is a promotion code
 * (customer-facing), never a coupon id; the partner campaign's coupon id comes from configuration.
 * Used by the subscription calls (subscriptions.ts) and the coupon routes (coupons.ts), so neither
 * imports the other's module for it.
 */
import type { Discount } from '#shared/billing.ts';
import { billingOnline, config } from '#lib/config.ts';
import { Stripe, stripe } from '#lib/stripe.ts';

/** A `discounts` entry of a Stripe subscription call. */
export type DiscountParam = { coupon: string } | { promotion_code: string };

const isMissing = (error: unknown) =>
  error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404;

/**
 * The coupon behind a customer-facing code: only an active promotion code (Stripe
 * `promotion_codes` looked up by `code`, `active: true`) whose coupon is valid. A raw coupon id
 * is never accepted from a client: coupon ids are internal (the partner campaign's, an admin's
 * discounts) and guessable (docs/security.md "Money the client declares").
 */
export async function findPromotion(
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
 * The partner campaign's coupon (`STRIPE_PARTNER_COUPON`, chosen by the server,
 * docs/adr/0026-billing-in-the-spa.md "Billing in the SPA"), when configured and valid. Only `POST
 * /register/partner` applies it.
 */
export async function findPartnerCoupon(): Promise<
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
