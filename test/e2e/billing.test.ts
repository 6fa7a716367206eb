/// <reference lib="dom" />
/**
 * Billing through the built SPA in headless Chromium, in offline mode (the local stack has no
 * Stripe keys; docs/billing.md): registration offers the free plan and says why paid plans are
 * unavailable; the demo team (Pro as data) sees its plan, limits and PDF export in Settings →
 * Subscription; the admin's free team sees why plans cannot change here; the payment-confirmation
 * page refuses a foreign redirect; the card-update page says cards cannot be updated here. The
 * browser never contacts Stripe. The online screens (the real handlers with Stripe recorded at
 * the SDK) are in billing-online.test.ts. Screenshots land in test-results/e2e-billing-*.png.
 *
 * @own-stack: reads the seeded admin's free team and the demo team's plan as seeded; other files subscribe and change them.
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'puppeteer-core';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import {
  TIMEOUT_MS,
  byRole,
  fillField,
  press,
  signIn,
  snap,
  waitForText,
} from '../support/aria.ts';

const stack = useLocalStack({ web: 'preview', warmChromium: false });
const browser = useTestBrowser();

/** A page in its own browser context, with every request to Stripe recorded. */
async function freshPage(
  width = 1280,
  height = 900,
): Promise<{ page: Page; context: BrowserContext; stripeCalls: string[] }> {
  const context = await browser().createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width, height });
  const stripeCalls: string[] = [];
  page.on('request', (request) => {
    if (/stripe\.com/i.test(new URL(request.url()).hostname)) stripeCalls.push(request.url());
  });
  return { page, context, stripeCalls };
}

/** The text of the `<dd>` after the `<dt>` reading `term` in the plan facts. */
const fact = (page: Page, term: string) =>
  page.$$eval(
    '.plan-facts dt',
    (terms, t) => terms.find((dt) => dt.textContent === t)?.nextElementSibling?.textContent ?? null,
    term,
  );

/** Waits until the subscription tab is the selected tab. */
const waitForSubscriptionTab = (page: Page) =>
  page.waitForFunction(
    () =>
      document.querySelector('[role="tab"][aria-selected="true"]')?.textContent === 'Subscription',
    { timeout: TIMEOUT_MS },
  );

