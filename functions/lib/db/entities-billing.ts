/**
 * Billing: plans, subscriptions, Stripe customers and the Stripe events already handled
 * (docs/billing.md "Model").
 */
import { Entity } from 'electrodb';
import { type EntityKit, SERVICE, gsi, now } from './entity-kit.ts';

/** Builds these entities against one table. */
export function billingEntities({ opts, primary }: EntityKit) {
  const Plan = new Entity(
    {
      model: { entity: 'plan', version: '1', service: SERVICE },
      attributes: {
        planId: { type: 'string', required: true },
        name: { type: 'string', required: true },
        /** cents per interval; the free plan is 0 (docs/billing.md "Model"). */
        price: { type: 'number', required: true, padding: { length: 10, char: '0' } },
        interval: { type: ['monthly', 'yearly'] as const, required: true },
        type: { type: ['user', 'team'] as const, required: true },
        active: { type: 'boolean', default: true },
        /** Team limit (attributes.teams) and member limit (attributes.teamMembers), docs/billing.md "Model". */
        teams: { type: 'number', required: true },
        teamMembers: { type: 'number', required: true },
        /** Active designs allowed; unset: no limit (functions/billing/plans.ts). */
        designs: { type: 'number' },
        can_export_pdf: { type: 'boolean', default: false },
        can_upload_custom_fonts: { type: 'boolean', default: false },
        /** Days of free trial at registration; unset: none (docs/billing.md "Trials"). */
        trialDays: { type: 'number' },
        /** False: registration asks for no card (docs/billing.md "Trials"). */
        cardUpFront: { type: 'boolean', default: true },
        stripePriceId: { type: 'string' },
      },
      indexes: {
        byId: {
          pk: { ...primary.pk, composite: ['planId'] },
          sk: { ...primary.sk, composite: [] },
        },
        all: {
          index: gsi(1).indexName,
          pk: { field: gsi(1).partitionKey, composite: [] },
          sk: { field: gsi(1).sortKey, composite: ['price', 'planId'] },
        },
      },
    },
    opts,
  );

  /**
   * A team's Stripe subscription (docs/billing.md; docs/billing.md "Model" Subscription), one per
   * team (`name` default), mirrored from Stripe: webhooks are the source of truth. `eventAt` (s
   * since the epoch, Stripe's clock) is the newest snapshot applied, so an older event never
   * overwrites a newer state (functions/billing/subscriptions.ts).
   */
  const Subscription = new Entity(
    {
      model: { entity: 'subscription', version: '1', service: SERVICE },
      attributes: {
        teamId: { type: 'string', required: true },
        name: { type: 'string', required: true, default: 'default' },
        stripeId: { type: 'string', required: true },
        stripeCustomerId: { type: 'string', required: true },
        /** Stripe's status: active, trialing, past_due, unpaid, canceled, incomplete, … */
        stripeStatus: { type: 'string', required: true },
        stripePriceId: { type: 'string', required: true },
        /** Our plan id for the price (docs/billing.md "Model" `provider_plan`). */
        planId: { type: 'string', required: true },
        /** Seats (the item quantity). */
        quantity: { type: 'number', required: true, default: 1 },
        /** ISO 8601 */
        trialEndsAt: { type: 'string' },
        /** ISO 8601: set while cancelled (grace period until then), docs/billing.md "Model". */
        endsAt: { type: 'string' },
        currentPeriodEnd: { type: 'string' },
        /** The plan before freezing (docs/billing.md "Model" `canceled_data.frozenPlan`). */
        frozenPlan: { type: 'string' },
        /** Cancel reason and description (docs/billing.md "Model" Cancel reasons; metaData call). */
        cancelReason: { type: 'string' },
        cancelDescription: { type: 'string' },
        /** JSON of the applied discount (shared/billing.ts Discount), kept from Stripe's answers. */
        discount: { type: 'string' },
        /** s since the epoch, Stripe's clock: the snapshot's time. */
        eventAt: { type: 'number', required: true },
        updatedAt: { type: 'string', default: now, watch: '*', set: now },
      },
      indexes: {
        byTeam: {
          pk: { ...primary.pk, composite: ['teamId'] },
          sk: { ...primary.sk, composite: ['name'] },
        },
      },
    },
    opts,
  );

  /** Which team a Stripe customer (`cus_…`) bills, for webhooks that name only the customer. */
  const StripeCustomer = new Entity(
    {
      model: { entity: 'stripecustomer', version: '1', service: SERVICE },
      attributes: {
        customerId: { type: 'string', required: true },
        teamId: { type: 'string', required: true },
      },
      indexes: {
        byCustomer: {
          pk: { ...primary.pk, composite: ['customerId'] },
          sk: { ...primary.sk, composite: [] },
        },
      },
    },
    opts,
  );

  /**
   * A processed Stripe webhook event (docs/billing.md: each event id once). Created with a
   * does-not-exist condition; `ttl` (s) keeps it 7 days, past Stripe's 3-day retry window.
   */
  const StripeEvent = new Entity(
    {
      model: { entity: 'stripeevent', version: '1', service: SERVICE },
      attributes: {
        eventId: { type: 'string', required: true },
        type: { type: 'string', required: true },
        receivedAt: { type: 'string', default: now, readOnly: true },
        ttl: { type: 'number', required: true },
      },
      indexes: {
        byId: {
          pk: { ...primary.pk, composite: ['eventId'] },
          sk: { ...primary.sk, composite: [] },
        },
      },
    },
    opts,
  );

  return { Plan, Subscription, StripeCustomer, StripeEvent };
}
