/**
 * What each Stripe webhook event does (docs/billing.md; docs/billing.md "Webhook": "webhooks are
 * the source of truth for subscription state"). Every handler tolerates any order: subscription
 * snapshots go through `applySubscription` (newest wins, `created` never overwrites), invoice
 * events re-read the subscription from Stripe, and customer events overwrite billing fields with
 * the snapshot they carry.
 */
import { CASHIER_PATH, paymentConfirmationPath } from '#shared/billing.ts';
import { billingOnline, config } from '#lib/config.ts';
import { db } from '#lib/db/index.ts';
import { logger } from '#lib/logger.ts';
import { sendMail } from '#lib/mailer.ts';
import { longDate, NOTICES, notify, notifyTeam } from '#domain/notify.ts';
import { paymentActionMail, trialEndingMail } from '#domain/mail-templates.ts';
import type { Stripe } from '#lib/stripe.ts';
import { stripe } from '#lib/stripe.ts';
import { loadBillingTeam, teamOfCustomer } from '#functions/billing/account.ts';
import { applyCustomer } from '#functions/billing/customers.ts';
import { applyPaymentMethod } from '#functions/billing/payment-methods.ts';
import { reconcileSeats } from '#functions/billing/seats.ts';
import { applySubscription, paymentIntentOf } from '#functions/billing/subscriptions.ts';

const idOf = (v: string | { id: string } | null | undefined): string | undefined =>
  typeof v === 'string' ? v : v?.id;

/** The team a Stripe object belongs to: its metadata's `team_id`, else its customer's. */
async function teamOf(
  customer: string | { id: string } | null | undefined,
  metadata?: Record<string, string> | null,
): Promise<string | undefined> {
  if (metadata?.team_id) return metadata.team_id;
  const customerId = idOf(customer);
  return customerId ? teamOfCustomer(customerId) : undefined;
}

/** The subscription an invoice was made for. */
const subscriptionOfInvoice = (invoice: Stripe.Invoice): string | undefined =>
  idOf(invoice.parent?.subscription_details?.subscription);

/** Re-reads an invoice's subscription from Stripe and applies it (order-free: Stripe's now). */
async function refreshSubscription(invoice: Stripe.Invoice, eventAt: number): Promise<void> {
  const id = subscriptionOfInvoice(invoice);
  if (!id || !billingOnline()) return;
  await applySubscription(await stripe().subscriptions.retrieve(id), eventAt);
}

/** The PaymentIntent of an invoice: from the event when included, else listed from Stripe. */
async function paymentOfInvoice(invoice: Stripe.Invoice): Promise<string | undefined> {
  const included = paymentIntentOf(invoice);
  if (included || !billingOnline()) return included;
  const payments = await stripe().invoicePayments.list({ invoice: invoice.id, limit: 10 });
  return idOf(
    payments.data.find((p) => p.is_default)?.payment.payment_intent ??
      payments.data[0]?.payment.payment_intent,
  );
}

/** The settings address of a team's subscription tab (docs/adr/0026-billing-in-the-spa.md "Billing in the SPA"). */
const subscriptionSettings = (teamId: string) =>
  `/settings/companies/${encodeURIComponent(teamId)}#/subscription`;

/**
 * `invoice.payment_action_required`: e-mails the team owner a link to the payment-confirmation
 * page (`/{cashierPath}/payment/{paymentId}?redirect=…`, docs/adr/0026-billing-in-the-spa.md
 * "Billing in the SPA"), Cashier's "confirm your payment" notice.
 */
async function askForConfirmation(invoice: Stripe.Invoice): Promise<void> {
  const teamId = await teamOf(invoice.customer, invoice.parent?.subscription_details?.metadata);
  const paymentId = await paymentOfInvoice(invoice);
  if (!teamId || !paymentId) {
    logger.warn('payment action required for an unknown team or payment', { invoice: invoice.id });
    return;
  }
  const { team, owner } = await loadBillingTeam(teamId);
  const link = `${config().PUBLIC_URL}${paymentConfirmationPath(paymentId, subscriptionSettings(teamId))}`;
  const amount = (invoice.amount_due / 100).toFixed(2);
  await sendMail({
    to: owner.email,
    ...paymentActionMail({
      name: owner.name,
      teamName: team.name,
      amount,
      currency: invoice.currency.toUpperCase(),
      link,
      cashierPath: CASHIER_PATH,
    }),
  });
  const confirm = paymentConfirmationPath(paymentId, subscriptionSettings(teamId));
  await notify(owner.userId, NOTICES.paymentActionRequired(team, confirm));
}

