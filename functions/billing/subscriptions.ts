/**
 * Subscriptions (docs/billing.md "Flows" states and the cancel flow; "Subscription and payment";
 * docs/billing.md items 3–5): subscribe with `payment_behavior: default_incomplete` (3-D Secure
 * answers 400 with `paymentId`), switch plans with proration, resume, freeze (swap to
 * `plan-freeze`, the plan kept as `frozenPlan` in the subscription's metadata), and cancel at the
 * period end (a frozen subscription first gets its plan back; the reason goes to metadata and
 * `cancellation_details.feedback`).
 *
 * Stripe is the source of truth: every answer Stripe gives and every webhook snapshot goes
 * through {@link applySubscription}, which keeps the newest snapshot and makes the team's plan
 * and `frozen` flag follow it ({@link teamStateFor}).
 */
import {
  BILLING_MESSAGES,
  type CancelReason,
  FREE_PLAN_ID,
  FREEZE_PLAN_ID,
  planProductWatermark,
  type SubscribeRequest,
} from '#shared/billing.ts';
import { db } from '#lib/db/index.ts';
import { AppError, validationFailed } from '#lib/errors.ts';
import { logger } from '#lib/logger.ts';
import { idempotencyKey, Stripe, stripe } from '#lib/stripe.ts';
import { notifySubscriptionChange } from '#domain/notify.ts';
import { emitWebhookEvent } from '#domain/webhooks.ts';
import { invalidateTeamRenders } from '#functions/designs/team-renders.ts';
import {
  type BillingTeam,
  type SubscriptionRecord,
  subscriptionOf,
  teamOfCustomer,
} from './account.ts';
import { resolveDiscount, storedDiscount } from './discounts.ts';
import { ensureCustomer } from './customers.ts';
import { useCard } from './payment-methods.ts';
import { planById, planOfPrice, priceIdOf, type PlanDefinition } from './plans.ts';

/** Statuses whose plan's capabilities apply (docs/billing.md); the grace period is `active`. */
const PAID_STATUSES = new Set(['active', 'trialing']);
/** Statuses that drop to the free plan (docs/billing.md "Flows": not active). */
const LAPSED_STATUSES = new Set(['past_due', 'unpaid', 'canceled', 'incomplete_expired', 'paused']);

/** Cancel reasons (docs/billing.md "Model") as Stripe's `cancellation_details.feedback`. */
export const FEEDBACK_OF_REASON: Record<
  CancelReason,
  Stripe.SubscriptionUpdateParams.CancellationDetails.Feedback
> = {
  cost: 'too_expensive',
  difficultyOfUse: 'too_complex',
  missingFunctionality: 'missing_features',
  usingOtherProduct: 'switched_service',
  notUsingIt: 'unused',
  somethingElse: 'other',
};

const iso = (seconds: number | null | undefined): string | undefined =>
  seconds ? new Date(seconds * 1000).toISOString() : undefined;

const idOf = (v: string | { id: string } | null | undefined): string | undefined =>
  typeof v === 'string' ? v : v?.id;

/**
 * What the team's plan and frozen flag become for a subscription state (docs/billing.md):
 * active, trialing or on grace period → the subscription's plan (frozen on `plan-freeze`);
 * past_due, unpaid, canceled, incomplete_expired, paused → the free plan; incomplete → no
 * change (the team keeps what it had until the first payment succeeds).
 */
export function teamStateFor(
  status: string,
  planId: string,
): { planId: string; frozen: boolean } | undefined {
  if (PAID_STATUSES.has(status)) return { planId, frozen: planId === FREEZE_PLAN_ID };
  if (LAPSED_STATUSES.has(status)) return { planId: FREE_PLAN_ID, frozen: false };
  return undefined;
}

/** The one item of our subscriptions (a plan price), or undefined. */
const itemOf = (sub: Stripe.Subscription) => sub.items.data[0];

