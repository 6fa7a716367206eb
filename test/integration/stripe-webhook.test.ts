/**
 * The Stripe webhook (docs/billing.md; docs/billing.md "Webhook"): signatures made with
 * `stripe.webhooks.generateTestHeaderString` over the raw body, each event id processed once,
 * any order tolerated, and the team's capabilities following the subscription.
 */
import { describe, expect, it } from 'vitest';
import type { SubscriptionView } from '#shared/billing.ts';
import { TestClient } from '../support/client.ts';
import { signedEvent, useOnlineBillingStack } from '../support/stripe.ts';
import {
  customer,
  IDS,
  invoice,
  invoicePayment,
  list,
  nowSeconds,
  PRICES,
  subscription,
  subscriptionItem,
  taxId,
} from '../fixtures/stripe/objects.ts';
import {
  customerUpdatedEvent,
  invoiceEvent,
  paymentActionRequiredEvent,
  subscriptionEvent,
  taxIdUpdatedEvent,
} from '../fixtures/stripe/events.ts';

const { stack, stripe } = useOnlineBillingStack();

/** Delivers a payload the way Stripe does: raw JSON with its signature header. */
async function deliver(payload: string, signature?: string) {
  const res = await fetch(`${stack().url}/stripe/webhook`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(signature ? { 'stripe-signature': signature } : {}),
    },
    body: payload,
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const send = (event: unknown) => {
  const { payload, signature } = signedEvent(event);
  return deliver(payload, signature);
};

let counter = 0;

/** A new team on the free plan, its owner signed in. */
async function newTeam() {
  const c = new TestClient(stack().url);
  const email = `webhook-owner-${++counter}@example.org`;
  const password = 'lantern-orchard-41';
  const res = await c.request('POST', '/register', {
    name: 'Wendy Hook',
    email,
    team: `Webhook Team ${counter}`,
    password,
    password_confirmation: password,
    terms: true,
    plan: 'free',
  });
  expect(res.status).toBe(201);
  const teamId = (await c.request('GET', '/user/current')).json.current_team_id as string;
  const sub = (
    overrides: Parameters<typeof subscription>[0] = {},
    item = subscriptionItem(PRICES.proMonthly),
  ) =>
    subscription(
      {
        id: `sub_Hook${counter}`,
        customer: `cus_Hook${counter}`,
        metadata: { team_id: teamId },
        ...overrides,
      },
      item,
    );
  const view = async () =>
    (await c.request('GET', '/settings/subscription')).json as unknown as SubscriptionView;
  return { c, email, teamId, sub, view };
}

describe('POST /stripe/webhook', () => {
  it('refuses a bad or missing signature with 400 and changes nothing', async () => {
    const { teamId, sub, view } = await newTeam();
    const event = subscriptionEvent('customer.subscription.updated', sub());
    const { payload } = signedEvent(event);
    const forged = signedEvent(event, 'whsec_someone_else').signature;
    expect((await deliver(payload, forged)).status).toBe(400);
    expect((await deliver(payload)).status).toBe(400);
    // A body changed after signing fails too (the signature is over the raw bytes).
    const { signature } = signedEvent(event);
    expect((await deliver(payload.replace(teamId, 'team-demo'), signature)).status).toBe(400);
    expect((await view()).plan).toBe('free');
  });

  it('applies `updated` before `created` in the right order: the newer state wins', async () => {
    const { sub, view, c } = await newTeam();
    const t = nowSeconds();
    const updated = subscriptionEvent(
      'customer.subscription.updated',
      sub({ status: 'active' }),
      t,
    );
    const created = subscriptionEvent(
      'customer.subscription.created',
      sub({ status: 'incomplete' }),
      t - 5,
    );
    expect((await send(updated)).status).toBe(200);
    expect((await send(created)).status).toBe(200);
    expect(await view()).toMatchObject({
      plan: 'pro-monthly',
      status: 'active',
      active: true,
      capabilities: { can_export_pdf: true, can_upload_custom_fonts: true },
    });
    // An older `updated` arriving late does not roll the state back either.
    const stale = subscriptionEvent(
      'customer.subscription.updated',
      sub({ status: 'past_due' }),
      t - 2,
    );
    await send(stale);
    expect((await view()).status).toBe('active');
    const team = await c.request('GET', '/settings/companies/current');
    expect(team.json).toMatchObject({ current_billing_plan: 'pro-monthly', can_export_pdf: true });
  });

  it('drops Pro capabilities when the subscription is unpaid or deleted', async () => {
    const { sub, view, c } = await newTeam();
    const t = nowSeconds();
    await send(subscriptionEvent('customer.subscription.created', sub(), t - 10));
    expect((await view()).capabilities.can_export_pdf).toBe(true);

    await send(
      subscriptionEvent('customer.subscription.updated', sub({ status: 'unpaid' }), t - 5),
    );
    expect(await view()).toMatchObject({
      plan: 'free',
      status: 'unpaid',
      active: false,
      needs_subscription: true,
      capabilities: { can_export_pdf: false, can_upload_custom_fonts: false },
    });

    await send(
      subscriptionEvent('customer.subscription.updated', sub({ status: 'active' }), t - 3),
    );
    expect((await view()).plan).toBe('pro-monthly');

    await send(
      subscriptionEvent(
        'customer.subscription.deleted',
        sub({ status: 'canceled', canceled_at: t, ended_at: t }),
        t,
      ),
    );
    expect(await view()).toMatchObject({ plan: 'free', status: 'canceled', active: false });
    const team = await c.request('GET', '/settings/companies/current');
    expect(team.json).toMatchObject({ current_billing_plan: 'free', can_export_pdf: false });
  });

  it('processes a duplicate delivery once and e-mails the payment confirmation link', async () => {
    const { readOutbox } = await import('#lib/mailer.ts');
    const { email, teamId } = await newTeam();
    const event = paymentActionRequiredEvent(
      invoice({
        customer: `cus_Hook${counter}`,
        status: 'open',
        amount_due: 2900,
        parent: {
          quote_details: null,
          subscription_details: { metadata: { team_id: teamId }, subscription: IDS.subscription },
          type: 'subscription_details',
        },
        payments: list([invoicePayment('pi_Webhook3DS')], '/v1/invoice_payments'),
      }),
    );
    const first = await send(event);
    expect(first).toMatchObject({ status: 200, json: { received: true, handled: true } });
    const again = await send(event);
    expect(again).toMatchObject({ status: 200, json: { duplicate: true } });
    // Registration also mailed an address confirmation: count the payment mails only.
    const mails = (await readOutbox()).filter(
      (m) => m.to === email && m.subject === 'Confirm your payment',
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(
      `${stack().url}/stripe/payment/pi_Webhook3DS?redirect=${encodeURIComponent(
        `/settings/companies/${teamId}#/subscription`,
      )}`,
    );
    expect(mails[0]!.text).toContain('29.00 USD');
  });

  it('on invoice.payment_failed re-reads the subscription from Stripe (past_due drops Pro)', async () => {
    const { sub, view, teamId } = await newTeam();
    await send(subscriptionEvent('customer.subscription.created', sub(), nowSeconds() - 10));
    const id = sub().id;
    stripe.on('GET', `/v1/subscriptions/${id}`, sub({ status: 'past_due' }));
    const failed = invoiceEvent(
      'invoice.payment_failed',
      invoice({
        status: 'open',
        parent: {
          quote_details: null,
          subscription_details: { metadata: { team_id: teamId }, subscription: id },
          type: 'subscription_details',
        },
      }),
    );
    expect((await send(failed)).status).toBe(200);
    expect(stripe.sent('GET', `/v1/subscriptions/${id}`)).toHaveLength(1);
    expect(await view()).toMatchObject({
      status: 'past_due',
      plan: 'free',
      capabilities: { can_export_pdf: false },
    });
  });

  it('keeps the billing address and VAT id in step with customer and tax id events', async () => {
    const { view, teamId } = await newTeam();
    const cus = customer({
      id: `cus_Hook${counter}`,
      metadata: { team_id: teamId },
      address: {
        line1: '5 Rue de Rivoli',
        line2: null,
        city: 'Paris',
        state: null,
        postal_code: '75001',
        country: 'FR',
      },
    });
    expect((await send(customerUpdatedEvent(cus))).status).toBe(200);
    expect((await view()).billing_address).toMatchObject({ city: 'Paris', country: 'FR' });
    // The tax id event names only the customer: the customer event mapped it to the team.
    const tax = { ...taxId('FR12345678901'), customer: cus.id };
    expect((await send(taxIdUpdatedEvent(tax))).status).toBe(200);
    expect((await view()).vat_id).toBe('FR12345678901');
  });

  it('acknowledges event types it does not act on', async () => {
    const res = await send({
      ...subscriptionEvent('customer.subscription.updated'),
      type: 'charge.succeeded',
    });
    expect(res).toMatchObject({ status: 200, json: { handled: false } });
  });
});
