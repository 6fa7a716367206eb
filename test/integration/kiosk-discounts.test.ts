/**
 * An admin's discount applied through Stripe (docs/kiosk.md Discount, docs/kiosk.md `POST
 * /spark/kiosk/users/discount/{id}`, docs/accounts.md "Constants": "Default discount: type amount, duration once";
 * docs/kiosk.md): a coupon made for it and the subscription of the team the user owns updated
 * to carry it, then shown on the kiosk profile. Stripe is the recording fake
 * (test/support/stripe.ts); the demo team gets a subscription record as a webhook would leave it.
 *
 * @own-stack: gives the seeded demo owner a subscription and reads the owner's whole billing profile, which other files' billing changes show in.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { KIOSK_USER_MESSAGES } from '#shared/contract/kiosk-users.ts';
import { TestClient } from '../support/client.ts';
import { restoreTeamAfterFile } from '../support/seeded.ts';
import { useOnlineBillingStack } from '../support/stripe.ts';
import { coupon, discount, IDS, nowSeconds, subscription } from '../fixtures/stripe/objects.ts';

const { stripe, stack } = useOnlineBillingStack();

let admin: TestClient;

beforeAll(async () => {
  admin = new TestClient(stack().url);
  await admin.login('admin@example.com');
});

// The demo team leaves as it came: without the subscription given to it here.
restoreTeamAfterFile('team-demo');

describe('kiosk discounts with billing online', () => {
  it('refuses a user without a subscription (409)', async () => {
    const res = await admin.request('POST', '/spark/kiosk/users/discount/user-demo', { value: 5 });
    expect(res.status).toBe(409);
    expect(res.json.message).toBe(KIOSK_USER_MESSAGES.noSubscription);
  });

  it('applies the default (an amount, once) to the owner’s subscription and shows it', async () => {
    const { db } = await import('#lib/db/index.ts');
    await db()
      .Subscription.put({
        teamId: 'team-demo',
        stripeId: IDS.subscription,
        stripeCustomerId: IDS.customer,
        stripeStatus: 'active',
        stripePriceId: 'price_pro_monthly',
        planId: 'pro-monthly',
        eventAt: nowSeconds() - 3600,
      })
      .go();
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
      subscription({ discounts: [{ ...discount(made), end: null }] }),
    );

    const res = await admin.request('POST', '/spark/kiosk/users/discount/user-demo', {
      value: '15.50',
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({
      team_id: 'team-demo',
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

    const profile = await admin.request('GET', '/spark/kiosk/users/user-demo/profile');
    expect(profile.json).toMatchObject({
      billing_online: true,
      teams: [
        {
          id: 'team-demo',
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
      subscription({ discounts: [discount(made)] }),
    );
    const res = await admin.request('POST', '/spark/kiosk/users/discount/user-demo', {
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