/**
 * Stores a Stripe subscription snapshot and makes the team follow it.
 * - Order-tolerant: a snapshot older than the stored one (`eventAt`, Stripe's seconds) is
 *   ignored; a `created` snapshot never overwrites an existing record of the same id; a
 *   canceled subscription is final for its id.
 * - The team is found through the metadata's `team_id`, else the customer's StripeCustomer item.
 * @param eventAt the snapshot's time, s since the epoch (the event's `created`, or now).
 * @returns the stored record, or undefined when the snapshot was ignored or has no team.
 */
export async function applySubscription(
  sub: Stripe.Subscription,
  eventAt: number,
  options: { created?: boolean } = {},
): Promise<SubscriptionRecord | undefined> {
  const customerId = idOf(sub.customer)!;
  const teamId = sub.metadata?.team_id || (await teamOfCustomer(customerId));
  if (!teamId) {
    logger.warn('stripe subscription of an unknown team', { subscription: sub.id });
    return undefined;
  }
  const item = itemOf(sub);
  const priceId = item?.price.id ?? '';
  const plan = planOfPrice(priceId);
  if (!plan) {
    logger.warn('stripe subscription with a price we do not sell', {
      subscription: sub.id,
      priceId,
    });
    return undefined;
  }
  const existing = await subscriptionOf(teamId);
  if (existing && existing.stripeId === sub.id) {
    if (options.created) return existing;
    if (existing.eventAt > eventAt) return existing;
    if (existing.stripeStatus === 'canceled') return existing;
  } else if (existing && existing.eventAt > eventAt) {
    // A late event of the team's previous subscription.
    return existing;
  } else if (existing && sub.status === 'canceled' && existing.stripeStatus !== 'canceled') {
    // An old subscription's end must not replace the team's newer one.
    return existing;
  }
  const endsAt =
    sub.status === 'canceled'
      ? iso(sub.ended_at ?? sub.canceled_at)
      : sub.cancel_at
        ? iso(sub.cancel_at)
        : sub.cancel_at_period_end
          ? iso(item?.current_period_end)
          : undefined;
  const record = {
    teamId,
    name: 'default',
    stripeId: sub.id,
    stripeCustomerId: customerId,
    stripeStatus: sub.status,
    stripePriceId: priceId,
    planId: plan.planId,
    quantity: item?.quantity ?? 1,
    eventAt,
    trialEndsAt: iso(sub.trial_end),
    endsAt,
    currentPeriodEnd: iso(item?.current_period_end),
    frozenPlan: sub.metadata?.frozen_plan || undefined,
    cancelReason: sub.metadata?.cancel_reason || existing?.cancelReason,
    cancelDescription: sub.metadata?.cancel_description || existing?.cancelDescription,
    discount: storedDiscount(sub) ?? existing?.discount,
  };
  const saved = Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
  await db()
    .Subscription.put(saved as SubscriptionRecord)
    .go();
  await syncTeam(teamId, existing, record.stripeStatus, record.planId);
  // The owner hears of a new plan, a cancellation, a resume or the end (docs/notifications.md).
  await notifySubscriptionChange(teamId, existing, record);
  if (
    !existing ||
    existing.stripeStatus !== record.stripeStatus ||
    existing.planId !== record.planId ||
    existing.quantity !== record.quantity ||
    existing.endsAt !== record.endsAt
  )
    await emitWebhookEvent(teamId, 'subscription.changed', {
      subscription: {
        plan_id: record.planId,
        status: record.stripeStatus,
        seats: record.quantity,
        ends_at: record.endsAt ?? null,
        trial_ends_at: record.trialEndsAt ?? null,
      },
      previous: existing ? { plan_id: existing.planId, status: existing.stripeStatus } : null,
    });
  return saved as SubscriptionRecord;
}

