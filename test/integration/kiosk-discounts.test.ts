/**
 * An admin's discount applied through Stripe (docs/kiosk.md Discount, docs/kiosk.md `POST
 * /spark/kiosk/users/discount/{id}`, docs/accounts.md "Constants": "Default discount: type amount,
 * duration once"; docs/kiosk.md): a coupon made for it and the subscription of the team the user
 * owns updated to carry it, then shown on the kiosk profile. Stripe is the recording fake
 * (test/support/stripe.ts); a user of this file's own owns a team that gets a subscription record
 * as a webhook would leave it (the seeded demo team stays without one for the files after this).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { KIOSK_USER_MESSAGES } from '#shared/contract/kiosk-users.ts';
import { TestClient } from '../support/client.ts';
import { currentTeamId, ownTeam, setTeamPlan, uniqueEmail } from '../support/designs.ts';
import { useOnlineBillingStack } from '../support/stripe.ts';
import { coupon, discount, IDS, nowSeconds, subscription } from '../fixtures/stripe/objects.ts';

const { stripe, stack } = useOnlineBillingStack();

let admin: TestClient;
/** The user the discounts are for, and the team they own (registered on the free plan). */
let userId = '';
let teamId = '';

beforeAll(async () => {
  admin = new TestClient(stack().url);
  expect((await admin.login('admin@example.com')).status).toBe(200);
  const user = await ownTeam(stack().url, uniqueEmail('kiosk-discount'));
  userId = (await user.request('GET', '/user/current')).json.id as string;
  teamId = await currentTeamId(user);
});

/** The subscription's metadata naming this file's team (the fixture's names the demo team). */
const ofTeam = () => ({ team_id: teamId, plan: 'pro-monthly' });

describe('kiosk discounts with billing online', () => {
  it('refuses a user without a subscription (409)', async () => {
    const res = await admin.request('POST', `/spark/kiosk/users/discount/${userId}`, { value: 5 });
    expect(res.status).toBe(409);
    expect(res.json.message).toBe(KIOSK_USER_MESSAGES.noSubscription);
  });

  it('applies the default (an amount, once) to the owner’s subscription and shows it', async () => {
    const { db } = await import('#lib/db/index.ts');
    await db()
      .Subscription.put({
        teamId,
        stripeId: IDS.subscription,
        stripeCustomerId: IDS.customer,
        stripeStatus: 'active',
        stripePriceId: 'price_pro_monthly',
        planId: 'pro-monthly',
        eventAt: nowSeconds() - 3600,
      })
      .go();
    await setTeamPlan(teamId, 'pro-monthly');
    const made = coupon({
      id: 'kiosk_15_once',
      name: 'Kiosk discount',
      amount_off: 1550,
      currency: 'usd',
      percent_off: null,
      duration: 'once',
      duration_in_months: null,
    });
    stripe.on('POST', '/v1/coupons', made);
    stripe.on(
      'POST',
      `/v1/subscriptions/${IDS.subscription}`,
      subscription({ discounts: [{ ...discount(made), end: null }], metadata: ofTeam() }),
    );

    const res = await admin.request('POST', `/spark/kiosk/users/discount/${userId}`, {
      value: '15.50',
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({
      team_id: teamId,
      discount: { coupon_id: 'kiosk_15_once', amount_off: 1550, duration: 'once' },
    });
    const sent = stripe.only('POST', '/v1/coupons').form;
    expect(Object.fromEntries(sent)).toMatchObject({
      amount_off: '1550',
      currency: 'usd',
      duration: 'once',
    });
    expect(sent.has('percent_off')).toBe(false);
    expect(
      stripe.only('POST', `/v1/subscriptions/${IDS.subscription}`).form.get('discounts[0][coupon]'),
    ).toBe('kiosk_15_once');

    const profile = await admin.request('GET', `/spark/kiosk/users/${userId}/profile`);
    expect(profile.json).toMatchObject({
      billing_online: true,
      teams: [
        {
          id: teamId,
          subscription: {
            status: 'active',
            discount: { coupon_id: 'kiosk_15_once', amount_off: 1550 },
          },
        },
      ],
    });
  });

  it('sends a repeating percentage with its months', async () => {
    const made = coupon({ id: 'kiosk_pct', percent_off: 25, duration: 'repeating' });
    stripe.on('POST', '/v1/coupons', made);
    stripe.on(
      'POST',
      `/v1/subscriptions/${IDS.subscription}`,
      subscription({ discounts: [discount(made)], metadata: ofTeam() }),
    );
    const res = await admin.request('POST', `/spark/kiosk/users/discount/${userId}`, {
      type: 'percent',
      value: 25,
      duration: 'repeating',
      months: 3,
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(Object.fromEntries(stripe.only('POST', '/v1/coupons').form)).toMatchObject({
      percent_off: '25',
      duration: 'repeating',
      duration_in_months: '3',
    });
  });
});
