/// <reference lib="dom" />
/**
 * Settings through the built SPA in headless Chromium (docs/accounts.md "Screens",
 * docs/adr/0044-the-api-contract.md "The API contract"): an API token shown once and listed, the
 * tab kept in the hash through the browser's history, a new team listed and its settings opened,
 * and a profile photo uploaded (and a non-image refused by the server). What one component shows is
 * in the component tests: the tabs of each settings page, their order, keys and hashes
 * (web/src/pages/SettingsPage.test.tsx, TeamSettingsPage.test.tsx,
 * web/src/components/Tabs.test.tsx), the billing tabs offline
 * (web/src/features/settings/SubscriptionTab.test.tsx), invitations
 * (web/src/features/settings/MembershipTab.test.tsx), two-factor set-up (TwoFactorSection.test.tsx)
 * and the session-expired modal (SessionExpiredModal.test.tsx; its journey is
 * test/e2e/session-expiry.test.ts). A 402's landing on the subscription tab is the real lapsed
 * plan's in test/e2e/billing-online.test.ts.
 */
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import { TIMEOUT_MS, signIn, waitForText } from '../support/aria.ts';

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

    // Its settings open from the link, on the first tab.
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
    await page.screenshot({ path: 'test-results/e2e-settings-team.png', fullPage: true });
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
});