/** Makes the team's plan and frozen flag follow the subscription (docs/billing.md). */
async function syncTeam(
  teamId: string,
  before: SubscriptionRecord | null,
  status: string,
  planId: string,
): Promise<void> {
  const state = teamStateFor(status, planId);
  if (!state) return;
  const wasBillingFrozen = before?.planId === FREEZE_PLAN_ID;
  const { data: old } = await db()
    .Team.patch({ teamId })
    .set({
      planId: state.planId,
      // Billing clears only a freeze it set; an admin's freeze (kiosk) stays.
      ...(state.frozen || wasBillingFrozen ? { frozen: state.frozen } : {}),
    })
    .go({ response: 'all_old' });
  // The product mark comes or goes: the CDN's copies of the team's renders are stale
  // (docs/adr/0057-watermark.md "Watermark", its "CDN" point).
  if (old && planProductWatermark(old.planId) !== planProductWatermark(state.planId))
    await invalidateTeamRenders(teamId, 'all');
}

/** The PaymentIntent id of an invoice's payment, when Stripe included it. */
export function paymentIntentOf(invoice: Stripe.Invoice | string | null): string | undefined {
  if (!invoice || typeof invoice === 'string') return undefined;
  const payments = invoice.payments?.data ?? [];
  const payment = payments.find((p) => p.is_default) ?? payments[0];
  return idOf(payment?.payment.payment_intent);
}

/** A 400 that sends the SPA to the payment-confirmation page (docs/billing.md "Flows", docs/accounts.md "Error answers in the SPA"). */
export const paymentActionRequired = (paymentId: string) =>
  new AppError(400, 'payment_action_required', BILLING_MESSAGES.paymentActionRequired, {
    paymentId,
  });

/** A paid, subscribable plan. @throws AppError 422 on `plan`. */
function paidPlan(planId: string, allowFreeze = false): { plan: PlanDefinition; priceId: string } {
  const plan = planById(planId);
  const priceId = plan ? priceIdOf(plan.planId) : undefined;
  if (!plan || !priceId || (plan.price === 0 && plan.planId !== FREEZE_PLAN_ID))
    throw validationFailed({ plan: [BILLING_MESSAGES.planInvalid] });
  if (!plan.active && !(allowFreeze && plan.planId === FREEZE_PLAN_ID))
    throw validationFailed({ plan: [BILLING_MESSAGES.planInvalid] });
  return { plan, priceId };
}

/** The seats a team on a per-user plan pays for: its members, at least 1. */
export async function memberCount(teamId: string): Promise<number> {
  const members = (await db().Membership.query.byTeam({ teamId }).go({ pages: 'all' })).data;
  return Math.max(1, members.length);
}

/** Seats for a plan: the team's members for a per-user plan, else 1. */
const seatsFor = async (plan: PlanDefinition, teamId: string): Promise<number> =>
  plan.type === 'user' ? memberCount(teamId) : 1;

/**
 * The `eventAt` of a snapshot Stripe just answered (s): our clock minus five minutes, so that a
 * webhook for a later change is never ignored because our clock runs ahead of Stripe's; an
 * older event delivered in that window is put right by the webhook of this very change.
 */
export const apiSnapshotTime = () => Math.floor(Date.now() / 1000) - 300;
const now = apiSnapshotTime;

/** True while a record is a live subscription (not ended, not expired). */
export const isLive = (s: SubscriptionRecord | null): s is SubscriptionRecord =>
  s !== null && s.stripeStatus !== 'canceled' && s.stripeStatus !== 'incomplete_expired';

/**
 * Settles a subscription whose first invoice is open after a create or update: confirms its
 * PaymentIntent with the card when Stripe left it unconfirmed, then either it succeeded (the
 * fresh subscription is applied) or it needs the customer (400 with `paymentId`).
 * @throws AppError 400 `paymentId` when 3-D Secure is needed; Stripe card errors.
 */