/**
 * `invoice.payment_failed`: tells the team owner in-app (docs/notifications.md). The first
 * payment of a new subscription is left out: whoever subscribes sees its refusal on the form.
 */
async function paymentFailed(invoice: Stripe.Invoice): Promise<void> {
  if (invoice.billing_reason === 'subscription_create') return;
  const teamId = await teamOf(invoice.customer, invoice.parent?.subscription_details?.metadata);
  if (teamId) await notifyTeam(teamId, 'owner', (team) => NOTICES.paymentFailed(team));
}

/** `customer.subscription.trial_will_end`: tells the owner when the trial ends. */
async function trialEnding(sub: Stripe.Subscription, eventAt: number): Promise<void> {
  const saved = await applySubscription(sub, eventAt);
  if (!saved?.trialEndsAt) return;
  const { team, owner } = await loadBillingTeam(saved.teamId);
  await sendMail({
    to: owner.email,
    ...trialEndingMail({
      name: owner.name,
      teamName: team.name,
      endsOn: longDate(saved.trialEndsAt),
      link: `${config().PUBLIC_URL}${subscriptionSettings(team.teamId)}`,
      hasCard: !!team.cardLastFour,
    }),
  });
  await notify(owner.userId, NOTICES.trialEnding(team, saved.trialEndsAt));
}

/** `customer.deleted`: the team forgets the customer, its card and the mapping. */
async function customerDeleted(customer: { id: string; metadata?: Record<string, string> | null }) {
  const teamId = await teamOf(customer.id, customer.metadata);
  if (!teamId) return;
  await db().Team.patch({ teamId }).remove(['stripeCustomerId', 'cardBrand', 'cardLastFour']).go();
  await db().StripeCustomer.delete({ customerId: customer.id }).go();
}

/** `customer.tax_id.*`: the team's VAT id follows the customer's (deleted → cleared). */
async function taxIdChanged(taxId: Stripe.TaxId, deleted: boolean): Promise<void> {
  if (taxId.type !== 'eu_vat' && taxId.type !== 'gb_vat') return;
  const teamId = await teamOf(taxId.customer);
  if (!teamId) return;
  await db()
    .Team.patch({ teamId })
    .set({ vatId: deleted ? '' : taxId.value })
    .go();
}

/** The event types this webhook acts on (docs/billing.md); others are acknowledged and ignored. */
export const HANDLED_EVENTS = [
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.trial_will_end',
  'customer.updated',
  'customer.deleted',
  'customer.tax_id.created',
  'customer.tax_id.updated',
  'customer.tax_id.deleted',
  'payment_method.automatically_updated',
  'invoice.paid',
  'invoice.payment_failed',
  'invoice.payment_action_required',
] as const;

/**
 * Acts on one verified event.
 * @returns false for an event type this webhook ignores.
 * @throws whatever the work throws (the caller un-records the event so Stripe's retry redoes it).
 */
export async function handleEvent(event: Stripe.Event): Promise<boolean> {
  switch (event.type) {
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      // A per-user plan whose seats are not the team's members gets them (docs/billing.md).
      await reconcileSeats(
        await applySubscription(event.data.object, event.created, {
          created: event.type === 'customer.subscription.created',
        }),
        event.id,
      );
      return true;
    case 'customer.subscription.trial_will_end':
      await trialEnding(event.data.object, event.created);
      return true;
    case 'customer.updated': {
      const customer = event.data.object;
      const teamId = await teamOf(customer.id, customer.metadata);
      if (teamId) await applyCustomer(customer, teamId);
      return true;
    }
    case 'customer.deleted':
      await customerDeleted(event.data.object);
      return true;
    case 'customer.tax_id.created':
    case 'customer.tax_id.updated':
    case 'customer.tax_id.deleted':
      await taxIdChanged(event.data.object, event.type === 'customer.tax_id.deleted');
      return true;
    case 'payment_method.automatically_updated': {
      const pm = event.data.object;
      const teamId = await teamOf(pm.customer);
      if (teamId) await applyPaymentMethod(pm, teamId);
      return true;
    }
    case 'invoice.paid':
    case 'invoice.payment_failed':
      await refreshSubscription(event.data.object, event.created);
      if (event.type === 'invoice.payment_failed') await paymentFailed(event.data.object);
      return true;
    case 'invoice.payment_action_required':
      await askForConfirmation(event.data.object);
      return true;
    default:
      return false;
  }
}
