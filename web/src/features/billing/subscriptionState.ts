/**
 * Which state a team's subscription is in, for the subscription tab (docs/billing.md "Flows"
 * "Subscription: active when named default and no past end date. On trial …; on grace period
 * (ends_at in the future); needs subscription (none, or ends_at passed). stripe_status
 * incomplete, incomplete_expired, past_due or unpaid is not active.").
 */
import type { SubscriptionView } from '#shared/billing.ts';
import { formatBillingDate } from './format.ts';

export type SubscriptionPhase =
  /** No Stripe keys: the plan is data, nothing can be bought (docs/billing.md "Offline mode"). */
  | 'offline'
  /** On `plan-freeze` (docs/billing.md "Flows" cancel flow). */
  | 'frozen'
  /** Cancelled, `ends_at` in the future: can be resumed. */
  | 'grace'
  /** The first payment is not through (3-D Secure pending, or failed). */
  | 'incomplete'
  /** A renewal failed (`past_due`, `unpaid`): paid capabilities are lost until paid. */
  | 'unpaid'
  /** Paying or trialing: can switch or cancel. */
  | 'active'
  /** No subscription, or it ended: can subscribe. */
  | 'none';

/** The phase that decides what the tab offers; see {@link SubscriptionPhase}. */
export function subscriptionPhase(view: SubscriptionView): SubscriptionPhase {
  if (!view.billing_online) return 'offline';
  if (view.frozen) return 'frozen';
  if (view.on_grace_period) return 'grace';
  if (view.subscription_id === null) return 'none';
  // Before `needs_subscription`, which the server sets for every status that is not active:
  // a first payment pending or a failed renewal is still this subscription's to finish.
  if (view.status === 'incomplete') return 'incomplete';
  if (view.status === 'past_due' || view.status === 'unpaid') return 'unpaid';
  if (view.needs_subscription) return 'none';
  if (view.status === 'incomplete_expired' || view.status === 'canceled') return 'none';
  return view.active || view.on_trial ? 'active' : 'none';
}

/**
 * One sentence on the subscription's dates: the trial's end (docs/billing.md "Flows" 'MMMM Do,
 * YYYY'), the end of a cancelled subscription, or the renewal.
 * @returns the sentence, or '' when there is no date to tell.
 */
export function subscriptionDates(view: SubscriptionView): string {
  const phase = subscriptionPhase(view);
  const trial = formatBillingDate(view.trial_ends_at);
  const ends = formatBillingDate(view.ends_at);
  const renews = formatBillingDate(view.current_period_end);
  if (phase === 'grace' && ends) return `Cancelled: the plan ends on ${ends}.`;
  if (view.on_trial && trial) return `On trial until ${trial}.`;
  if (phase === 'frozen') return 'Frozen: designs are kept, but cannot be created or changed.';
  if (phase === 'incomplete') return 'The first payment is not complete yet.';
  if (phase === 'unpaid') return 'The last payment failed. Update the card to keep the plan.';
  if (phase === 'active' && renews) return `Renews on ${renews}.`;
  return '';
}
