/// <reference lib="dom" />
/**
 * Settings through the built SPA in headless Chromium (docs/accounts.md "Screens", docs/decisions.md "The API contract", docs/accounts.md "Error answers in the SPA"): tabs kept in the
 * hash (the invoices and payment-method tabs opened by theirs), an API token shown once and
 * listed, a new team listed, and a 401 opening the session-expired modal.
 */
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import { TIMEOUT_MS, signIn, waitForText, waitForTextGone } from '../support/aria.ts';

const stack = useLocalStack({ web: 'preview', warmChromium: false });
const browser = useTestBrowser();

/**
 * Clicks the first button whose visible text is `label`, once the page shows one (a tab's form
 * renders after its data loads); fails after `TIMEOUT_MS` without one.
 */
async function clickButton(page: Page, label: string) {
  const clicked = await page
    .waitForFunction(
      (l) => {
        const button = Array.from(document.querySelectorAll('button')).find(
          (b) => b.textContent?.trim() === l,
        );
        button?.click();
        return button !== undefined;
      },
      { timeout: TIMEOUT_MS },
      label,
    )
    .then(
      () => true,
      () => false,
    );
  expect(clicked, `button "${label}"`).toBe(true);
}

/** Waits until the selected tab is `label`. */
const waitForTab = (page: Page, label: string) =>
  page.waitForFunction(
    (l) => document.querySelector('[role="tab"][aria-selected="true"]')?.textContent === l,
    { timeout: TIMEOUT_MS },
    label,
  );

/** The labels of the tabs, in order. */
const tabLabels = (page: Page) =>
  page.$$eval('[role="tab"]', (tabs) => tabs.map((t) => t.textContent ?? ''));

