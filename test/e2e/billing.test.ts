/// <reference lib="dom" />
/**
 * Billing through the built SPA in headless Chromium, in offline mode (the local stack has no
 * Stripe keys; docs/billing.md): registration offers the free plan and says why the requested
 * paid plan is unavailable; the demo team (Pro as data) sees its plan in Settings → Subscription,
 * from the plan settings address and from the team settings. The browser never contacts Stripe.
 * What the screens show on their own is in the component tests: the plan choice and the coupon
 * (web/src/features/registration/AccountStep.test.tsx,
 * web/src/features/billing/PlanPicker.test.tsx, CouponNote.test.tsx), the plan's facts and why it
 * cannot change offline (web/src/features/settings/SubscriptionTab.test.tsx), the
 * payment-confirmation and card-update pages (web/src/pages/PaymentConfirmationPage.test.tsx,
 * CardUpdatePage.test.tsx). The online screens (the real handlers with Stripe recorded at the SDK)
 * are in billing-online.test.ts. Screenshots land in test-results/e2e-billing-*.png.
 *
 * @own-stack: reads the demo team's plan as seeded; other files subscribe and change it.
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'puppeteer-core';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import { TIMEOUT_MS, fillField, press, signIn, snap, waitForText } from '../support/aria.ts';

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

/** Waits until the subscription tab is the selected tab. */
const waitForSubscriptionTab = (page: Page) =>
  page.waitForFunction(
    () =>
      document.querySelector('[role="tab"][aria-selected="true"]')?.textContent === 'Subscription',
    { timeout: TIMEOUT_MS },
  );

describe('billing offline', () => {
  it('registration offers the free plan when the requested paid plan is unavailable, and never loads Stripe', async () => {
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
    // The requested Pro plan cannot be taken offline: the free plan is chosen, and the page says
    // why.
    await waitForText(page, 'Pro is not available');
    expect(await page.$eval('input[name="plan"][value="free"]', (el) => el.checked)).toBe(true);
    await snap(page, 'e2e-billing-register-plan');
    await page.setViewport({ width: 375, height: 812 });
    await snap(page, 'e2e-billing-register-plan-375');
    expect(stripeCalls).toEqual([]);
    await context.close();
  });

  it('the demo team on Pro sees its plan in Settings → Subscription, from the plan settings address and the team’s', async () => {
    const { page, context, stripeCalls } = await freshPage();
    const base = stack().url;
    await signIn(page, base, 'demo@example.com', 'demo-password');
    // docs/adr/0026-billing-in-the-spa.md "Billing in the SPA": the plan settings address opens the
    // subscription tab.
    const opened = await page.goto(`${base}/settings/subscription`, { waitUntil: 'networkidle0' });
    expect(opened?.headers()['content-type']).toContain('text/html');
    await page.waitForFunction(
      () => location.pathname === '/settings' && location.hash === '#/subscription',
      { timeout: TIMEOUT_MS },
    );
    await waitForSubscriptionTab(page);
    await waitForText(page, 'Demo Team: Pro plan');
    await snap(page, 'e2e-billing-settings-pro');

    // The team settings have the same tab, through the team paths.
    await page.goto(`${base}/settings/companies/team-demo#/subscription`, {
      waitUntil: 'networkidle0',
    });
    await waitForSubscriptionTab(page);
    await waitForText(page, 'Demo Team: Pro plan');
    await snap(page, 'e2e-billing-team-settings-pro');
    // Nothing runs off the side of a phone-sized screen.
    await page.setViewport({ width: 375, height: 812 });
    await waitForText(page, 'Plans cannot be changed online here');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    await snap(page, 'e2e-billing-team-settings-pro-375');
    expect(stripeCalls).toEqual([]);
    await context.close();
  });
});
