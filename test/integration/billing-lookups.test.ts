/**
 * Billing lookups with Stripe online (docs/billing.md; docs/billing.md "Flows": "Registration and
 * lookups"): the plan list, the publishable key, the SetupIntent of `GET /stripe/token`, coupon
 * lookups (valid and invalid), the VAT preview of `POST /tax-rate` (EU with a VAT id, EU
 * without, GB, outside the list), the card and VAT id of the payment-method tab.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type Stripe from 'stripe';
import { PARTNER_COUPON_LOOKUP, type SubscriptionView } from '#shared/billing.ts';
import { TestClient } from '../support/client.ts';
import {
  currentTeamId,
  OWN_TEAM_PASSWORD,
  ownTeam,
  setTeamPlan,
  uniqueEmail,
} from '../support/designs.ts';
import { useOnlineBillingStack } from '../support/stripe.ts';
import {
  coupon,
  customer,
  IDS,
  invoice,
  list,
  paymentMethod,
  promotionCode,
  setupIntent,
  taxId,
} from '../fixtures/stripe/objects.ts';

const { stripe, stack } = useOnlineBillingStack();

const anonymous = () => new TestClient(stack().url);

/**
 * The owner of a team of this file's own, on Pro as data with no subscription (as the seed puts
 * the demo team): the Stripe customer, card and VAT id saved here stay on it, and the seeded
 * demo team serves the files after this one as seeded (docs/testing.md "One stack per worker").
 */
const OWNER = uniqueEmail('billing-lookups');
let teamId = '';

beforeAll(async () => {
  teamId = await currentTeamId(await ownTeam(stack().url, OWNER));
  await setTeamPlan(teamId, 'pro-monthly');
});

async function owner() {
  const c = new TestClient(stack().url);
  expect((await c.login(OWNER, OWN_TEAM_PASSWORD)).status).toBe(200);
  return c;
}

/** `POST /v1/invoices/create_preview` for one Pro month with the given VAT line. */
const preview = (tax: Stripe.Invoice.TotalTax | null) =>
  invoice({
    id: 'upcoming_in_preview',
    status: 'draft',
    total: 2900 + (tax?.amount ?? 0),
    total_excluding_tax: 2900,
    total_taxes: tax ? [tax] : [],
  });

const vatLine = (amount: number, reason: Stripe.Invoice.TotalTax.TaxabilityReason) =>
  ({
    amount,
    tax_behavior: 'exclusive',
    tax_rate_details: { tax_rate: 'txr_vat' },
    taxability_reason: reason,
    taxable_amount: 2900,
    type: 'tax_rate_details',
  }) satisfies Stripe.Invoice.TotalTax;

