/**
 * Cards (docs/billing.md "Flows": "Saving a card uses a setup-intent step"; docs/billing.md): `GET
 * /stripe/token` makes a SetupIntent for the team's customer, the SPA confirms it with the Payment
 * Element, and the resulting payment method becomes the customer's default. The team keeps the
 * brand and last four digits for the masked card (docs/accounts.md "Constants").
 */
import type { Card, StripeTokenResponse } from '#shared/billing.ts';
import { BILLING_MESSAGES } from '#shared/billing.ts';
import { db } from '#lib/db/index.ts';
import { validationFailed } from '#lib/errors.ts';
import type { Stripe } from '#lib/stripe.ts';
import { BillingOfflineError, idempotencyKey, stripe, stripePublishableKey } from '#lib/stripe.ts';
import type { BillingTeam } from './account.ts';
import { ensureCustomer } from './customers.ts';

/** The card fields of a payment method, or null for a method that is not a card. */
export function cardOf(pm: Stripe.PaymentMethod): Card | null {
  if (!pm.card) return null;
  return {
    brand: pm.card.brand,
    last4: pm.card.last4,
    exp_month: pm.card.exp_month,
    exp_year: pm.card.exp_year,
  };
}

/**
 * `GET /stripe/token`: a SetupIntent for later off-session charges of the team's customer.
 * @throws BillingOfflineError offline, Stripe errors otherwise.
 */
export async function createSetupIntent(
  billing: BillingTeam,
  requestId: string,
): Promise<StripeTokenResponse> {
  const publishableKey = stripePublishableKey();
  if (!publishableKey) throw new BillingOfflineError();
  const { customerId } = await ensureCustomer(billing, {}, requestId);
  const intent = await stripe().setupIntents.create(
    {
      customer: customerId,
      usage: 'off_session',
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
      metadata: { team_id: billing.team.teamId },
    },
    { idempotencyKey: idempotencyKey('setup-intent', billing.team.teamId, requestId) },
  );
  if (!intent.client_secret) throw new Error('Stripe answered a SetupIntent without a secret');
  return { clientSecret: intent.client_secret, publishableKey };
}

/**
 * Makes a payment method (`pm_…`) the customer's default card: attached when it is not yet
 * (registration creates it without a customer), then set as
 * `invoice_settings.default_payment_method`; the team keeps its brand and last four.
 * @throws AppError 422 on `stripe_payment_method` for another customer's method or a non-card.
 */
export async function useCard(
  teamId: string,
  customerId: string,
  paymentMethodId: string,
  requestId: string,
): Promise<Card> {
  const client = stripe();
  let pm = await client.paymentMethods.retrieve(paymentMethodId);
  const owner = typeof pm.customer === 'string' ? pm.customer : pm.customer?.id;
  if (owner && owner !== customerId)
    throw validationFailed({ stripe_payment_method: [BILLING_MESSAGES.cardRequired] });
  if (!owner) {
    pm = await client.paymentMethods.attach(
      paymentMethodId,
      { customer: customerId },
      { idempotencyKey: idempotencyKey('attach', customerId, paymentMethodId, requestId) },
    );
  }
  const card = cardOf(pm);
  if (!card) throw validationFailed({ stripe_payment_method: [BILLING_MESSAGES.cardRequired] });
  await client.customers.update(
    customerId,
    { invoice_settings: { default_payment_method: pm.id } },
    { idempotencyKey: idempotencyKey('default-card', customerId, pm.id, requestId) },
  );
  await db().Team.patch({ teamId }).set({ cardBrand: card.brand, cardLastFour: card.last4 }).go();
  return card;
}

/** Webhook `payment_method.automatically_updated`: the bank sent a new expiry or number. */
export async function applyPaymentMethod(pm: Stripe.PaymentMethod, teamId: string): Promise<void> {
  const card = cardOf(pm);
  if (!card) return;
  await db().Team.patch({ teamId }).set({ cardBrand: card.brand, cardLastFour: card.last4 }).go();
}
