/**
 * Seats follow the members (docs/billing.md "Flows") and a
 * failed paid registration gives its invitation back (docs/billing.md): the real `stripe` SDK
 * talks to the recording HttpClient (test/support/stripe.ts), which asserts what it sent.
 * Each test makes its own team (registered on the free plan) and puts it on a subscription as
 * the webhook would have stored it.
 */
import { describe, expect, it } from 'vitest';
import type Stripe from 'stripe';
import type { SubscriptionView } from '#shared/billing.ts';
import { db } from '#lib/db/index.ts';
import { TestClient } from '../support/client.ts';
import { signedEvent, useOnlineBillingStack } from '../support/stripe.ts';
import { subscriptionEvent } from '../fixtures/stripe/events.ts';
import {
  cardDeclined,
  customer,
  IDS,
  nowSeconds,
  PRICES,
  subscription,
  subscriptionItem,
} from '../fixtures/stripe/objects.ts';

const { stripe, stack } = useOnlineBillingStack();

const PASSWORD = 'lantern-orchard-93';
let counter = 0;

/** The body of `POST /register` for a new address on the free plan. */
const registration = (email: string, extra: Record<string, unknown> = {}) => ({
  name: 'Sam Seat',
  email,
  team: `Seat Team ${++counter}`,
  password: PASSWORD,
  password_confirmation: PASSWORD,
  terms: true,
  plan: 'free',
  ...extra,
});

/** Registers a new address (free plan) and returns its signed-in client and ids. */
async function registered(prefix: string) {
  const c = new TestClient(stack().url);
  const email = `${prefix}-${++counter}@example.org`;
  const res = await c.request('POST', '/register', registration(email));
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  const me = await c.request('GET', '/user/current');
  return { c, email, userId: me.json.id as string, teamId: me.json.current_team_id as string };
}

/** The Stripe subscription of a team on `price` with `seats`. */
const subOf = (teamId: string, price: Stripe.Price, seats: number) =>
  subscription(
    { customer: `cus_${teamId}`, metadata: { team_id: teamId } },
    subscriptionItem(price, seats),
  );

/** A new owner whose team is subscribed to `plan` (stored as a webhook would have stored it). */
async function subscribedOwner(
  plan: 'starter-monthly' | 'pro-monthly',
  status: 'active' | 'incomplete' = 'active',
) {
  const owner = await registered('seat-owner');
  const price = plan === 'starter-monthly' ? PRICES.starterMonthly : PRICES.proMonthly;
  await db()
    .Subscription.put({
      teamId: owner.teamId,
      name: 'default',
      stripeId: IDS.subscription,
      stripeCustomerId: `cus_${owner.teamId}`,
      stripeStatus: status,
      stripePriceId: price.id,
      planId: plan,
      quantity: 1,
      eventAt: nowSeconds() - 3600,
    })
    .go();
  await db().Team.patch({ teamId: owner.teamId }).set({ planId: plan }).go();
  return owner;
}

/** The code of the newest invitation link e-mailed to an address (the local outbox). */
async function invitationCode(email: string): Promise<string> {
  type Mail = { to: string; text: string };
  const outbox = (await (await fetch(`${stack().url}/__outbox.json`)).json()) as Mail[];
  // Newest first; the invitee's own mail (the address confirmation) has no invitation link.
  const links = outbox
    .filter((m) => m.to === email && /\/register\?invitation=/.test(m.text))
    .map((m) => new URL(/https?:\/\/\S+\/register\?\S+/.exec(m.text)![0]));
  return links[0]!.searchParams.get('invitation')!;
}

async function invite(owner: { c: TestClient; teamId: string }, email: string) {
  const res = await owner.c.request('POST', `/settings/companies/${owner.teamId}/invitations`, {
    email,
  });
  expect(res.status, JSON.stringify(res.json)).toBeLessThan(300);
}

/** Queues the seat update of a per-user subscription from `from` to `to` seats. */
function queueSeats(teamId: string, from: number, to: number) {
  stripe
    .on('GET', `/v1/subscriptions/${IDS.subscription}`, subOf(teamId, PRICES.starterMonthly, from))
    .on('POST', `/v1/subscriptions/${IDS.subscription}`, subOf(teamId, PRICES.starterMonthly, to));
}

/** The one seat update the SDK sent; checks its shape and returns it. */
function sentSeatUpdate(seats: number) {
  const update = stripe.only('POST', `/v1/subscriptions/${IDS.subscription}`);
  expect(update.form.get('items[0][id]')).toBe(IDS.item);
  expect(update.form.get('items[0][quantity]')).toBe(String(seats));
  expect(update.form.has('items[0][price]')).toBe(false);
  expect(update.form.get('proration_behavior')).toBe('always_invoice');
  expect(update.idempotencyKey).toMatch(/^picsnippets-seats-/);
  return update;
}