describe('settings', () => {
  it('creates an API token and a team, keeps the tab in the hash', async () => {
    const page = await browser().newPage();
    await page.setViewport({ width: 1280, height: 900 });
    const base = stack().url;

    await signIn(page, base, 'demo@example.com', 'demo-password');

    // Security tab from the hash; create a token named E2E.
    await page.goto(`${base}/settings#/security`, { waitUntil: 'networkidle0' });
    await waitForTab(page, 'Security');
    await page.waitForSelector('input[name="token_name"]');
    const read = await page.$eval(
      'input[name="abilities"][value="read"]',
      (el) => (el as HTMLInputElement).checked,
    );
    expect(read).toBe(true);
    await page.type('input[name="token_name"]', 'E2E');
    await clickButton(page, 'Create token');
    await page.waitForSelector('[data-testid="new-token"]', { timeout: TIMEOUT_MS });
    const token = await page.$eval(
      '[data-testid="new-token"]',
      (el) => (el as HTMLInputElement).value,
    );
    expect(token).toMatch(/^pst_/);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="token-list"]')?.textContent?.includes('E2E'),
      { timeout: TIMEOUT_MS },
    );
    await page.screenshot({ path: 'test-results/e2e-settings-token.png', fullPage: true });

    // A click on a tab pushes the hash; back re-activates the previous tab.
    await page.click('[role="tab"]:nth-child(2)');
    await page.waitForFunction(() => location.hash === '#/companies');
    await waitForTab(page, 'Companies');
    await page.goBack();
    await page.waitForFunction(() => location.hash === '#/security');
    await waitForTab(page, 'Security');
    // The shown token is gone after leaving the tab: it is shown once.
    expect(await page.$('[data-testid="new-token"]')).toBeNull();

    // Arrow keys move between tabs (docs/accounts.md "Screens"'s order: profile, companies, security,
    // invoice, payment method, subscription), End goes to the last, and Right wraps to the first.
    await page.focus('[role="tab"][aria-selected="true"]');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => location.hash === '#/invoices');
    await waitForTab(page, 'Invoices');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => location.hash === '#/payment-method');
    await waitForTab(page, 'Payment method');
    await page.keyboard.press('End');
    await page.waitForFunction(() => location.hash === '#/subscription');
    await waitForTab(page, 'Subscription');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => location.hash === '#/profile');
    await waitForTab(page, 'Profile');

    // Companies: create a team.
    await page.goto(`${base}/settings#/companies`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="team-list"]');
    await page.type('input[name="team_name"]', 'E2E Team');
    await clickButton(page, 'Create company');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="team-list"]')?.textContent?.includes('E2E Team'),
      { timeout: TIMEOUT_MS },
    );
    await page.screenshot({ path: 'test-results/e2e-settings-companies.png', fullPage: true });

    // Team settings: the membership tab from a click, an invitation sent and listed.
    await page.evaluate(() => {
      const link = Array.from(document.querySelectorAll('a')).find(
        (a) => a.textContent === 'E2E Team',
      );
      link?.click();
    });
    await page.waitForFunction(() => location.pathname.startsWith('/settings/companies/'), {
      timeout: TIMEOUT_MS,
    });
    await page.waitForSelector('input[name="team_name"]');
    await waitForTab(page, 'Company');
    // docs/accounts.md "Screens"'s team tabs: the spec's five, then the developer API's two.
    expect(await tabLabels(page)).toEqual([
      'Company',
      'Invoices',
      'Membership',
      'Payment method',
      'Subscription',
      'Developer',
      'Webhooks',
    ]);
    await page.click('[role="tab"]:nth-child(3)');
    await page.waitForFunction(() => location.hash === '#/membership');
    await page.waitForSelector('input[name="email"]');
    await page.type('input[name="email"]', 'e2e-invitee@example.com');
    await clickButton(page, 'Send invitation');
    // A new team on the free plan may not allow more members: then the 422's message is on
    // the e-mail field (docs/accounts.md "Error answers in the SPA"); otherwise the invitation is listed.
    await page.waitForFunction(
      () =>
        document.body.innerText.includes('Invitation sent to e2e-invitee@example.com.') ||
        document.querySelector('input[name="email"][aria-invalid="true"]') !== null,
      { timeout: TIMEOUT_MS },
    );
    const invalid = await page.$('input[name="email"][aria-invalid="true"]');
    if (invalid) {
      const described = await invalid.evaluate((el) =>
        (el.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' '),
      );
      expect(described).toMatch(/\S/);
    } else {
      await page.waitForFunction(
        () => document.querySelectorAll('.item-list')[1]?.textContent?.includes('e2e-invitee'),
        { timeout: TIMEOUT_MS },
      );
    }
    await page.screenshot({ path: 'test-results/e2e-settings-team.png', fullPage: true });

    // Two-factor set-up shows the QR code and the secret.
    await page.goto(`${base}/settings#/security`, { waitUntil: 'networkidle0' });
    await clickButton(page, 'Set up two-factor authentication');
    await page.waitForSelector('img.qr[alt]', { timeout: TIMEOUT_MS });
    await page.screenshot({ path: 'test-results/e2e-settings-2fa.png', fullPage: true });

    // Unknown hash: the first tab.
    await page.goto(`${base}/settings#/nope`, { waitUntil: 'networkidle0' });
    await waitForTab(page, 'Profile');
    await page.screenshot({ path: 'test-results/e2e-settings-profile.png', fullPage: true });

    // docs/accounts.md "Error answers in the SPA": a 401 opens the session-expired modal.
    const cookies = await browser().defaultBrowserContext().cookies();
    const session = cookies.find((c) => c.name === 'picsnippets_session');
    expect(session).toBeDefined();
    if (session) await browser().defaultBrowserContext().deleteCookie(session);
    await clickButton(page, 'Save contact details');
    await waitForText(page, 'Your session has expired');
    await page.screenshot({ path: 'test-results/e2e-settings-expired.png' });
    // Signing in again happens in the modal, and the page stays where it was.
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'password', {
      timeout: TIMEOUT_MS,
    });
    await page.keyboard.type('demo-password');
    await clickButton(page, 'Sign in');
    await waitForTextGone(page, 'Your session has expired');
    expect(await page.evaluate(() => location.pathname)).toBe('/settings');
    await page.close();
  });

  it('opens the invoices and payment-method tabs from their hashes, in the user and team settings', async () => {
    const page = await browser().newPage();
    await page.setViewport({ width: 1280, height: 900 });
    const base = stack().url;
    await signIn(page, base, 'demo@example.com', 'demo-password');

    // docs/accounts.md "Screens": six user tabs; `#/invoices` and `#/payment-method` open their own.
    await page.goto(`${base}/settings#/invoices`, { waitUntil: 'networkidle0' });
    await waitForTab(page, 'Invoices');
    expect(await tabLabels(page)).toEqual([
      'Profile',
      'Companies',
      'Security',
      'Invoices',
      'Payment method',
      'Subscription',
    ]);
    // This stack has no Stripe keys: the tab says why there is nothing to list.
    await waitForText(page, 'Demo Team has no invoices to show here.');
    expect(await page.title()).toContain('Settings: Invoices');
    await page.screenshot({ path: 'test-results/e2e-settings-invoices.png', fullPage: true });

    await page.goto(`${base}/settings#/payment-method`, { waitUntil: 'networkidle0' });
    await waitForTab(page, 'Payment method');
    await waitForText(page, 'Demo Team has no payment method to show here.');
    await page.screenshot({ path: 'test-results/e2e-settings-payment-method.png', fullPage: true });

    // The team settings have the same two tabs, through the team paths.
    await page.goto(`${base}/settings/companies/team-demo#/payment-method`, {
      waitUntil: 'networkidle0',
    });
    await waitForTab(page, 'Payment method');
    await waitForText(page, 'Demo Team has no payment method to show here.');
    await page.goto(`${base}/settings/companies/team-demo#/invoices`, {
      waitUntil: 'networkidle0',
    });
    await waitForTab(page, 'Invoices');
    await waitForText(page, 'Demo Team has no invoices to show here.');
    await page.screenshot({ path: 'test-results/e2e-settings-team-invoices.png', fullPage: true });
    await page.close();
  });

  it('uploads a profile photo with a preview, and refuses a non-image with its message', async () => {
    const context = await browser().createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    const base = stack().url;
    await signIn(page, base, 'demo@example.com', 'demo-password');
    await page.goto(`${base}/settings#/profile`, { waitUntil: 'networkidle0' });

    const input = await page.waitForSelector('input[type="file"][aria-label="Profile photo"]');
    await input!.uploadFile(
      fileURLToPath(new URL('../../infra/seed/photos/altai-portrait.jpg', import.meta.url)),
    );
    await waitForText(page, 'Your photo was saved.');
    // After the session refresh the photo comes from the server, not the local preview.
    await page.waitForFunction(
      () =>
        document
          .querySelector('img[alt="Profile photo of Dana Demo"]')
          ?.getAttribute('src')
          ?.startsWith('/files/users/') === true,
      { timeout: TIMEOUT_MS },
    );
    // The server's photo may still be loading on a busy machine: wait for it, then check its size.
    await page.waitForFunction(
      () => {
        const img = document.querySelector<HTMLImageElement>(
          'img[alt="Profile photo of Dana Demo"]',
        );
        return img !== null && img.complete && img.naturalWidth > 0;
      },
      { timeout: 20_000 },
    );
    const width = await page.$eval(
      'img[alt="Profile photo of Dana Demo"]',
      (img) => (img as HTMLImageElement).naturalWidth,
    );
    expect(width).toBe(256);
    await page.screenshot({ path: 'test-results/e2e-settings-photo.png' });

    // A text file renamed .png passes the browser's extension check; the server refuses it.
    const fake = join(tmpdir(), 'not-a-photo.png');
    await writeFile(fake, 'hello, not an image');
    await input!.uploadFile(fake);
    await waitForText(page, 'The photo must be a JPG, PNG, GIF, WebP or BMP image.');
    await page.screenshot({ path: 'test-results/e2e-settings-photo-refused.png' });
    await context.close();
  });

  it('goes to the subscription tab on a 402, which shows the plan', async () => {
    const context = await browser().createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    const base = stack().url;
    await signIn(page, base, 'demo@example.com', 'demo-password');
    await page.goto(`${base}/settings#/profile`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('input[name="name"]');

    // No settings route refuses for payment, so a 402 on this non-billing route is played here
    // to check the redirect from a settings form. The real 402 (a lapsed plan's font upload,
    // answered by the real handlers) is in billing-online.test.ts.
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      if (request.method() === 'PUT' && request.url().endsWith('/settings/contact')) {
        void request.respond({
          status: 402,
          contentType: 'application/json',
          body: JSON.stringify({ message: 'Your plan does not include this.' }),
        });
      } else void request.continue();
    });
    await clickButton(page, 'Save contact details');
    await page.waitForFunction(
      () => location.pathname === '/settings' && location.hash === '#/subscription',
      { timeout: TIMEOUT_MS },
    );
    await waitForTab(page, 'Subscription');
    await waitForText(page, 'Demo Team: Pro plan');
    await waitForText(page, 'Custom font upload');
    await page.screenshot({ path: 'test-results/e2e-settings-subscription.png' });
    await context.close();
  });

  it('sends a signed-out visitor to /login', async () => {
    const context = await browser().createBrowserContext();
    const page = await context.newPage();
    await page.goto(`${stack().url}/settings#/security`, { waitUntil: 'networkidle0' });
    await page.waitForFunction(() => location.pathname === '/login', { timeout: TIMEOUT_MS });
    await context.close();
  });
});
