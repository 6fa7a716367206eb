/**
 * An admin's discount on a user's subscription (docs/kiosk.md Discount, docs/kiosk.md "Users,
 * impersonation and discounts", docs/kiosk.md `POST /spark/kiosk/users/discount/{id}`,
 * docs/accounts.md "Constants": "Default discount: type amount, duration once"; docs/kiosk.md
 * "Users, impersonation and discounts"): a Stripe coupon made for this one discount, applied to the
 * subscription of a team the user owns (billing is per team, and the owner pays: docs/billing.md).
 * The webhook and this call store the subscription alike (`applySubscription`), so the profile
 * shows the discount from the stored subscription.
 */
import type { z } from 'zod';
import { DiscountSchema, type Discount } from '#shared/billing.ts';
import { KIOSK_USER_MESSAGES, type KioskDiscountBody } from '#shared/contract/kiosk-users.ts';
import { billingOnline } from '#lib/config.ts';
import { db } from '#lib/db/index.ts';
import { AppError, conflict, notFound, validationFailed } from '#lib/errors.ts';
import { idempotencyKey, stripe } from '#lib/stripe.ts';
import { subscriptionOf, type SubscriptionRecord } from '#functions/billing/account.ts';
import { billingError } from '#functions/billing/errors.ts';
import { applySubscription, apiSnapshotTime, isLive } from '#functions/billing/subscriptions.ts';

/** Plans are priced in US dollars (functions/billing/plans.ts), so amount coupons are too. */
const CURRENCY = 'usd';

/** The discount as the route takes it, defaults applied. */
export type KioskDiscount = z.output<typeof KioskDiscountBody>;

/**
 * The live subscriptions of the teams a user owns, by team id (at most the teams a user can
 * own; a handful).
 */
export async function ownedSubscriptions(userId: string): Promise<Map<string, SubscriptionRecord>> {
  const memberships = (await db().Membership.query.byUser({ userId }).go({ pages: 'all' })).data;
  const owned = memberships.filter((m) => m.role === 'owner').map((m) => m.teamId);
  const subs = await Promise.all(owned.map((teamId) => subscriptionOf(teamId)));
  return new Map(subs.filter(isLive).map((s) => [s.teamId, s]));
}

/** The Stripe coupon parameters of a discount: `value` dollars → `amount_off` cents. */
function couponParams(discount: KioskDiscount) {
  return {
    name: 'Kiosk discount',
    ...(discount.type === 'percent'
      ? { percent_off: discount.value }
      : { amount_off: Math.round(discount.value * 100), currency: CURRENCY }),
    duration: discount.duration,
    ...(discount.duration === 'repeating' ? { duration_in_months: discount.months! } : {}),
  };
}

/**
 * Applies a discount to the subscription of a team the user owns: a new Stripe coupon, then the
 * subscription updated to carry it (replacing any discount it had), then stored.
 * @param userId the user whose subscription gets it.
 * @param requestId makes the Stripe calls idempotent when the request is retried.
 * @returns the team and the discount as stored.
 * @throws AppError 404 (no such user), 503 {@link KIOSK_USER_MESSAGES}.billingOffline (no
 *   Stripe key), 409 {@link KIOSK_USER_MESSAGES}.noSubscription, 422 (`team_id`: not one of
 *   the user's subscribed teams, or several and none chosen), 502 (Stripe refused; logged).
 */
export async function applyKioskDiscount(
  userId: string,
  discount: KioskDiscount,
  requestId: string,
): Promise<{ teamId: string; discount: Discount }> {
  if (!(await db().User.get({ userId }).go()).data) throw notFound();
  if (!billingOnline())
    throw new AppError(503, 'billing_offline', KIOSK_USER_MESSAGES.billingOffline);
  const subs = await ownedSubscriptions(userId);
  if (subs.size === 0) throw conflict(KIOSK_USER_MESSAGES.noSubscription);
  let sub: SubscriptionRecord | undefined;
  if (discount.team_id) {
    sub = subs.get(discount.team_id);
    if (!sub) throw validationFailed({ team_id: [KIOSK_USER_MESSAGES.noSubscription] });
  } else if (subs.size === 1) {
    sub = [...subs.values()][0];
  } else {
    throw validationFailed({ team_id: [KIOSK_USER_MESSAGES.chooseTeam] });
  }
  const target = sub!;
  try {
    const client = stripe();
    const coupon = await client.coupons.create(couponParams(discount), {
      idempotencyKey: idempotencyKey('kiosk-coupon', target.teamId, requestId),
    });
    const updated = await client.subscriptions.update(
      target.stripeId,
      { discounts: [{ coupon: coupon.id }], expand: ['discounts.source.coupon'] },
      { idempotencyKey: idempotencyKey('kiosk-discount', target.teamId, requestId) },
    );
    const stored = await applySubscription(updated, apiSnapshotTime());
    const parsed = DiscountSchema.safeParse(stored?.discount ? JSON.parse(stored.discount) : null);
    if (!parsed.success) throw new Error('the updated subscription carries no discount');
    return { teamId: target.teamId, discount: parsed.data };
  } catch (error) {
    throw billingError(error);
  }
}
