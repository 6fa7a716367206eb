/// <reference lib="dom" />
/**
 * Registration through the built SPA in headless Chromium (docs/accounts.md "Screens", docs/accounts.md "Validation rules", docs/decisions.md "Registration", docs/accounts.md "Error answers in the SPA"): field errors
 * for touched fields, the team slug following the company name, the free plan chosen while
 * billing is offline, the confirmation page with the new user signed in, and a taken e-mail
 * caught on step 0. Screenshots land in test-results/e2e-register-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { PARTNER_CAMPAIGN_PATH, PARTNER_COUPON_LOOKUP } from '#shared/billing.ts';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import { POLL } from '../support/aria.ts';

const stack = useLocalStack({ web: 'preview', warmChromium: false });
const browser = useTestBrowser();

/** A page in its own browser context (no cookies shared with other tests). */
async function freshPage(width: number, height: number): Promise<Page> {
  const context = await browser().createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width, height });
  return page;
}

/** Types into the input named `name`, replacing what it held. */
async function fill(page: Page, name: string, value: string): Promise<void> {
  const input = await page.waitForSelector(`input[name="${name}"]`);
  await input!.click({ count: 3 });
  await page.keyboard.press('Backspace');
  await input!.type(value);
}

/** Fills step 0 (account details) with valid values and accepts the terms. */
async function fillAccount(page: Page, account: { name: string; email: string; team: string }) {
  await fill(page, 'name', account.name);
  await fill(page, 'email', account.email);
  await fill(page, 'team', account.team);
  await fill(page, 'password', 'violet-harbour-42');
  await fill(page, 'password_confirmation', 'violet-harbour-42');
  await page.click('input[name="terms"]');
}

const hasText = (page: Page, text: string) =>
  page.waitForFunction((t) => document.body.innerText.includes(t), { timeout: 10_000 }, text);

const attribute = (page: Page, selector: string, name: string) =>
  page.$eval(selector, (el, n) => el.getAttribute(n), name);