describe('plans and keys', () => {
  it('lists free, monthly and yearly plans, paid ones available with Stripe configured', async () => {
    const res = await anonymous().request('GET', '/spark/plans');
    expect(res.status).toBe(200);
    const plans = res.json as unknown as Array<{
      id: string;
      interval: string;
      type: string;
      available: boolean;
    }>;
    expect(plans.map((p) => p.id)).toEqual([
      'free',
      'starter-monthly',
      'pro-monthly',
      'starter-yearly',
      'pro-yearly',
    ]);
    expect(plans.every((p) => p.available)).toBe(true);
    expect(plans.find((p) => p.id === 'starter-monthly')).toMatchObject({ type: 'user' });
    expect(plans.find((p) => p.id === 'pro-yearly')).toMatchObject({
      type: 'team',
      interval: 'yearly',
      features: { can_export_pdf: true, can_upload_custom_fonts: true },
    });
    expect(plans.map((p) => p.id)).not.toContain('plan-freeze');
  });

  it('gives the publishable key and a SetupIntent for the team’s customer', async () => {
    expect((await anonymous().request('GET', '/stripe/key')).json).toEqual({
      publishableKey: 'pk_test_picsnippets_fixture',
    });
    const c = await owner();
    stripe.on('POST', '/v1/customers', customer()).on('POST', '/v1/setup_intents', setupIntent());
    const res = await c.request('GET', '/stripe/token');
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toEqual({
      clientSecret: `${IDS.setupIntent}_secret_Fixture`,
      publishableKey: 'pk_test_picsnippets_fixture',
    });
    const sent = stripe.only('POST', '/v1/setup_intents');
    expect(sent.form.get('customer')).toBe(IDS.customer);
    expect(sent.form.get('usage')).toBe('off_session');
    expect(sent.form.get('automatic_payment_methods[enabled]')).toBe('true');
    expect(sent.form.has('payment_method_types[0]')).toBe(false);
    expect(sent.idempotencyKey).toMatch(/^picsnippets-setup-intent-/);

    // The customer is made once: the next token reuses it.
    stripe.reset();
    stripe.on('POST', '/v1/setup_intents', setupIntent());
    expect((await c.request('GET', '/stripe/token')).status).toBe(200);
    expect(stripe.sent('POST', '/v1/customers')).toEqual([]);
  });

  it('saves the card from the SetupIntent and shows it masked; VAT id goes to Stripe Tax', async () => {
    const c = await owner();
    // The team's customer exists from the previous test.
    stripe
      .on(
        'GET',
        `/v1/payment_methods/${IDS.paymentMethod}`,
        paymentMethod({ customer: IDS.customer }),
      )
      .on('POST', `/v1/customers/${IDS.customer}`, customer());
    const card = await c.request('PUT', `/settings/companies/${teamId}/payment-method`, {
      stripe_payment_method: IDS.paymentMethod,
    });
    expect(card.status, JSON.stringify(card.json)).toBe(200);
    expect(stripe.sent('POST', `/v1/payment_methods/${IDS.paymentMethod}/attach`)).toEqual([]);
    const view = (card.json as { subscription: SubscriptionView }).subscription;
    expect(view.card).toEqual({ brand: 'visa', last4: '4242', exp_month: null, exp_year: null });
    // The team is on Pro as data, with no subscription: it keeps Pro.
    expect(view).toMatchObject({
      plan: 'pro-monthly',
      subscription_id: null,
      capabilities: { can_export_pdf: true },
    });
    stripe.reset();

    // With a billing address, the customer's address follows (Stripe Tax needs it).
    stripe
      .on('POST', `/v1/customers/${IDS.customer}`, customer())
      .on(
        'GET',
        `/v1/payment_methods/${IDS.paymentMethod}`,
        paymentMethod({ customer: IDS.customer }),
      )
      .on('POST', `/v1/customers/${IDS.customer}`, customer());
    const address = await c.request('PUT', `/settings/companies/${teamId}/payment-method`, {
      stripe_payment_method: IDS.paymentMethod,
      country: 'DE',
      city: 'Berlin',
      zip: '10115',
      address: 'Unter den Linden 1',
    });
    expect(address.status, JSON.stringify(address.json)).toBe(200);
    const [addressUpdate] = stripe.sent('POST', `/v1/customers/${IDS.customer}`);
    expect(addressUpdate!.form.get('address[country]')).toBe('DE');
    expect(addressUpdate!.form.get('address[postal_code]')).toBe('10115');
    expect(
      (address.json as { subscription: SubscriptionView }).subscription.billing_address,
    ).toEqual({
      address: 'Unter den Linden 1',
      address_line_2: null,
      city: 'Berlin',
      state: null,
      zip: '10115',
      country: 'DE',
    });
    stripe.reset();
    stripe
      .on('GET', `/v1/customers/${IDS.customer}/tax_ids`, list([], '/v1/tax_ids'))
      .on('POST', `/v1/customers/${IDS.customer}/tax_ids`, taxId('DE123456789'));
    const vat = await c.request('PUT', `/settings/companies/${teamId}/payment-method/vat-id`, {
      vat_id: 'DE123456789',
    });
    expect(vat.status, JSON.stringify(vat.json)).toBe(200);
    const created = stripe.only('POST', `/v1/customers/${IDS.customer}/tax_ids`);
    expect(created.form.get('type')).toBe('eu_vat');
    expect(created.form.get('value')).toBe('DE123456789');
    expect((vat.json as { subscription: SubscriptionView }).subscription.vat_id).toBe(
      'DE123456789',
    );

    stripe.reset();
    stripe
      .on('GET', `/v1/customers/${IDS.customer}/tax_ids`, list([], '/v1/tax_ids'))
      .fail('POST', `/v1/customers/${IDS.customer}/tax_ids`, 400, {
        type: 'invalid_request_error',
        code: 'tax_id_invalid',
        param: 'value',
        message: 'Invalid value for eu_vat.',
      });
    const bad = await c.request('PUT', `/settings/companies/${teamId}/payment-method/vat-id`, {
      vat_id: 'DE12',
    });
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toEqual({ vat_id: ['The VAT ID is invalid.'] });
  });
});

