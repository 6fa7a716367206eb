/**
 * A deleted team stops being billed (docs/adr/0023-team-roles.md "Team roles": the owner deletes a
 * team; docs/billing.md "Flows" subscription states). Laravel Spark, which the spec's product used,
 * cancelled a deleted team's subscriptions at once; so does this: no grace period, since nobody is
 * left to use it. Stripe's answer is stored like any other snapshot, so the
 * `customer.subscription.deleted` webhook that follows finds the subscription already `canceled`
 * (final for its id) and changes nothing.
 */
import { billingOnline } from '#lib/config.ts';
import { idempotencyKey, stripe } from '#lib/stripe.ts';
import { subscriptionOf } from './account.ts';
import { withBillingErrors } from './errors.ts';
import { apiSnapshotTime, applySubscription, isLive } from './subscriptions.ts';

/** Stored in `cancellation_details.comment`, so Stripe's dashboard says why it ended. */
export const TEAM_DELETED_COMMENT = 'The team was deleted.';

/**
 * Cancels the team's live subscription now, before the team is deleted. Offline (no Stripe
 * key) or without a live subscription nothing is sent.
 * @param requestId makes the idempotency key (a retried request does not cancel twice).
 * @throws AppError 502 with the spec's generic subscription message (docs/accounts.md "Error answers in the SPA") when Stripe
 *   refuses or cannot be reached: the caller must then delete nothing.
 */
export async function cancelSubscriptionOfDeletedTeam(
  teamId: string,
  requestId: string,
): Promise<void> {
  const current = await subscriptionOf(teamId);
  if (!isLive(current) || !billingOnline()) return;
  const at = Math.max(apiSnapshotTime(), current.eventAt);
  const cancelled = await withBillingErrors(() =>
    stripe().subscriptions.cancel(
      current.stripeId,
      { cancellation_details: { comment: TEAM_DELETED_COMMENT }, prorate: false },
      { idempotencyKey: idempotencyKey('team-deleted', current.stripeId, requestId) },
    ),
  );
  await applySubscription(cancelled, at);
}