describe('registration page', () => {
  it('checks the fields, offers the free plan, and ends signed in on /confirmation', async () => {
    const page = await freshPage(1280, 900);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${stack().url}/register`, { waitUntil: 'networkidle0' });
    expect(await page.$eval('.wizard [aria-current="step"]', (el) => el.textContent)).toContain(
      'Create Account',
    );

    const email = `ana.${Date.now()}@example.com`;
    await fill(page, 'name', 'Ana Müller');
    await fill(page, 'email', email);
    await fill(page, 'team', 'Café Zürich & Co');
    await fill(page, 'password', 'short');
    await fill(page, 'password_confirmation', 'short');
    // Leaving the password field touched it: its error shows, the untouched terms' does not.
    await hasText(page, 'The password must be at least 8 characters.');
    expect(await attribute(page, 'input[name="password"]', 'aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.body.innerText)).not.toContain(
      'The terms must be accepted.',
    );
    await page.screenshot({ path: 'test-results/e2e-register-password-error.png', fullPage: true });

    await fill(page, 'password', 'violet-harbour-42');
    await fill(page, 'password_confirmation', 'violet-harbour-42');
    await page.waitForFunction(
      () => !document.body.innerText.includes('The password must be at least 8 characters.'),
      { timeout: 5_000 },
    );
    expect(await page.$eval('input[name="team_slug"]', (el) => el.value)).toBe('café-zürich-co');
    await page.click('input[name="terms"]');

    await page.click('button[type="submit"]');
    await page.waitForSelector('input[name="plan"]', { timeout: 10_000 });
    expect(await page.$eval('.wizard [aria-current="step"]', (el) => el.textContent)).toContain(
      'Billing',
    );
    expect(await page.$eval('input[name="plan"][value="free"]', (el) => el.checked)).toBe(true);
    const pro = await page.$eval('[data-plan="pro-monthly"]', (el) => ({
      text: el.textContent ?? '',
      disabled: el.querySelector('input')?.disabled,
    }));
    expect(pro.text).toContain('Billing is not configured');
    expect(pro.disabled).toBe(true);
    await page.screenshot({ path: 'test-results/e2e-register-plan.png', fullPage: true });
    await page.setViewport({ width: 375, height: 812 });
    await page.screenshot({ path: 'test-results/e2e-register-plan-375.png', fullPage: true });
    await page.setViewport({ width: 1280, height: 900 });

    await page.click('button[type="submit"]');
    await page.waitForFunction(() => location.pathname === '/confirmation', { timeout: 15_000 });
    await hasText(page, 'Your account is ready');
    await hasText(page, 'Café Zürich & Co');
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="session-nav"]')?.textContent?.includes('Ana Müller'),
      { timeout: 10_000 },
    );
    expect(await page.$eval('.wizard [aria-current="step"]', (el) => el.textContent)).toContain(
      'Confirmation',
    );
    await page.screenshot({ path: 'test-results/e2e-register-confirmation.png', fullPage: true });
    await page.setViewport({ width: 375, height: 812 });
    await page.screenshot({
      path: 'test-results/e2e-register-confirmation-375.png',
      fullPage: true,
    });

    const me = await page.evaluate(async () => {
      const res = await fetch('/user/current', {
        headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' },
      });
      return { status: res.status, body: (await res.json()) as { email?: string } };
    });
    expect(me).toEqual({ status: 200, body: expect.objectContaining({ email }) });

    // Onboarding (docs/accounts.md "Screens"): pick a use case, see its ideas, continue to its address.
    await page.setViewport({ width: 1280, height: 900 });
    await page.click('a[href="/onboarding"]');
    await page.waitForSelector('input[name="use_case"]');
    expect(await page.$$eval('input[name="use_case"]', (els) => els.length)).toBe(8);
    await page.click('button[type="submit"]');
    await page.waitForFunction(
      () => document.body.innerText.includes('Choose the use case closest to yours.'),
      { timeout: 10_000 },
    );
    await page.click('input[value="phisicalStore"]');
    await page.screenshot({ path: 'test-results/e2e-onboarding-step1.png', fullPage: true });
    await page.click('button[type="submit"]');
    await page.waitForFunction(
      () => document.activeElement?.textContent === 'Physical store: ideas to start with',
      { timeout: 10_000 },
    );
    await page.screenshot({ path: 'test-results/e2e-onboarding-step2.png' });
    await page.click('form button[type="submit"]');
    await page.waitForFunction(() => location.pathname === '/dashboard', { timeout: 10_000 });
    expect(await page.evaluate(() => location.search)).toBe('?view=templates&tag=store');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('keeps a taken e-mail on step 0 with the server message, on a phone-sized screen', async () => {
    const page = await freshPage(375, 812);
    await page.goto(`${stack().url}/register`, { waitUntil: 'networkidle0' });
    await fillAccount(page, { name: 'Demo Twin', email: 'demo@example.com', team: 'Twin Team' });
    await page.click('button[type="submit"]');

    await hasText(page, 'The email has already been taken.');
    expect(await page.$('input[name="plan"]')).toBeNull();
    expect(await attribute(page, 'input[name="email"]', 'aria-invalid')).toBe('true');
    // Focus went to the field that needs attention, and the field is described by the error.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('name')), POLL)
      .toBe('email');
    const describedBy = await attribute(page, 'input[name="email"]', 'aria-describedby');
    const described = await page.evaluate(
      (ids) =>
        (ids ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' '),
      describedBy,
    );
    expect(described).toContain('The email has already been taken.');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth > window.innerWidth,
    );
    expect(overflow).toBe(false);
    await page.screenshot({ path: 'test-results/e2e-register-email-taken.png', fullPage: true });
    await page.close();
  });

  it('the partner-campaign path names its offer without a code; offline it registers free, without it', async () => {
    const page = await freshPage(1280, 900);
    const sent: string[] = [];
    // The partner page registers through its own route (POST /register/partner), never a flag.
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === PARTNER_CAMPAIGN_PATH)
        sent.push(r.postData() ?? '');
    });
    await page.goto(`${stack().url}${PARTNER_CAMPAIGN_PATH}?coupon=SHOULD-NOT-SHOW`, {
      waitUntil: 'networkidle0',
    });
    await fillAccount(page, {
      name: 'Pat Partner',
      email: `pat.${Date.now()}@example.com`,
      team: 'Partner Shop',
    });
    await page.click('button[type="submit"]');
    await page.waitForSelector('input[name="plan"]', { timeout: 10_000 });
    // Billing offline: only the free plan, and the campaign's coupon cannot be applied.
    expect(await page.$eval('input[name="plan"][value="free"]', (el) => el.checked)).toBe(true);
    expect(await page.$eval('[data-plan="pro-monthly"] input', (el) => el.disabled)).toBe(true);
    await hasText(page, 'The partner offer is not available right now');
    const text = await page.evaluate(() => document.body.innerText);
    expect(text).not.toContain('SHOULD-NOT-SHOW');
    expect(text).not.toContain(PARTNER_COUPON_LOOKUP);
    await page.screenshot({ path: 'test-results/e2e-register-partner-plan.png', fullPage: true });

    await page.click('button[type="submit"]');
    await page.waitForFunction(() => location.pathname === '/confirmation', { timeout: 15_000 });
    expect(sent).toHaveLength(1);
    const body = JSON.parse(sent[0]!) as Record<string, unknown>;
    expect(body).toMatchObject({ plan: 'free' });
    expect(body).not.toHaveProperty('coupon');
    expect(body).not.toHaveProperty('partner_campaign');
    await page.close();
  });
});
