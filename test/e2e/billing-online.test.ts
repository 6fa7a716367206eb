/// <reference lib="dom" />
/**
 * Online billing through the built SPA in headless Chromium, against the real handlers: the
 * local stack runs with Stripe keys, and the real `stripe` SDK in the billing and webhook
 * handlers sends its requests to the recording HttpClient (test/support/stripe.ts), which
 * answers from the typed fixtures of test/fixtures/stripe. Nothing answers the SPA's billing
 * calls in the browser; the only interception refuses Stripe's own hosts (Stripe.js: this machine
 * has no internet). Each team's state is made as in production: subscribed through
 * `POST /settings/subscription`, changed by signed webhook deliveries.
 *
 * The invoices and card tabs, the cancel flow's freeze with what reaches Stripe, and a plan change
 * needing 3-D Secure leading to the payment-confirmation page; a free team subscribing with the
 * card on file after a refused coupon; registration with a paid plan on the partner path (its
 * offer, the card form, the EU VAT preview); the card-update page of a team whose renewal
 * failed; and a plan that lapsed while the editor was open: the font upload's 402 lands on the
 * subscription tab. Screenshots land in test-results/e2e-billing-*.png.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BrowserContext, HTTPRequest, Page } from 'puppeteer-core';
import type Stripe from 'stripe';
import { PARTNER_CAMPAIGN_PATH } from '#shared/billing.ts';
import { TestClient } from '../support/client.ts';
import { useTestBrowser } from '../support/browser.ts';
import { deliverEvent, type RecordedRequest, useOnlineBillingStack } from '../support/stripe.ts';
import { makeTtf } from '../support/fonts.ts';
import { pollUntil } from '../support/stack.ts';
import { subscriptionEvent } from '../fixtures/stripe/events.ts';
import {
  coupon,
  customer,
  IDS,
  invoice,
  invoicePayment,
  list,
  paymentIntent,
  paymentMethod,
  PRICES,
  setupIntent,
  subscription,
  subscriptionItem,
} from '../fixtures/stripe/objects.ts';
import {
  POLL,
  TIMEOUT_MS,
  byRole,
  descriptionOf,
  fillField,
  findByRole,
  press,
  signIn,
  snap,
  waitForText,
} from '../support/aria.ts';

const { stripe, stack } = useOnlineBillingStack({ web: 'preview' });
const browser = useTestBrowser();

/** The end of the current period every subscription here has: January 15th, 2030, noon UTC. */
const PERIOD_END = Date.UTC(2030, 0, 15, 12) / 1000;

/**
 * A page in its own browser context. Requests to Stripe's hosts (Stripe.js) are recorded and
 * refused (no internet here); every other request goes to the local stack unchanged. The JSON
 * bodies the SPA sends are kept by `METHOD /path`, to check what the user's actions sent.
 */
async function freshPage(
  width = 1280,
  height = 900,
): Promise<{
  page: Page;
  context: BrowserContext;
  stripeCalls: string[];
  sent: Record<string, unknown[]>;
}> {
  const context = await browser().createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width, height });
  const stripeCalls: string[] = [];
  const sent: Record<string, unknown[]> = {};
  await page.setRequestInterception(true);
  page.on('request', (request: HTTPRequest) => {
    const url = new URL(request.url());
    if (/(^|\.)stripe\.com$/i.test(url.hostname)) {
      stripeCalls.push(request.url());
      return void request.abort();
    }
    const body = request.postData();
    if (request.headers()['x-requested-with'] === 'XMLHttpRequest' && body?.startsWith('{')) {
      (sent[`${request.method()} ${url.pathname}`] ??= []).push(JSON.parse(body));
    }
    void request.continue();
  });
  return { page, context, stripeCalls, sent };
}

/** The text of the `<dd>` after the `<dt>` reading `term` in the plan facts. */
const fact = (page: Page, term: string) =>
  page.$$eval(
    '.plan-facts dt',
    (terms, t) => terms.find((dt) => dt.textContent === t)?.nextElementSibling?.textContent ?? null,
    term,
  );