async function quantityOf(c: TestClient): Promise<number | null> {
  const res = await c.request('GET', '/settings/subscription');
  expect(res.status).toBe(200);
  return (res.json as unknown as SubscriptionView).quantity;
}

/** The invitee accepts their invitation with the code of the e-mailed link. */
async function accept(invitee: { c: TestClient; email: string }) {
  const code = await invitationCode(invitee.email);
  const { id } = (await invitee.c.request('GET', `/invitations/${code}`)).json as { id: string };
  const res = await invitee.c.request('POST', `/settings/invitations/${id}/accept`, { code });
  expect(res.status, JSON.stringify(res.json)).toBeLessThan(300);
}

describe('seats follow the members on a per-user plan', () => {
  it('an accepted invitation adds a seat, removing the member takes it away again', async () => {
    const owner = await subscribedOwner('starter-monthly');
    const invitee = await registered('seat-invitee');
    await invite(owner, invitee.email);

    queueSeats(owner.teamId, 1, 2);
    await accept(invitee);
    const added = sentSeatUpdate(2);
    expect(await quantityOf(owner.c)).toBe(2);
    stripe.reset();

    queueSeats(owner.teamId, 2, 1);
    const removed = await owner.c.request(
      'DELETE',
      `/settings/companies/${owner.teamId}/members/${invitee.userId}`,
    );
    expect(removed.status, JSON.stringify(removed.json)).toBeLessThan(300);
    expect(sentSeatUpdate(1).idempotencyKey).not.toBe(added.idempotencyKey);
    expect(await quantityOf(owner.c)).toBe(1);
  });

  it('registering through an invitation adds a seat', async () => {
    const owner = await subscribedOwner('starter-monthly');
    const email = `seat-newcomer-${++counter}@example.org`;
    await invite(owner, email);
    queueSeats(owner.teamId, 1, 2);
    const c = new TestClient(stack().url);
    const res = await c.request(
      'POST',
      '/register',
      registration(email, { invitation: await invitationCode(email) }),
    );
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    sentSeatUpdate(2);
    expect((await c.request('GET', '/user/current')).json.current_team_id).toBe(owner.teamId);
  });

  it('a per-team plan sends nothing to Stripe when members come and go', async () => {
    const owner = await subscribedOwner('pro-monthly');
    const invitee = await registered('seat-pro');
    await invite(owner, invitee.email);
    await accept(invitee);
    const removed = await owner.c.request(
      'DELETE',
      `/settings/companies/${owner.teamId}/members/${invitee.userId}`,
    );
    expect(removed.status).toBeLessThan(300);
    expect(stripe.requests).toEqual([]);
  });

  it('an incomplete subscription (first payment pending) is left to its activation webhook', async () => {
    const owner = await subscribedOwner('starter-monthly', 'incomplete');
    const invitee = await registered('seat-incomplete');
    await invite(owner, invitee.email);
    await accept(invitee);
    expect(stripe.requests).toEqual([]);
  });

  it('a refused seat update leaves the membership standing; the next webhook sets the seats', async () => {
    const owner = await subscribedOwner('starter-monthly');
    const invitee = await registered('seat-refused');
    await invite(owner, invitee.email);
    stripe
      .on(
        'GET',
        `/v1/subscriptions/${IDS.subscription}`,
        subOf(owner.teamId, PRICES.starterMonthly, 1),
      )
      .fail('POST', `/v1/subscriptions/${IDS.subscription}`, 400, {
        type: 'invalid_request_error',
        message: 'This subscription cannot be updated right now.',
      });
    await accept(invitee);
    const team = await owner.c.request('GET', `/settings/companies/json/${owner.teamId}`);
    expect((team.json.users as Array<{ email: string }>).map((u) => u.email)).toContain(
      invitee.email,
    );
    stripe.reset();

    // Stripe's next snapshot still says one seat: the webhook sets the team's two.
    queueSeats(owner.teamId, 1, 2);
    const { payload, signature } = signedEvent(
      subscriptionEvent(
        'customer.subscription.updated',
        subOf(owner.teamId, PRICES.starterMonthly, 1),
      ),
    );
    const res = await fetch(`${stack().url}/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: payload,
    });
    expect(res.status).toBe(200);
    sentSeatUpdate(2);
    expect(await quantityOf(owner.c)).toBe(2);
  });
});

describe('a failed paid registration through an invitation (docs/billing.md)', () => {
  it('removes the account, puts the invitation back to pending and the seat back; the link works again', async () => {
    const owner = await subscribedOwner('starter-monthly');
    const email = `seat-declined-${++counter}@example.org`;
    await invite(owner, email);
    const code = await invitationCode(email);

    queueSeats(owner.teamId, 1, 2); // joining the team
    stripe
      .on('POST', '/v1/customers', customer({ id: 'cus_SeatDeclined' }))
      .fail('GET', `/v1/payment_methods/${IDS.paymentMethod}`, 402, cardDeclined);
    queueSeats(owner.teamId, 2, 1); // the rollback
    const c = new TestClient(stack().url);
    const res = await c.request(
      'POST',
      '/register',
      registration(email, {
        plan: 'pro-monthly',
        invitation: code,
        stripe_payment_method: IDS.paymentMethod,
        country: 'US',
        zip: '62701',
      }),
    );
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual({
      stripe_payment_method: ['Your card has insufficient funds.'],
    });
    const [join, leave] = stripe.sent('POST', `/v1/subscriptions/${IDS.subscription}`);
    expect(join!.form.get('items[0][quantity]')).toBe('2');
    expect(leave!.form.get('items[0][quantity]')).toBe('1');
    expect(await quantityOf(owner.c)).toBe(1);

    // The link is valid again, and the owner sees the invitation pending, not the member.
    const lookup = await new TestClient(stack().url).request('GET', `/invitations/${code}`);
    expect(lookup.status).toBe(200);
    expect(lookup.json).toMatchObject({ email });
    const team = await owner.c.request('GET', `/settings/companies/json/${owner.teamId}`);
    expect((team.json.users as Array<{ email: string }>).map((u) => u.email)).not.toContain(email);
    stripe.reset();

    // The same link, on the free plan this time, joins the team.
    queueSeats(owner.teamId, 1, 2);
    const again = await c.request('POST', '/register', registration(email, { invitation: code }));
    expect(again.status, JSON.stringify(again.json)).toBe(201);
    sentSeatUpdate(2);
    expect((await c.request('GET', '/user/current')).json.current_team_id).toBe(owner.teamId);
  });
});

describe('a deleted team stops being billed (spec 001 §6 delete a team)', () => {
  const teamJson = (c: TestClient, teamId: string) =>
    c.request('GET', `/settings/companies/json/${teamId}`);

  it('cancels the live subscription at once, then deletes the team; the late webhook changes nothing', async () => {
    const owner = await subscribedOwner('pro-monthly');
    const cancelled = subscription(
      {
        customer: `cus_${owner.teamId}`,
        metadata: { team_id: owner.teamId },
        status: 'canceled',
        canceled_at: nowSeconds(),
        ended_at: nowSeconds(),
      },
      subscriptionItem(PRICES.proMonthly, 1),
    );
    stripe.on('DELETE', `/v1/subscriptions/${IDS.subscription}`, cancelled);

    const res = await owner.c.request('DELETE', `/settings/companies/${owner.teamId}`);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const sent = stripe.only('DELETE', `/v1/subscriptions/${IDS.subscription}`);
    // The SDK sends a DELETE's parameters in the query string.
    expect(sent.query.get('cancellation_details[comment]')).toBe('The team was deleted.');
    expect(sent.query.get('prorate')).toBe('false');
    expect(sent.idempotencyKey).toMatch(/^picsnippets-team-deleted-/);
    expect((await teamJson(owner.c, owner.teamId)).status).toBe(404);
    const stored = (await db().Subscription.get({ teamId: owner.teamId, name: 'default' }).go())
      .data;
    expect(stored?.stripeStatus).toBe('canceled');

    // Stripe's deleted event arrives after the team is gone: acknowledged, nothing recreated.
    const { payload, signature } = signedEvent(
      subscriptionEvent('customer.subscription.deleted', cancelled),
    );
    const hook = await fetch(`${stack().url}/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: payload,
    });
    expect(hook.status).toBe(200);
    expect((await db().Team.get({ teamId: owner.teamId }).go()).data).toBeNull();
  });

  it('keeps the team and its members when Stripe refuses the cancellation', async () => {
    const owner = await subscribedOwner('pro-monthly');
    stripe.fail('DELETE', `/v1/subscriptions/${IDS.subscription}`, 400, {
      type: 'invalid_request_error',
      message: 'This subscription cannot be cancelled right now.',
    });
    const res = await owner.c.request('DELETE', `/settings/companies/${owner.teamId}`);
    expect(res.status).toBe(502);
    expect(res.json.message).toBe(
      'We were unable to update your subscription. Please contact customer support.',
    );
    const team = await teamJson(owner.c, owner.teamId);
    expect(team.status).toBe(200);
    expect((team.json.users as Array<{ email: string }>).map((u) => u.email)).toContain(
      owner.email,
    );
    const stored = (await db().Subscription.get({ teamId: owner.teamId, name: 'default' }).go())
      .data;
    expect(stored?.stripeStatus).toBe('active');
  });

  it('a team without a subscription is deleted without a call to Stripe', async () => {
    const owner = await registered('seat-free-delete');
    const res = await owner.c.request('DELETE', `/settings/companies/${owner.teamId}`);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(stripe.requests).toEqual([]);
  });
});
