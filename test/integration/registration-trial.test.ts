/**
 * Trials at registration (docs/billing.md "Trials"): the Starter yearly plan offers 14 days
 * without a card. Registering on it makes the team's Stripe customer and a subscription with
 * `trial_period_days` and no payment method (the real SDK against the recording HttpClient,
 * test/support/stripe.ts); the Subscription tab's view says "on trial" until the trial's end.
 */
import { describe, expect, it } from 'vitest';
import type { SubscriptionView } from '#shared/billing.ts';
import { TestClient } from '../support/client.ts';
import { queueCustomerAndCard, useOnlineBillingStack } from '../support/stripe.ts';
import {
  IDS,
  customer,
  nowSeconds,
  price,
  subscription,
  subscriptionItem,
} from '../fixtures/stripe/objects.ts';

const { stripe, stack } = useOnlineBillingStack();

const DAY_S = 86_400;
const STARTER_YEARLY = price('price_starter_yearly', 9000, 'year');

const form = (email: string, extra: Record<string, unknown> = {}) => ({
  name: 'Tara Trial',
  email,
  team: 'Trial Studio',
  password: 'lantern-meadow-41',
  password_confirmation: 'lantern-meadow-41',
  terms: true,
  plan: 'starter-yearly',
  ...extra,
});

describe('registration on a plan with a trial (docs/billing.md "Trials")', () => {
  it('starts a 14-day trial without a card; the Subscription tab shows the team on trial', async () => {
    const c = new TestClient(stack().url);
    const customerId = 'cus_Trial01';
    const trialEnd = nowSeconds() + 14 * DAY_S;
    stripe.on('POST', '/v1/customers', customer({ id: customerId }));
    // The team id is made by registration: the answer's team comes from the customer mapping.
    stripe.on(
      'POST',
      '/v1/subscriptions',
      subscription(
        {
          id: 'sub_Trial01',
          customer: customerId,
          status: 'trialing',
          trial_start: nowSeconds(),
          trial_end: trialEnd,
          default_payment_method: null,
          latest_invoice: null,
          metadata: {},
        },
        subscriptionItem(STARTER_YEARLY),
      ),
    );
    const res = await c.request('POST', '/register', form('tara@example.org'));
    expect(res.status, JSON.stringify(res.json)).toBe(201);

    const sub = stripe.only('POST', '/v1/subscriptions');
    expect(sub.form.get('trial_period_days')).toBe('14');
    expect(sub.form.get('trial_settings[end_behavior][missing_payment_method]')).toBe('cancel');
    expect(sub.form.get('items[0][price]')).toBe('price_starter_yearly');
    expect(sub.form.get('default_payment_method')).toBeNull();
    expect(sub.form.get('metadata[team_id]')).toMatch(/^team-/);
    expect(stripe.sent('GET', /^\/v1\/payment_methods/)).toHaveLength(0);

    const view = (await c.request('GET', '/settings/subscription')).json as SubscriptionView;
    expect(view).toMatchObject({
      plan: 'starter-yearly',
      status: 'trialing',
      on_trial: true,
      trial_ends_at: new Date(trialEnd * 1000).toISOString(),
    });
    const me = await c.request('GET', '/user/current');
    expect(me.json.current_team_id).toBe(sub.form.get('metadata[team_id]'));
  });

  it('a card brought to the trial plan is kept for the end of the trial; nothing is paid now', async () => {
    const c = new TestClient(stack().url);
    const customerId = 'cus_TrialCard01';
    const trialEnd = nowSeconds() + 14 * DAY_S;
    queueCustomerAndCard(stripe, customerId);
    stripe.on(
      'POST',
      '/v1/subscriptions',
      subscription(
        {
          id: 'sub_TrialCard01',
          customer: customerId,
          status: 'trialing',
          trial_start: nowSeconds(),
          trial_end: trialEnd,
          latest_invoice: null,
          metadata: {},
        },
        subscriptionItem(STARTER_YEARLY),
      ),
    );
    const res = await c.request(
      'POST',
      '/register',
      form('tara-card@example.org', {
        stripe_payment_method: IDS.paymentMethod,
        country: 'US',
        zip: '10001',
      }),
    );
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    const sub = stripe.only('POST', '/v1/subscriptions');
    // Mutation check: without the trial days on a carded registration this failed (null).
    expect(sub.form.get('trial_period_days')).toBe('14');
    expect(sub.form.get('default_payment_method')).toBe(IDS.paymentMethod);
    expect(stripe.sent('GET', /^\/v1\/payment_intents/)).toHaveLength(0);
    const view = (await c.request('GET', '/settings/subscription')).json as SubscriptionView;
    expect(view).toMatchObject({ status: 'trialing', on_trial: true });
  });

  it('a plan without a trial still asks for the card', async () => {
    const c = new TestClient(stack().url);
    const res = await c.request(
      'POST',
      '/register',
      form('no-trial@example.org', { plan: 'pro-monthly', country: 'US' }),
    );
    expect(res.status).toBe(422);
    expect(Object.keys(res.json.errors as object)).toEqual(['stripe_payment_method']);
    expect(stripe.sent('POST', '/v1/subscriptions')).toHaveLength(0);
  });

  it('lists the trial on the plan', async () => {
    const plans = (await new TestClient(stack().url).request('GET', '/spark/plans')).json;
    const list = plans as unknown as { id: string; trial_days?: number; card_up_front?: boolean }[];
    expect(list.find((p) => p.id === 'starter-yearly')).toMatchObject({
      trial_days: 14,
      card_up_front: false,
    });
    expect(list.find((p) => p.id === 'pro-monthly')).toMatchObject({ card_up_front: true });
    expect(list.find((p) => p.id === 'pro-monthly')).not.toHaveProperty('trial_days');
  });
});