async function settleFirstPayment(
  sub: Stripe.Subscription,
  paymentMethodId: string | undefined,
  requestId: string,
): Promise<Stripe.Subscription> {
  const paymentId = paymentIntentOf(sub.latest_invoice as Stripe.Invoice | null);
  if (!paymentId) return sub;
  const client = stripe();
  let intent = await client.paymentIntents.retrieve(paymentId);
  if (
    paymentMethodId &&
    (intent.status === 'requires_confirmation' || intent.status === 'requires_payment_method')
  ) {
    intent = await client.paymentIntents.confirm(
      paymentId,
      { payment_method: paymentMethodId, off_session: false },
      { idempotencyKey: idempotencyKey('confirm', paymentId, requestId) },
    );
  }
  if (intent.status === 'succeeded' || intent.status === 'processing')
    return client.subscriptions.retrieve(sub.id);
  throw paymentActionRequired(paymentId);
}

/**
 * `POST …/subscription` (docs/billing.md "Flows"): subscribes the team to a paid plan with a new
 * card (`stripe_payment_method`) or the card on file (`use_existing_payment_method`), an optional
 * coupon, the billing address and VAT id (Stripe Tax).
 * @param serverDiscount a discount the server chose (the partner campaign's coupon,
 *   `partnerDiscount`), applied instead of `body.coupon`; never built from client input.
 * @param trialDays days of trial before the first payment (registration on a plan that offers
 *   one, docs/billing.md "Trials"); the card is kept and charged at the trial's end.
 * @returns the stored subscription.
 * @throws AppError 422 (`plan`, `stripe_payment_method`, `coupon`, `vat_id`), 400 with
 *   `paymentId` (3-D Secure); Stripe errors (mapped by the caller).
 */
export async function subscribe(
  billing: BillingTeam,
  body: SubscribeRequest & { country: string },
  requestId: string,
  serverDiscount?: { coupon: string } | { promotion_code: string },
  trialDays?: number,
): Promise<SubscriptionRecord | undefined> {
  const { plan, priceId } = paidPlan(body.plan);
  const teamId = billing.team.teamId;
  if (isLive(await subscriptionOf(teamId)))
    throw validationFailed({
      plan: ['The team already has a subscription; switch plans instead.'],
    });
  if (
    !body.stripe_payment_method &&
    !(body.use_existing_payment_method && billing.team.cardLastFour)
  )
    throw validationFailed({ stripe_payment_method: [BILLING_MESSAGES.cardRequired] });
  const discount = serverDiscount ?? (body.coupon ? await resolveDiscount(body.coupon) : undefined);
  if (!serverDiscount && body.coupon && !discount)
    throw validationFailed({ coupon: [BILLING_MESSAGES.couponInvalid] });
  const { customerId } = await ensureCustomer(billing, body, requestId);
  if (body.stripe_payment_method)
    await useCard(teamId, customerId, body.stripe_payment_method, requestId);
  const quantity = await seatsFor(plan, teamId);
  const created = await stripe().subscriptions.create(
    {
      customer: customerId,
      items: [{ price: priceId, quantity }],
      payment_behavior: 'default_incomplete',
      payment_settings: { save_default_payment_method: 'on_subscription' },
      automatic_tax: { enabled: true },
      ...(body.stripe_payment_method ? { default_payment_method: body.stripe_payment_method } : {}),
      ...(discount ? { discounts: [discount] } : {}),
      ...(trialDays ? { trial_period_days: trialDays } : {}),
      metadata: { team_id: teamId, plan: plan.planId },
      expand: ['latest_invoice.payments', 'discounts.source.coupon'],
    },
    { idempotencyKey: idempotencyKey('subscribe', teamId, plan.planId, requestId) },
  );
  await applySubscription(created, now());
  if (created.status === 'incomplete') {
    const pm = body.stripe_payment_method ?? undefined;
    try {
      const settled = await settleFirstPayment(created, pm, requestId);
      return applySubscription(settled, now());
    } catch (error) {
      if (error instanceof Stripe.errors.StripeCardError) {
        // A declined first payment leaves nothing behind: the incomplete subscription goes.
        await stripe()
          .subscriptions.cancel(created.id)
          .catch(() => undefined);
      }
      throw error;
    }
  }
  return subscriptionOf(teamId).then((s) => s ?? undefined);
}

