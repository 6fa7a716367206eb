/**
 * Seats follow the members (docs/billing.md "Flows"; docs/billing.md "Model" Plan type `user`):
 * when someone joins a team (an invitation accepted, at registration or later) or leaves it
 * (removed, or a registration rolled back), a team on a per-user plan gets its subscription item's
 * quantity set to the team's member count, prorated as a plan switch is (`proration_behavior:
 * always_invoice`).
 *
 * The membership change always stands (docs/billing.md "Seats"): this runs after it is written,
 * and a Stripe failure is logged, never thrown. The next membership change sets the count again
 * (it sends the count, not a difference), and the webhook puts a mismatch right
 * ({@link reconcileSeats}). Offline (no Stripe key), per-team plans and teams without a live
 * subscription send nothing.
 */
import { randomUUID } from 'node:crypto';
import { billingOnline } from '#lib/config.ts';
import { logger } from '#lib/logger.ts';
import { idempotencyKey, stripe } from '#lib/stripe.ts';
import { type SubscriptionRecord, subscriptionOf } from './account.ts';
import { planById } from './plans.ts';
import { apiSnapshotTime, applySubscription, isLive, memberCount } from './subscriptions.ts';

/** Why the seats change: a member joined or left, or the webhook found a mismatch. */
export type SeatChange = 'join' | 'leave' | 'reconcile';

/**
 * True when the subscription is live and its plan is billed per user (docs/billing.md "Model"
 * type). An `incomplete` one (first payment pending) is left alone: Stripe takes no item changes
 * then, and the webhook that activates it checks the count.
 */
function seatedPlan(sub: SubscriptionRecord | null | undefined): sub is SubscriptionRecord {
  if (!sub || !isLive(sub) || sub.stripeStatus === 'incomplete') return false;
  const plan = planById(sub.planId);
  return plan !== undefined && plan.type === 'user' && plan.price > 0;
}

/**
 * Sets the subscription item's quantity to `seats` and stores Stripe's answer.
 * @param changeId makes the idempotency key unique per membership change (a retry of the same
 *   call reuses it; a later change with the same count does not get the first one's answer).
 * @throws Stripe errors.
 */
async function updateQuantity(
  sub: SubscriptionRecord,
  seats: number,
  reason: SeatChange,
  changeId: string,
): Promise<void> {
  const client = stripe();
  // Stripe's answers below are at least as new as the snapshot stored when we read it (a
  // webhook's, maybe stamped ahead of apiSnapshotTime), so they are stored over it.
  const at = Math.max(apiSnapshotTime(), sub.eventAt);
  const live = await client.subscriptions.retrieve(sub.stripeId);
  const item = live.items.data[0];
  if (!item) throw new Error(`subscription ${live.id} has no item`);
  if (item.quantity === seats) {
    await applySubscription(live, at);
    return;
  }
  const updated = await client.subscriptions.update(
    live.id,
    {
      items: [{ id: item.id, quantity: seats }],
      proration_behavior: 'always_invoice',
      // The seat changes now; if its prorated invoice needs the customer, Stripe's
      // invoice.payment_action_required webhook e-mails the owner the confirmation link.
      payment_behavior: 'allow_incomplete',
    },
    {
      idempotencyKey: idempotencyKey('seats', sub.teamId, live.id, seats, reason, changeId),
    },
  );
  await applySubscription(updated, at);
}

/**
 * Makes a team's seats follow its members after a membership change (docs/billing.md). Never
 * throws: the membership change stands whatever Stripe says (a failure is logged).
 * @param teamId the team whose members changed.
 * @param reason `join` or `leave` (part of the idempotency key, and logged).
 * @param changeId what makes this change unique (default: a new UUID).
 * @returns the quantity sent to Stripe, or undefined when nothing was sent.
 */
export async function syncSeats(
  teamId: string,
  reason: SeatChange,
  changeId: string = randomUUID(),
): Promise<number | undefined> {
  try {
    if (!billingOnline()) return undefined;
    const sub = await subscriptionOf(teamId);
    if (!seatedPlan(sub)) return undefined;
    const seats = await memberCount(teamId);
    await updateQuantity(sub, seats, reason, changeId);
    return seats;
  } catch (error) {
    logger.error('seats not updated; the next membership change or webhook sets them', {
      teamId,
      reason,
      error,
    });
    return undefined;
  }
}

/**
 * The webhook's check after a subscription snapshot was stored: a per-user plan whose quantity
 * is not the team's member count (a seat update that failed, or a change made in Stripe's
 * dashboard) gets the count. Never throws (see {@link syncSeats}).
 * @param eventId the Stripe event, so Stripe's redelivery of it reuses the idempotency key.
 */
export async function reconcileSeats(
  sub: SubscriptionRecord | undefined,
  eventId: string,
): Promise<void> {
  if (!seatedPlan(sub) || !billingOnline()) return;
  const seats = await memberCount(sub.teamId).catch(() => undefined);
  if (seats === undefined || seats === sub.quantity) return;
  await syncSeats(sub.teamId, 'reconcile', eventId);
}