describe('billing offline', () => {
  it('registration offers the free plan, shows paid plans as unavailable, and never loads Stripe', async () => {
    const { page, context, stripeCalls } = await freshPage();
    await page.goto(`${stack().url}/register?plan=pro-monthly&coupon=WELCOME10`, {
      waitUntil: 'networkidle0',
    });
    await fillField(page, 'Name', 'Bea Billing');
    await fillField(page, 'E-mail address', `bea.${Date.now()}@example.com`);
    await fillField(page, 'Company name', 'Bea Prints');
    await fillField(page, 'Password', 'violet-harbour-42');
    await fillField(page, 'Confirm password', 'violet-harbour-42');
    await page.click('input[name="terms"]');
    await press(page, 'Continue');

    await page.waitForSelector('input[name="plan"]', { timeout: TIMEOUT_MS });
    // The requested Pro plan cannot be taken offline: the free plan is chosen, and the page says why.
    await waitForText(page, 'Pro is not available');
    expect(await page.$eval('input[name="plan"][value="free"]', (el) => el.checked)).toBe(true);
    const paid = await page.$$eval('.plan-option', (options) =>
      options
        .filter((o) => o.getAttribute('data-plan') !== 'free')
        .map((o) => ({
          disabled: o.querySelector('input')?.disabled,
          note: o.querySelector('.plan-option__note')?.textContent ?? '',
          describedBy: o.querySelector('input')?.getAttribute('aria-describedby') ?? '',
        })),
    );
    expect(paid.length).toBeGreaterThan(0);
    for (const option of paid) {
      expect(option.disabled).toBe(true);
      expect(option.note).toContain('Billing is not configured on this server');
      expect(option.describedBy).toContain('-note');
    }
    // The coupon is looked up: offline no coupon is valid, and the page says it is not applied.
    await waitForText(page, 'Coupon WELCOME10 is not valid, so it will not be applied.');
    // The free plan takes no card (docs/billing.md "Flows").
    expect(await page.$('.card-field')).toBeNull();
    expect(await page.$('input[name="address"]')).toBeNull();
    await snap(page, 'e2e-billing-register-plan');
    await page.setViewport({ width: 375, height: 812 });
    await snap(page, 'e2e-billing-register-plan-375');
    expect(stripeCalls).toEqual([]);
    await context.close();
  });

  it('the demo team on Pro sees its plan, limits and PDF export in Settings → Subscription', async () => {
    const { page, context, stripeCalls } = await freshPage();
    const base = stack().url;
    await signIn(page, base, 'demo@example.com', 'demo-password');
    // docs/decisions.md "Billing in the SPA": the plan settings address opens the subscription tab.
    const opened = await page.goto(`${base}/settings/subscription`, { waitUntil: 'networkidle0' });
    expect(opened?.headers()['content-type']).toContain('text/html');
    await page.waitForFunction(
      () => location.pathname === '/settings' && location.hash === '#/subscription',
      { timeout: TIMEOUT_MS },
    );
    await waitForSubscriptionTab(page);
    await waitForText(page, 'Demo Team: Pro plan');
    expect(await fact(page, 'PDF export')).toBe('Included');
    expect(await fact(page, 'Custom font upload')).toBe('Included');
    expect(Number(await fact(page, 'Members per company'))).toBeGreaterThan(1);
    expect(Number(await fact(page, 'Companies you can own'))).toBeGreaterThan(1);
    await waitForText(page, 'Plans cannot be changed online here');
    // Offline there is nothing to pay with: no card, invoice or cancel controls.
    expect(await page.$(byRole('button', 'Cancel subscription'))).toBeNull();
    expect(await page.$(byRole('heading', 'Invoices'))).toBeNull();
    await snap(page, 'e2e-billing-settings-pro');

    // The team settings have the same tab, through the team paths.
    await page.goto(`${base}/settings/companies/team-demo#/subscription`, {
      waitUntil: 'networkidle0',
    });
    await waitForSubscriptionTab(page);
    await waitForText(page, 'Demo Team: Pro plan');
    expect(await fact(page, 'PDF export')).toBe('Included');
    await snap(page, 'e2e-billing-team-settings-pro');
    expect(stripeCalls).toEqual([]);
    await context.close();
  });

  it('the admin on the free plan sees it and why plans cannot change offline', async () => {
    const { page, context } = await freshPage(375, 812);
    const base = stack().url;
    await signIn(page, base, 'admin@example.com', 'demo-password');
    await page.goto(`${base}/settings#/subscription`, { waitUntil: 'networkidle0' });
    await waitForSubscriptionTab(page);
    await page.waitForFunction(
      () => /: Free plan/.test(document.querySelector('h2')?.textContent ?? ''),
      { timeout: TIMEOUT_MS },
    );
    expect(await fact(page, 'PDF export')).toBe('Not included: Pro plans only');
    await waitForText(page, 'Billing is not configured on this server');
    // Nothing runs off the side of a phone-sized screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    await snap(page, 'e2e-billing-settings-free-375');
    await context.close();
  });

  it('the payment-confirmation page refuses a foreign redirect and explains the failure', async () => {
    const { page, context, stripeCalls } = await freshPage();
    const base = stack().url;
    await signIn(page, base, 'demo@example.com', 'demo-password');
    await page.goto(
      `${base}/stripe/payment/pi_unknown?redirect=${encodeURIComponent('https://evil.example/')}`,
      { waitUntil: 'networkidle0' },
    );
    await waitForText(page, 'Confirm your payment');
    await waitForText(page, 'This payment cannot be confirmed here');
    const back = await page.$eval(byRole('link', 'Back to the settings'), (a) =>
      a.getAttribute('href'),
    );
    expect(back).toBe('/settings#/subscription');
    await snap(page, 'e2e-billing-payment-offline');
    expect(stripeCalls).toEqual([]);
    await context.close();
  });

  it('the card-update page takes the team from the query and says cards cannot be updated here', async () => {
    const { page, context, stripeCalls } = await freshPage(375, 812);
    const base = stack().url;
    await signIn(page, base, 'demo@example.com', 'demo-password');
    await page.goto(`${base}/settings/card-update?team_id=team-demo`);
    await waitForText(page, 'Cards cannot be updated here');
    expect(await page.$('.card-field')).toBeNull();
    expect(stripeCalls).toEqual([]);
    await context.close();
  });
});