/**
 * Registration on a plan that offers a trial without a card (docs/billing.md "Trials"): a
 * Stripe subscription with `trial_period_days` of the plan and no payment method, which Stripe
 * cancels when the trial ends without a card (`trial_settings.end_behavior`); the team follows
 * it like any subscription (on the plan while `trialing`, back on the free plan once cancelled).
 * @returns the stored subscription (status `trialing`).
 * @throws AppError 422 `plan` for a plan without a trial or price; Stripe errors (mapped by the
 *   caller, functions/billing/errors.ts).
 */
export async function startTrial(
  billing: BillingTeam,
  planId: string,
  requestId: string,
): Promise<SubscriptionRecord | undefined> {
  const { plan, priceId } = paidPlan(planId);
  if (!plan.trialDays) throw validationFailed({ plan: [BILLING_MESSAGES.planInvalid] });
  const teamId = billing.team.teamId;
  const { customerId } = await ensureCustomer(billing, {}, requestId);
  const created = await stripe().subscriptions.create(
    {
      customer: customerId,
      items: [{ price: priceId, quantity: await seatsFor(plan, teamId) }],
      trial_period_days: plan.trialDays,
      trial_settings: { end_behavior: { missing_payment_method: 'cancel' } },
      payment_settings: { save_default_payment_method: 'on_subscription' },
      automatic_tax: { enabled: true },
      metadata: { team_id: teamId, plan: plan.planId },
    },
    { idempotencyKey: idempotencyKey('trial', teamId, plan.planId, requestId) },
  );
  return applySubscription(created, now());
}

/** The live subscription of the team. @throws AppError 422 on `plan` without one. */
async function liveSubscription(teamId: string): Promise<SubscriptionRecord> {
  const current = await subscriptionOf(teamId);
  if (!isLive(current)) throw validationFailed({ plan: [BILLING_MESSAGES.noSubscription] });
  return current;
}

/**
 * `PUT …/subscription` (docs/billing.md "Flows": "plan change"): switch to `plan` with proration
 * (`always_invoice` with `pending_if_incomplete`: nothing changes until the difference is
 * paid, and a payment that needs 3-D Secure answers 400 with `paymentId`); on grace period it
 * resumes; `plan-freeze` freezes and keeps the current plan as `frozenPlan`; leaving
 * `plan-freeze` unfreezes.
 * @throws AppError 422 (`plan`), 400 `paymentId`; Stripe errors.
 */
export async function swap(
  billing: BillingTeam,
  planId: string,
  requestId: string,
): Promise<SubscriptionRecord | undefined> {
  const teamId = billing.team.teamId;
  const current = await liveSubscription(teamId);
  const { plan, priceId } = paidPlan(planId, true);
  const client = stripe();
  const sub = await client.subscriptions.retrieve(current.stripeId);
  const item = itemOf(sub);
  if (!item) throw new Error(`subscription ${sub.id} has no item`);
  const freezing = plan.planId === FREEZE_PLAN_ID && current.planId !== FREEZE_PLAN_ID;
  const unfreezing = current.planId === FREEZE_PLAN_ID && plan.planId !== FREEZE_PLAN_ID;
  const onGrace = sub.cancel_at_period_end || sub.cancel_at !== null;
  if (freezing || unfreezing || onGrace) {
    // Metadata and resuming cannot ride on a pending (payment-dependent) update.
    await client.subscriptions.update(
      sub.id,
      {
        ...(onGrace ? { cancel_at_period_end: false } : {}),
        ...(freezing ? { metadata: { frozen_plan: current.planId } } : {}),
        ...(unfreezing ? { metadata: { frozen_plan: '' } } : {}),
      },
      { idempotencyKey: idempotencyKey('resume', sub.id, plan.planId, requestId) },
    );
  }
  if (item.price.id === priceId) {
    return applySubscription(await client.subscriptions.retrieve(sub.id), now());
  }
  const updated = await client.subscriptions.update(
    sub.id,
    {
      items: [{ id: item.id, price: priceId, quantity: await seatsFor(plan, teamId) }],
      proration_behavior: freezing ? 'none' : 'always_invoice',
      payment_behavior: 'pending_if_incomplete',
      expand: ['latest_invoice.payments'],
    },
    { idempotencyKey: idempotencyKey('swap', sub.id, plan.planId, requestId) },
  );
  if (updated.pending_update) {
    const paymentId = paymentIntentOf(updated.latest_invoice as Stripe.Invoice | null);
    if (paymentId) throw paymentActionRequired(paymentId);
    throw validationFailed({ plan: [BILLING_MESSAGES.subscriptionFailed] });
  }
  return applySubscription(updated, now());
}

