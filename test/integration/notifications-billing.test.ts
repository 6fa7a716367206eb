/**
 * The billing causes of notifications (docs/notifications.md "What notifies"), delivered as
 * signed Stripe webhook events (the recording Stripe client answers the re-reads): the team
 * owner hears of a subscription change, a failed renewal, a payment needing confirmation and a
 * trial ending soon; a repeated snapshot or a first payment refused at the form says nothing.
 */
import { describe, expect, it } from 'vitest';
import type { RecentNotifications } from '#shared/contract/notifications.ts';
import { TestClient } from '../support/client.ts';
import { deliverEvent, useOnlineBillingStack } from '../support/stripe.ts';
import {
  IDS,
  invoice,
  invoicePayment,
  list,
  nowSeconds,
  subscription,
} from '../fixtures/stripe/objects.ts';
import {
  invoiceEvent,
  paymentActionRequiredEvent,
  subscriptionEvent,
} from '../fixtures/stripe/events.ts';

const { stack, stripe } = useOnlineBillingStack();

let counter = 0;

/** A new team on the free plan, its owner signed in, and Stripe objects that belong to it. */
async function newTeam() {
  const c = new TestClient(stack().url);
  const password = 'lantern-orchard-41';
  const res = await c.request('POST', '/register', {
    name: 'Nina Notified',
    email: `billing-notified-${++counter}@example.org`,
    team: `Ledger Team ${counter}`,
    password,
    password_confirmation: password,
    terms: true,
    plan: 'free',
  });
  expect(res.status).toBe(201);
  const teamId = (await c.request('GET', '/user/current')).json.current_team_id as string;
  const sub = (overrides: Parameters<typeof subscription>[0] = {}) =>
    subscription({
      id: `sub_Notified${counter}`,
      customer: `cus_Notified${counter}`,
      metadata: { team_id: teamId },
      ...overrides,
    });
  const parent = {
    quote_details: null,
    subscription_details: { metadata: { team_id: teamId }, subscription: sub().id },
    type: 'subscription_details' as const,
  };
  const notifications = async () =>
    ((await c.request('GET', '/notifications/recent')).json as unknown as RecentNotifications)
      .notifications;
  return { c, teamId, sub, parent, notifications, name: `Ledger Team ${counter}` };
}

const send = async (event: unknown) =>
  expect((await deliverEvent(stack().url, event)).status).toBe(200);

describe('billing notifications', () => {
  it('a subscription change tells the owner once: the new plan, a cancellation, the end', async () => {
    const { sub, notifications, name, teamId } = await newTeam();
    const t = nowSeconds();
    await send(subscriptionEvent('customer.subscription.created', sub(), t - 30));
    // The same snapshot again (Stripe's retry, or the webhook after the API call) says nothing.
    await send(subscriptionEvent('customer.subscription.updated', sub(), t - 20));
    let list = await notifications();
    expect(list).toEqual([
      expect.objectContaining({
        kind: 'subscription-changed',
        body: `${name} is now on the Pro plan.`,
        action_url: `/settings/companies/${teamId}#/subscription`,
      }),
    ]);

    const end = t + 30 * 86_400;
    await send(
      subscriptionEvent(
        'customer.subscription.updated',
        sub({ cancel_at: end, cancel_at_period_end: false }),
        t - 10,
      ),
    );
    list = await notifications();
    expect(list[0]!.body).toMatch(
      new RegExp(
        `^The subscription of ${name} was cancelled and will end on \\w+ \\d+\\w\\w, \\d{4}\\.$`,
      ),
    );
    await send(
      subscriptionEvent(
        'customer.subscription.deleted',
        sub({ status: 'canceled', ended_at: t, canceled_at: t }),
        t,
      ),
    );
    list = await notifications();
    expect(list[0]!.body).toBe(`The subscription of ${name} has ended.`);
    expect(list).toHaveLength(3);
  });

  it('a failed renewal payment tells the owner; a refused first payment does not', async () => {
    const { sub, parent, notifications, name, teamId } = await newTeam();
    await send(subscriptionEvent('customer.subscription.created', sub(), nowSeconds() - 10));
    const before = (await notifications()).length;
    stripe.on('GET', `/v1/subscriptions/${sub().id}`, sub({ status: 'past_due' }));
    await send(
      invoiceEvent(
        'invoice.payment_failed',
        invoice({ status: 'open', billing_reason: 'subscription_create', parent }),
      ),
    );
    expect((await notifications()).filter((n) => n.kind === 'payment-failed')).toEqual([]);

    stripe.on('GET', `/v1/subscriptions/${sub().id}`, sub({ status: 'past_due' }));
    await send(
      invoiceEvent(
        'invoice.payment_failed',
        invoice({ status: 'open', billing_reason: 'subscription_cycle', parent }),
      ),
    );
    const list = await notifications();
    expect(list[0]).toMatchObject({
      kind: 'payment-failed',
      body: `A payment for ${name} failed. Please check the card on file.`,
      action_text: 'Update card',
      action_url: `/settings/companies/${teamId}#/payment-method`,
    });
    expect(list.length).toBeGreaterThan(before);
  });

  it('a payment needing confirmation links the owner to the payment page', async () => {
    const { parent, notifications, name, teamId } = await newTeam();
    await send(
      paymentActionRequiredEvent(
        invoice({
          customer: IDS.customer,
          status: 'open',
          amount_due: 2900,
          parent,
          payments: list([invoicePayment('pi_Notified3DS')], '/v1/invoice_payments'),
        }),
      ),
    );
    expect((await notifications())[0]).toMatchObject({
      kind: 'payment-action-required',
      body: `Your bank asks you to confirm a payment for ${name}.`,
      action_text: 'Confirm payment',
      action_url: `/stripe/payment/pi_Notified3DS?redirect=${encodeURIComponent(
        `/settings/companies/${teamId}#/subscription`,
      )}`,
    });
  });

  it('a trial ending soon tells the owner its date', async () => {
    const { sub, notifications, name } = await newTeam();
    const trialEnd = Date.UTC(2031, 2, 3, 12) / 1000;
    const trialing = sub({ status: 'trialing', trial_end: trialEnd });
    await send({
      ...subscriptionEvent('customer.subscription.updated', trialing),
      type: 'customer.subscription.trial_will_end',
    });
    expect((await notifications()).map((n) => n.body)).toContain(
      `The trial of ${name} ends on March 3rd, 2031.`,
    );
  });
});