describe('coupons (spec 001 §5, §7)', () => {
  it('looks up an active promotion code; a coupon id or an unknown code is invalid', async () => {
    stripe.on(
      'GET',
      '/v1/promotion_codes',
      list(
        [
          promotionCode(
            'SPRING',
            coupon({
              id: 'co_spring',
              amount_off: 500,
              percent_off: null,
              currency: 'usd',
              duration: 'once',
              duration_in_months: null,
              name: 'Spring',
            }),
          ),
        ],
        '/v1/promotion_codes',
      ),
    );
    const promo = await anonymous().request('GET', '/coupon/SPRING');
    expect(promo.json).toEqual({
      valid: true,
      code: 'SPRING',
      name: 'Spring',
      percent_off: null,
      amount_off: 500,
      currency: 'usd',
      duration: 'once',
      duration_in_months: null,
    });
    expect(stripe.only('GET', '/v1/promotion_codes').query.get('code')).toBe('SPRING');
    stripe.reset();

    // A raw coupon id is not a code: not even looked up (mutation check: the old fallback to
    // coupons.retrieve answered LAUNCH20's terms as valid).
    stripe.on('GET', '/v1/promotion_codes', list([], '/v1/promotion_codes'));
    expect((await anonymous().request('GET', '/coupon/LAUNCH20')).json).toMatchObject({
      valid: false,
      percent_off: null,
    });
    expect(stripe.sent('GET', /^\/v1\/coupons\//)).toHaveLength(0);
    stripe.reset();

    stripe.on('GET', '/v1/promotion_codes', list([], '/v1/promotion_codes'));
    const invalid = await anonymous().request('GET', '/coupon/NOPE');
    expect(invalid.status).toBe(200);
    expect(invalid.json).toMatchObject({ valid: false, code: 'NOPE', percent_off: null });
  });

  it('describes the partner campaign’s configured coupon without giving its code away', async () => {
    stripe.on('GET', '/v1/coupons/PARTNER50', coupon({ id: 'PARTNER50', percent_off: 50 }));
    const res = await anonymous().request('GET', `/coupon/${PARTNER_COUPON_LOOKUP}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      valid: true,
      code: PARTNER_COUPON_LOOKUP,
      percent_off: 50,
      duration: 'repeating',
      duration_in_months: 3,
    });
    expect(JSON.stringify(res.json)).not.toContain('PARTNER50');
    // The configured id is retrieved as a coupon, never looked up as a customer's code.
    expect(stripe.sent('GET', '/v1/coupons/PARTNER50')).toHaveLength(1);
    expect(stripe.sent('GET', '/v1/promotion_codes')).toHaveLength(0);
  });
});

describe('POST /tax-rate (spec 001 §7, §9)', () => {
  it('previews German VAT: 19 % without a VAT id, reverse charge with one', async () => {
    stripe.on('POST', '/v1/invoices/create_preview', preview(vatLine(551, 'standard_rated')));
    const plain = await anonymous().request('POST', '/tax-rate', {
      country: 'DE',
      zip: '10115',
      plan: 'pro-monthly',
    });
    expect(plain.status, JSON.stringify(plain.json)).toBe(200);
    expect(plain.json).toEqual({
      rate: 19,
      amount: 551,
      currency: 'usd',
      vat_country: true,
      reverse_charge: false,
    });
    const sent = stripe.only('POST', '/v1/invoices/create_preview');
    expect(sent.form.get('automatic_tax[enabled]')).toBe('true');
    expect(sent.form.get('customer_details[address][country]')).toBe('DE');
    expect(sent.form.get('customer_details[address][postal_code]')).toBe('10115');
    expect(sent.form.get('subscription_details[items][0][price]')).toBe('price_pro_monthly');
    expect(sent.form.has('customer_details[tax_ids][0][type]')).toBe(false);
    stripe.reset();

    stripe.on('POST', '/v1/invoices/create_preview', preview(vatLine(0, 'reverse_charge')));
    const business = await anonymous().request('POST', '/tax-rate', {
      country: 'de',
      vat_id: 'DE123456789',
      plan: 'pro-monthly',
    });
    expect(business.json).toMatchObject({
      rate: 0,
      amount: 0,
      reverse_charge: true,
      vat_country: true,
    });
    const withId = stripe.only('POST', '/v1/invoices/create_preview');
    expect(withId.form.get('customer_details[tax_ids][0][type]')).toBe('eu_vat');
    expect(withId.form.get('customer_details[tax_ids][0][value]')).toBe('DE123456789');
  });

  it('previews UK VAT at 20 % with gb_vat ids, and answers 0 outside the list without asking Stripe', async () => {
    stripe.on('POST', '/v1/invoices/create_preview', preview(vatLine(580, 'standard_rated')));
    const gb = await anonymous().request('POST', '/tax-rate', {
      country: 'GB',
      plan: 'pro-monthly',
      vat_id: 'GB123456789',
    });
    expect(gb.json).toMatchObject({ rate: 20, amount: 580, vat_country: true });
    expect(
      stripe
        .only('POST', '/v1/invoices/create_preview')
        .form.get('customer_details[tax_ids][0][type]'),
    ).toBe('gb_vat');
    stripe.reset();
    const us = await anonymous().request('POST', '/tax-rate', {
      country: 'US',
      plan: 'pro-monthly',
    });
    expect(us.json).toEqual({
      rate: 0,
      amount: 0,
      currency: null,
      vat_country: false,
      reverse_charge: false,
    });
    expect(stripe.requests).toEqual([]);
  });
});