/**
 * `DELETE …/subscription` (docs/billing.md "Flows" cancel flow): a frozen subscription gets its
 * `frozenPlan` back (no proration), then the subscription is cancelled at the period end (grace
 * period; resume with PUT). The reason is stored in metadata and `cancellation_details`.
 * @throws AppError 422 (`plan`) without a subscription; Stripe errors.
 */
export async function cancel(
  billing: BillingTeam,
  reason: { type?: CancelReason | null; description?: string | null },
  requestId: string,
): Promise<SubscriptionRecord | undefined> {
  const current = await liveSubscription(billing.team.teamId);
  const client = stripe();
  const type = reason.type ?? (current.cancelReason as CancelReason | undefined);
  const description = reason.description ?? current.cancelDescription;
  if (current.planId === FREEZE_PLAN_ID && current.frozenPlan) {
    const restored = priceIdOf(current.frozenPlan);
    const restoredPlan = planById(current.frozenPlan);
    const sub = await client.subscriptions.retrieve(current.stripeId);
    const item = itemOf(sub);
    if (restored && restoredPlan && item) {
      await client.subscriptions.update(
        sub.id,
        {
          // A per-user plan gets its seats back (plan-freeze is one per team).
          items: [
            {
              id: item.id,
              price: restored,
              quantity: await seatsFor(restoredPlan, billing.team.teamId),
            },
          ],
          proration_behavior: 'none',
          metadata: { frozen_plan: '' },
        },
        { idempotencyKey: idempotencyKey('unfreeze', sub.id, requestId) },
      );
    }
  }
  const cancelled = await client.subscriptions.update(
    current.stripeId,
    {
      cancel_at_period_end: true,
      cancellation_details: {
        ...(type ? { feedback: FEEDBACK_OF_REASON[type] } : {}),
        ...(description ? { comment: description } : {}),
      },
      metadata: {
        ...(type ? { cancel_reason: type } : {}),
        ...(description ? { cancel_description: description } : {}),
      },
    },
    { idempotencyKey: idempotencyKey('cancel', current.stripeId, requestId) },
  );
  return applySubscription(cancelled, now());
}

/**
 * `PUT /settings/companies/{id}/metaData` (docs/billing.md "Flows"): the cancel flow's reason and
 * description, kept locally and in the subscription's metadata before the freeze or cancel.
 * @throws AppError 422 (`plan`) without a subscription; Stripe errors.
 */
export async function saveCancelMetaData(
  billing: BillingTeam,
  body: { type: CancelReason; description?: string | null | undefined; cancelType: string },
  requestId: string,
): Promise<void> {
  const current = await liveSubscription(billing.team.teamId);
  await stripe().subscriptions.update(
    current.stripeId,
    {
      metadata: {
        cancel_reason: body.type,
        cancel_description: body.description ?? '',
        cancel_type: body.cancelType,
      },
    },
    { idempotencyKey: idempotencyKey('metadata', current.stripeId, body.type, requestId) },
  );
  await db()
    .Subscription.patch({ teamId: current.teamId, name: 'default' })
    .set({ cancelReason: body.type, cancelDescription: body.description ?? '' })
    .go();
}
