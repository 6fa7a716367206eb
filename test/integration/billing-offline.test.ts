/**
 * Offline billing (docs/billing.md; docs/billing.md "Offline mode"): no Stripe keys. The free plan
 * works, paid plans say billing is not configured ('Invalid Stripe Key/Secret' where a key is
 * needed, docs/accounts.md "Error answers in the SPA"), the seeded demo team keeps Pro as data, and
 * no billing call crashes.
 */
import { describe, expect, it } from 'vitest';
import { BILLING_MESSAGES, PARTNER_COUPON_LOOKUP, type SubscriptionView } from '#shared/billing.ts';
import { TestClient } from '../support/client.ts';
import { ownTeam, uniqueEmail } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

for (const key of [
  'STRIPE_SECRET_KEY',
  'STRIPE_PUBLISHABLE_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_PRICES',
])
  delete process.env[key];

const stack = useLocalStack({ warmChromium: false });

async function signedIn(email: string) {
  const c = new TestClient(stack().url);
  expect((await c.login(email)).status).toBe(200);
  return c;
}

/**
 * The owner of a free team of this file's own: the seeded admin's free team may carry other
 * files' billing (docs/testing.md "One stack per worker").
 */
const freeOwner = () => ownTeam(stack().url, uniqueEmail('billing-offline'));

describe('billing offline', () => {
  it('lists paid plans as unavailable and the free plan as available', async () => {
    const res = await new TestClient(stack().url).request('GET', '/spark/plans');
    const plans = res.json as unknown as Array<{ id: string; price: number; available: boolean }>;
    expect(plans.filter((p) => p.available).map((p) => p.id)).toEqual(['free']);
    expect(plans.filter((p) => p.price > 0).length).toBeGreaterThanOrEqual(4);
  });

  it('answers the spec’s message where a Stripe key is needed', async () => {
    const c = await freeOwner();
    const invalid = { stripe_payment_method: [BILLING_MESSAGES.invalidStripeKey] };
    const key = await c.request('GET', '/stripe/key');
    expect(key.status).toBe(422);
    expect(key.json.errors).toEqual(invalid);
    const token = await c.request('GET', '/stripe/token');
    expect(token.status).toBe(422);
    expect(token.json.errors).toEqual(invalid);
    const subscribe = await c.request('POST', '/settings/subscription', {
      plan: 'pro-monthly',
      stripe_payment_method: 'pm_card_visa',
    });
    expect(subscribe.status).toBe(422);
    expect(subscribe.json.errors).toEqual({ plan: ['Invalid Stripe Key/Secret'] });
    const vat = await c.request('POST', '/tax-rate', { country: 'FR', plan: 'pro-monthly' });
    expect(vat.status).toBe(422);
    expect(vat.json.errors).toEqual({ country: ['Invalid Stripe Key/Secret'] });
  });

  it('keeps every read working: subscription view, invoices, coupons, tax outside the EU', async () => {
    const c = await freeOwner();
    const view = await c.request('GET', '/settings/subscription');
    expect(view.status).toBe(200);
    expect(view.json as unknown as SubscriptionView).toMatchObject({
      billing_online: false,
      plan: 'free',
      subscription_id: null,
      needs_subscription: true,
      card: null,
      capabilities: { can_export_pdf: false, teams: 1, teamMembers: 1, frozen: false },
    });
    expect((await c.request('GET', '/settings/invoices')).json).toEqual([]);
    expect((await c.request('GET', '/coupon/ANYTHING')).json).toMatchObject({ valid: false });
    // The partner campaign's coupon (docs/adr/0026-billing-in-the-spa.md "Billing in the SPA") is
    // not available offline either.
    expect((await c.request('GET', `/coupon/${PARTNER_COUPON_LOOKUP}`)).json).toMatchObject({
      valid: false,
      code: PARTNER_COUPON_LOOKUP,
    });
    expect((await c.request('POST', '/tax-rate', { country: 'US' })).json).toMatchObject({
      rate: 0,
    });
    const swap = await c.request('PUT', '/settings/subscription', { plan: 'pro-monthly' });
    expect(swap.status).toBe(422);
    expect(swap.json.errors).toEqual({ plan: [BILLING_MESSAGES.noSubscription] });
  });

  it('keeps the seeded demo team on Pro as data', async () => {
    const c = await signedIn('demo@example.com');
    const view = await c.request('GET', '/settings/companies/team-demo/subscription');
    expect(view.json).toMatchObject({
      plan: 'pro-monthly',
      subscription_id: null,
      capabilities: { can_export_pdf: true, can_upload_custom_fonts: true },
    });
  });

  it('registers on the free plan and refuses a paid plan on the plan field', async () => {
    const c = new TestClient(stack().url);
    const form = {
      name: 'Fran Free',
      email: uniqueEmail('fran'),
      team: 'Fran Studio',
      password: 'quiet-meadow-93',
      password_confirmation: 'quiet-meadow-93',
      terms: true,
    };
    const paid = await c.request('POST', '/register', { ...form, plan: 'pro-monthly' });
    expect(paid.status).toBe(422);
    expect(Object.keys(paid.json.errors as object)).toEqual(['plan']);
    expect((await c.request('POST', '/register', { ...form, plan: 'free' })).status).toBe(201);
  });

  it('refuses webhooks it cannot verify without an endpoint secret', async () => {
    const res = await fetch(`${stack().url}/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      body: '{}',
    });
    expect(res.status).toBe(503);
  });
});