/** Picks a plan in the plan picker as a user does, by its label, and waits until it is chosen. */
async function pickPlan(page: Page, planId: string): Promise<void> {
  await page
    .locator(`.plan-option[data-plan="${planId}"] .plan-option__label`)
    .setTimeout(TIMEOUT_MS)
    .click();
  await page.waitForSelector(`input[name="plan"][value="${planId}"]:checked`, {
    timeout: TIMEOUT_MS,
  });
}

/** Waits until the selected tab is `label`. */
const waitForTab = (page: Page, label: string) =>
  page.waitForFunction(
    (l) => document.querySelector('[role="tab"][aria-selected="true"]')?.textContent === l,
    { timeout: TIMEOUT_MS },
    label,
  );

/** Waits until the subscription tab is the selected tab. */
const waitForSubscriptionTab = (page: Page) => waitForTab(page, 'Subscription');

let counter = 0;
const PASSWORD = 'violet-harbour-42';

/** A team owner as the tests use one: API client, sign-in, team and Stripe customer ids. */
interface Owner {
  c: TestClient;
  email: string;
  teamId: string;
  teamName: string;
  customerId: string;
}

/** Registers a new owner of a new team on the free plan (signed in through the API). */
async function newOwner(teamName: string): Promise<Owner> {
  const c = new TestClient(stack().url);
  const n = ++counter;
  const email = `billing-online-${n}.${Date.now()}@example.org`;
  const res = await c.request('POST', '/register', {
    name: 'Olga Owner',
    email,
    team: teamName,
    password: PASSWORD,
    password_confirmation: PASSWORD,
    terms: true,
    plan: 'free',
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  const me = await c.request('GET', '/user/current');
  return {
    c,
    email,
    teamId: me.json.current_team_id as string,
    teamName,
    customerId: `cus_E2e${n}`,
  };
}

/** The owner's subscription as Stripe answers it: Pro monthly, renewing on PERIOD_END. */
const subOf = (
  owner: Owner,
  overrides: Partial<Stripe.Subscription> = {},
  p: Stripe.Price = PRICES.proMonthly,
) =>
  subscription(
    {
      customer: owner.customerId,
      metadata: { team_id: owner.teamId, plan: 'pro-monthly' },
      latest_invoice: invoice({ customer: owner.customerId }),
      ...overrides,
    },
    { ...subscriptionItem(p), current_period_end: PERIOD_END },
  );

/** Queues Stripe's answers to a first card: the customer, the card attached, made default. */
function queueCustomerAndCard(owner: Owner) {
  stripe
    .on('POST', '/v1/customers', customer({ id: owner.customerId, name: owner.teamName }))
    .on('GET', `/v1/payment_methods/${IDS.paymentMethod}`, paymentMethod())
    .on(
      'POST',
      `/v1/payment_methods/${IDS.paymentMethod}/attach`,
      paymentMethod({ customer: owner.customerId }),
    )
    .on('POST', `/v1/customers/${owner.customerId}`, customer({ id: owner.customerId }));
}

/** Subscribes the owner's team to Pro monthly through the API, with a new Visa card. */
async function subscribe(owner: Owner): Promise<void> {
  queueCustomerAndCard(owner);
  stripe.on('POST', '/v1/subscriptions', subOf(owner));
  const res = await owner.c.request('POST', '/settings/subscription', {
    plan: 'pro-monthly',
    stripe_payment_method: IDS.paymentMethod,
    address: '1 Harbour Street',
    city: 'Springfield',
    zip: '12345',
    country: 'US',
  });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  expect(stripe.pending()).toEqual([]);
  stripe.reset();
}

/** Delivers a signed webhook event and checks it was handled. */
async function deliver(event: unknown): Promise<void> {
  const res = await deliverEvent(stack().url, event);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  expect(res.json.handled).toBe(true);
}

/** The team's plan as the API answers it now. */
const planOf = async (c: TestClient) =>
  (await c.request('GET', '/settings/subscription')).json.plan as string;

describe('billing online (the real handlers, Stripe recorded at the SDK)', () => {
  it('shows the card and invoices, freezes through the cancel flow, and follows a 400 to the payment page', async () => {
    const owner = await newOwner('Harbour Prints');
    await subscribe(owner);
    const { page, context, stripeCalls, sent } = await freshPage();
    const base = stack().url;
    await signIn(page, base, owner.email, PASSWORD);

    // docs/accounts.md "Validation rules": the $0.00 invoice is not listed; the paid one downloads
    // through the PDF link.
    stripe.on(
      'GET',
      '/v1/invoices',
      list(
        [
          invoice({
            id: 'in_2',
            number: 'PS-0002',
            customer: owner.customerId,
            created: Date.UTC(2026, 10, 1, 12) / 1000,
          }),
          invoice({
            id: 'in_1',
            number: 'PS-0001',
            customer: owner.customerId,
            created: Date.UTC(2026, 9, 1, 12) / 1000,
            total: 0,
            subtotal: 0,
            amount_due: 0,
            amount_paid: 0,
          }),
        ],
        '/v1/invoices',
      ),
      { times: 5 },
    );
    // docs/adr/0026-billing-in-the-spa.md "Billing in the SPA": invoices, payment method and
    // subscription are tabs of their own.
    await page.goto(`${base}/settings#/invoices`);
    await waitForTab(page, 'Invoices');
    await page.waitForSelector('.invoice-table', { timeout: TIMEOUT_MS });
    const rows = await page.$$eval('.invoice-table tbody tr', (trs) =>
      trs.map((tr) => ({
        text: (tr as HTMLElement).innerText,
        href: tr.querySelector('a')?.getAttribute('href'),
      })),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.text).toContain('November 1st, 2026');
    expect(rows[0]?.text).toContain('$29');
    expect(rows[0]?.href).toBe('/settings/invoice/in_2');
    expect(stripe.sent('GET', '/v1/invoices')[0]?.query.get('customer')).toBe(owner.customerId);
    await snap(page, 'e2e-billing-online-invoices');
    await page.goto(`${base}/settings#/payment-method`);
    await waitForTab(page, 'Payment method');
    await waitForText(page, '************4242');
    await snap(page, 'e2e-billing-online-payment-method');
    await page.goto(`${base}/settings#/subscription`);
    await waitForSubscriptionTab(page);
    await waitForText(page, 'Harbour Prints: Pro plan');
    await waitForText(page, 'Renews on January 15th, 2030.');
    await snap(page, 'e2e-billing-online-settings');

    // The cancel flow (docs/billing.md "Flows"): a reason first, then the freeze offer.
    await press(page, 'Cancel subscription');
    await waitForText(page, 'Why are you leaving?');
    await press(page, 'Continue');
    await waitForText(page, 'Please choose a reason.');
    await page.locator(byRole('radio', 'It costs too much')).setTimeout(TIMEOUT_MS).click();
    await snap(page, 'e2e-billing-cancel-reason');
    await press(page, 'Continue');
    await waitForText(page, 'Freeze your account instead?');
    await snap(page, 'e2e-billing-freeze-offer');

    // Stripe's answers to the reason (metadata) and the freeze: the subscription is read, its
    // plan is kept in the metadata, and its item moves to the plan-freeze price.
    const subPath = `/v1/subscriptions/${IDS.subscription}`;
    const frozen = subOf(
      owner,
      { metadata: { team_id: owner.teamId, plan: 'pro-monthly', frozen_plan: 'pro-monthly' } },
      PRICES.freeze,
    );
    stripe
      .on('POST', subPath, subOf(owner))
      .on('GET', subPath, subOf(owner))
      .on('POST', subPath, subOf(owner, { metadata: frozen.metadata }))
      .on('POST', subPath, frozen);
    await press(page, 'Freeze my account');
    await waitForText(page, 'Your account is frozen');
    expect(sent[`PUT /settings/companies/${owner.teamId}/metaData`]).toEqual([
      expect.objectContaining({
        type: 'cost',
        cancelType: 'freeze',
        subscriptionId: IDS.subscription,
        currentTeam: owner.teamId,
        frozenPlan: 'pro-monthly',
        confirm: true,
      }),
    ]);
    expect(sent['PUT /settings/subscription']).toEqual([
      { plan: 'plan-freeze', subscriptionId: IDS.subscription },
    ]);
    const [reason, keepPlan, freeze] = stripe.sent('POST', subPath);
    expect(reason?.form.get('metadata[cancel_reason]')).toBe('cost');
    expect(reason?.form.get('metadata[cancel_type]')).toBe('freeze');
    expect(keepPlan?.form.get('metadata[frozen_plan]')).toBe('pro-monthly');
    expect(freeze?.form.get('items[0][price]')).toBe('price_plan_freeze');
    expect(freeze?.form.get('proration_behavior')).toBe('none');
    await press(page, 'Close');
    await waitForText(page, 'Harbour Prints: Frozen plan');
    expect(await fact(page, 'PDF export')).toBe('Not included: Pro plans only');

    // docs/billing.md "Flows", docs/accounts.md "Error answers in the SPA": the plan change back to
    // Pro needs 3-D Secure (Stripe leaves the update pending on the invoice's PaymentIntent): a 400
    // with paymentId goes to the payment-confirmation page, which will return to this tab.
    const pi = paymentIntent({ customer: owner.customerId });
    stripe
      .on('GET', subPath, frozen)
      .on('POST', subPath, subOf(owner, { metadata: { ...frozen.metadata, frozen_plan: '' } }))
      .on(
        'POST',
        subPath,
        subOf(
          owner,
          {
            metadata: { ...frozen.metadata, frozen_plan: '' },
            pending_update: {
              billing_cycle_anchor: null,
              cancel_at_period_end: null,
              discount: null,
              discounts: null,
              expires_at: PERIOD_END,
              metadata: null,
              subscription_items: [subscriptionItem(PRICES.proMonthly)],
              trial_end: null,
              trial_from_plan: null,
            },
            latest_invoice: invoice({
              customer: owner.customerId,
              status: 'open',
              amount_paid: 0,
              payments: list([invoicePayment(pi.id)], '/v1/invoice_payments'),
            }),
          },
          PRICES.freeze,
        ),
      )
      .on('GET', `/v1/payment_intents/${pi.id}`, pi);
    await press(page, 'Resume Pro');
    await page.waitForFunction(
      (id) => location.pathname === `/stripe/payment/${id}`,
      { timeout: TIMEOUT_MS },
      pi.id,
    );
    expect(await page.evaluate(() => new URLSearchParams(location.search).get('redirect'))).toBe(
      '/settings#/subscription',
    );
    expect(sent['PUT /settings/subscription']?.[1]).toEqual({
      plan: 'pro-monthly',
      subscriptionId: IDS.subscription,
    });
    const change = stripe.sent('POST', subPath).at(-1);
    expect(change?.form.get('items[0][price]')).toBe('price_pro_monthly');
    expect(change?.form.get('payment_behavior')).toBe('pending_if_incomplete');
    // The page reads the payment through the real lookup: its amount, to confirm with Stripe.js.
    await waitForText(page, 'Confirm your payment');
    await page.waitForFunction(
      () => document.querySelector('.payment-amount')?.textContent === '$29',
      { timeout: TIMEOUT_MS },
    );
    // Until then the team stays frozen (a pending update changes nothing).
    expect(await planOf(owner.c)).toBe('plan-freeze');
    // The browser asked Stripe for Stripe.js only, on the payment page.
    await pollUntil(
      'Stripe.js requested',
      () => Promise.resolve(stripeCalls.length),
      (n) => n > 0,
      { timeoutMs: TIMEOUT_MS },
    );
    expect(stripeCalls.every((url) => new URL(url).hostname === 'js.stripe.com')).toBe(true);
    await context.close();
  });

  it('a free team subscribes with the card on file; a 422 goes on its field', async () => {
    const owner = await newOwner('Quay Cards');
    // A card saved earlier (`PUT /settings/payment-method`), no subscription.
    queueCustomerAndCard(owner);
    const saved = await owner.c.request('PUT', '/settings/payment-method', {
      stripe_payment_method: IDS.paymentMethod,
    });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    stripe.reset();

    const { page, context, sent } = await freshPage();
    const base = stack().url;
    await signIn(page, base, owner.email, PASSWORD);
    stripe.on('GET', '/v1/invoices', list([], '/v1/invoices'), { times: 5 });
    await page.goto(`${base}/settings#/invoices`);
    await waitForText(page, 'No invoices yet.');
    await page.goto(`${base}/settings#/subscription`);
    await waitForText(page, 'Quay Cards: Free plan');
    await press(page, 'Choose a paid plan');
    // The first paid plan of the interval is chosen (Starter); the owner picks Pro.
    await page.waitForSelector('input[name="plan"][value="starter-monthly"]:checked', {
      timeout: TIMEOUT_MS,
    });
    await pickPlan(page, 'pro-monthly');
    // A card is on file: it is used, and no card form (no SetupIntent) is needed.
    await waitForText(page, 'Pay with the card on file');
    expect(await page.$('.card-field')).toBeNull();
    await fillField(page, 'Address', '1 Harbour Street');
    await fillField(page, 'City', 'Springfield');
    await fillField(page, 'ZIP or postal code', '12345');
    // One coupon field: the subscribe form's (the billing details take one only once subscribed).
    expect(await page.$$('input[name="coupon"]')).toHaveLength(1);
    await fillField(page, 'Coupon code (optional)', 'EXPIRED');
    // Stripe knows no active promotion code EXPIRED.
    stripe.on('GET', '/v1/promotion_codes', list([], '/v1/promotion_codes'));
    await press(page, 'Subscribe to Pro');
    await waitForText(page, 'This coupon code is invalid.');
    expect(await descriptionOf(page, 'textbox', 'Coupon code (optional)')).toContain(
      'This coupon code is invalid.',
    );
    expect(stripe.only('GET', '/v1/promotion_codes').query.get('code')).toBe('EXPIRED');
    expect(stripe.sent('POST', '/v1/subscriptions')).toEqual([]);
    await snap(page, 'e2e-billing-subscribe-422');

    stripe
      .on('POST', `/v1/customers/${owner.customerId}`, customer({ id: owner.customerId }))
      .on('POST', '/v1/subscriptions', subOf(owner));
    await page.click('input[name="coupon"]', { count: 3 });
    await page.keyboard.press('Backspace');
    await press(page, 'Subscribe to Pro');
    await waitForText(page, 'Quay Cards: Pro plan');
    await waitForText(page, 'Renews on January 15th, 2030.');
    expect(sent['POST /settings/subscription']?.[1]).toEqual({
      plan: 'pro-monthly',
      use_existing_payment_method: true,
      address: '1 Harbour Street',
      city: 'Springfield',
      zip: '12345',
      country: expect.stringMatching(/^[A-Z]{2}$/),
    });
    expect(sent['POST /settings/subscription']?.[0]).toEqual(
      expect.objectContaining({ coupon: 'EXPIRED' }),
    );
    // At Stripe: the address went to the customer, and the subscription charges the card on
    // file (no new payment method, no coupon).
    const address = stripe.only('POST', `/v1/customers/${owner.customerId}`);
    expect(address.form.get('address[line1]')).toBe('1 Harbour Street');
    const created = stripe.only('POST', '/v1/subscriptions');
    expect(created.form.get('customer')).toBe(owner.customerId);
    expect(created.form.get('items[0][price]')).toBe('price_pro_monthly');
    expect(created.form.has('default_payment_method')).toBe(false);
    expect(created.form.has('discounts[0][promotion_code]')).toBe(false);
    expect(stripe.sent('GET', `/v1/payment_methods/${IDS.paymentMethod}`)).toEqual([]);
    await context.close();
  });

  it('registration with a paid plan asks for the card, the billing address and, in the EU, the VAT id (on the partner path, with its offer)', async () => {
    const { page, context, stripeCalls, sent } = await freshPage();
    const base = stack().url;
    // CloudFront tells the country of the visitor (here: Germany), as the distribution does.
    await page.setExtraHTTPHeaders({ 'cloudfront-viewer-country': 'DE' });
    // Stripe's answers: the partner coupon (50% for 3 months) and Stripe Tax's preview, 19% of
    // the price previewed.
    const priceOf = (id: string | null) => Object.values(PRICES).find((p) => p.id === id);
    stripe
      .on(
        'GET',
        '/v1/coupons/PARTNER50',
        coupon({ id: 'PARTNER50', name: null, percent_off: 50, duration_in_months: 3 }),
        { times: 5 },
      )
      .on(
        'POST',
        '/v1/invoices/create_preview',
        (request: RecordedRequest) => {
          const net =
            priceOf(request.form.get('subscription_details[items][0][price]'))?.unit_amount ?? 0;
          const vat = Math.round(net * 0.19);
          return invoice({
            id: 'upcoming_in_preview',
            status: 'draft',
            total: net + vat,
            subtotal: net,
            total_excluding_tax: net,
            total_taxes: [
              {
                amount: vat,
                tax_behavior: 'exclusive',
                tax_rate_details: { tax_rate: 'txr_vat_de' },
                taxability_reason: 'standard_rated',
                taxable_amount: net,
                type: 'tax_rate_details',
              },
            ],
          });
        },
        { times: 50 },
      );
    // docs/adr/0026-billing-in-the-spa.md "Billing in the SPA": the partner-campaign path, whose
    // coupon is described but never named.
    await page.goto(`${base}${PARTNER_CAMPAIGN_PATH}`);
    await fillField(page, 'Name', 'Carla Card');
    await fillField(page, 'E-mail address', `carla.${Date.now()}@example.com`);
    await fillField(page, 'Company name', 'Carla Cards');
    await fillField(page, 'Password', PASSWORD);
    await fillField(page, 'Confirm password', PASSWORD);
    await page.click('input[name="terms"]');
    await press(page, 'Continue');

    // docs/billing.md "Flows": the first paid plan of the interval is chosen (Starter), and a paid
    // plan takes a card. The visitor picks Pro.
    await page.waitForSelector('input[name="plan"][value="starter-monthly"]:checked', {
      timeout: TIMEOUT_MS,
    });
    await waitForText(page, 'Payment');
    await pickPlan(page, 'pro-monthly');
    await waitForText(page, 'Partner offer: 50% off for 3 months. It applies to a paid plan.');
    // Stripe.js is asked for with the server's publishable key, and cannot load here (Stripe's
    // hosts are refused: no internet).
    await waitForText(page, 'The secure card form could not be loaded.');
    const scripts = await page.$$eval('script[src]', (els) =>
      els.map((el) => new URL((el as HTMLScriptElement).src).hostname),
    );
    expect(scripts).toContain('js.stripe.com');
    expect(stripeCalls.length).toBeGreaterThan(0);
    expect(stripeCalls.every((url) => new URL(url).hostname === 'js.stripe.com')).toBe(true);
    // The geocoded country is the default; in the EU the VAT id and the VAT preview show.
    await expect
      .poll(() => page.$eval('select[name="country"]', (el) => el.value), POLL)
      .toBe('DE');
    await page.waitForSelector('input[name="vat_id"]', { timeout: TIMEOUT_MS });
    await waitForText(page, 'VAT 19%: $5.51 per month, added to the price.');
    expect(sent['POST /tax-rate']?.at(-1)).toEqual(
      expect.objectContaining({ country: 'DE', plan: 'pro-monthly' }),
    );
    const previewed = stripe.sent('POST', '/v1/invoices/create_preview').at(-1);
    expect(previewed?.form.get('customer_details[address][country]')).toBe('DE');
    expect(previewed?.form.get('subscription_details[items][0][price]')).toBe('price_pro_monthly');
    await snap(page, 'e2e-billing-register-paid');

    // Outside the VAT list (docs/accounts.md "Constants") there is no VAT id and no preview.
    await page.select('select[name="country"]', 'US');
    await page.waitForFunction(() => !document.querySelector('input[name="vat_id"]'), {
      timeout: TIMEOUT_MS,
    });
    await page.waitForFunction(() => !document.body.innerText.includes('VAT 19%'), {
      timeout: TIMEOUT_MS,
    });

    // An empty address is caught before anything is sent, and focus goes to it.
    await press(page, 'Create account');
    await page.waitForFunction(
      () =>
        document.activeElement?.getAttribute('name') === 'address' &&
        document.body.innerText.includes('Please enter a value.'),
      { timeout: TIMEOUT_MS },
    );
    expect(sent['POST /register/partner']).toBeUndefined();
    expect(stripe.sent('POST', '/v1/customers')).toEqual([]);
    await context.close();
  });

  it('the card-update page of a team whose renewal failed makes a SetupIntent and says why no card can be taken here', async () => {
    const owner = await newOwner('Pier Posters');
    await subscribe(owner);
    // Stripe tells of the failed renewal: the subscription is past_due.
    await deliver(
      subscriptionEvent('customer.subscription.updated', subOf(owner, { status: 'past_due' })),
    );
    const { page, context, stripeCalls } = await freshPage(375, 812);
    const base = stack().url;
    await signIn(page, base, owner.email, PASSWORD);
    stripe.on(
      'POST',
      '/v1/setup_intents',
      setupIntent({ customer: owner.customerId, metadata: { team_id: owner.teamId } }),
      { times: 3 },
    );
    // The Subscription tab says the payment failed and links to the Payment method tab.
    await page.goto(`${base}/settings/companies/${owner.teamId}#/subscription`);
    await waitForText(page, 'The last payment failed. Update the card to keep the plan.');
    expect(await page.$eval(byRole('link', 'Update the card'), (a) => a.getAttribute('href'))).toBe(
      `/settings/companies/${owner.teamId}#/payment-method`,
    );
    await snap(page, 'e2e-billing-past-due-subscription-375');
    await page.goto(`${base}/settings/card-update?team_id=${owner.teamId}`);
    await waitForText(page, 'The last payment for this company did not go through.');
    await waitForText(page, '************4242');
    // The SetupIntent is made for the team's customer; Stripe.js, which would take the card,
    // cannot load here, and the card field says so.
    await waitForText(page, 'The secure card form could not be loaded.');
    await page.waitForSelector(byRole('button', 'Try again'), { timeout: TIMEOUT_MS });
    const intent = stripe.sent('POST', '/v1/setup_intents')[0];
    expect(intent?.form.get('customer')).toBe(owner.customerId);
    expect(intent?.form.get('usage')).toBe('off_session');
    expect(intent?.form.get('metadata[team_id]')).toBe(owner.teamId);
    expect(stripeCalls.every((url) => new URL(url).hostname === 'js.stripe.com')).toBe(true);
    expect(
      await page.$eval(byRole('link', "Back to the company's subscription"), (a) =>
        a.getAttribute('href'),
      ),
    ).toBe(`/settings/companies/${owner.teamId}#/subscription`);
    await snap(page, 'e2e-billing-card-update-375');
    await context.close();
  });

  it('a plan that lapsed while the editor was open: the font upload answers 402 and lands on the subscription tab', async () => {
    const owner = await newOwner('Lapse Labels');
    await subscribe(owner);
    const design = await owner.c.request('POST', '/api/pic-snippet', {
      image_id: 'library-autumn',
      title: 'Lapsed fonts',
    });
    expect(design.status, JSON.stringify(design.json)).toBe(201);
    const dir = await mkdtemp(join(tmpdir(), 'billing-e2e-'));
    const font = join(dir, 'lapsed-e2e.ttf');
    await writeFile(font, makeTtf('Lapsed E2E'));

    const { page, context } = await freshPage(1440, 960);
    const base = stack().url;
    await signIn(page, base, owner.email, PASSWORD);
    await page.goto(`${base}/pic-snippet/${design.json.id as string}/edit`, {
      waitUntil: 'networkidle0',
    });
    await page.waitForSelector('[data-testid="editor-canvas"] .canvas-container', {
      timeout: TIMEOUT_MS,
    });
    await press(page, 'Add text snippet');
    // Saved: leaving the editor (the 402's redirect) does not ask first.
    await page.waitForFunction(
      () => document.querySelector('[data-testid="save-state"]')?.textContent?.includes('Saved'),
      { timeout: TIMEOUT_MS },
    );
    await page.locator('.font-picker__button').setTimeout(TIMEOUT_MS).click();
    // On Pro the picker offers the upload.
    await findByRole(page, 'button', 'Upload font');

    // Meanwhile Stripe ends the subscription (the renewal was never paid): the team is free.
    await deliver(
      subscriptionEvent(
        'customer.subscription.deleted',
        subOf(owner, { status: 'canceled', ended_at: Math.floor(Date.now() / 1000) }),
      ),
    );
    expect(await planOf(owner.c)).toBe('free');

    const input = (await page.$('.font-picker input[type="file"]'))!;
    await input.uploadFile(font);
    await page.waitForFunction(
      () => location.pathname === '/settings' && location.hash === '#/subscription',
      { timeout: TIMEOUT_MS },
    );
    await waitForSubscriptionTab(page);
    await waitForText(page, 'Lapse Labels: Free plan');
    expect(await fact(page, 'Custom font upload')).toBe('Not included: Pro plans only');
    await snap(page, 'e2e-billing-402-lapsed');
    await context.close();
  });
});
