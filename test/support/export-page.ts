/// <reference lib="dom" />
/**
 * The export screen in the built SPA for e2e tests (docs/export.md "The screen"): a signed-in
 * page, the screen opened with its custom-data intro closed, a platform chosen, and Generate's
 * HTML read once Generate is enabled.
 */
import type { Page } from 'puppeteer-core';
import { byRole, findByRole, press, signIn, TIMEOUT_MS } from './aria.ts';
import type { TestBrowser } from './browser.ts';

/** A new page of `browser` at 1366×900, signed in, its page errors collected in `errors`. */
export async function signedInPage(
  browser: TestBrowser,
  base: string,
  email: string,
  password: string,
): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  await page.setViewport({ width: 1366, height: 900 });
  page.setDefaultTimeout(TIMEOUT_MS);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await signIn(page, base, email, password);
  return { page, errors };
}

/** Opens design `designId`'s export screen, closes the intro ("Got it") and chooses `platform`. */
export async function openExportScreen(
  page: Page,
  base: string,
  designId: string,
  platform: string,
): Promise<void> {
  await page.goto(`${base}/pic-snippet/${designId}/export`, { waitUntil: 'networkidle0' });
  await findByRole(page, 'dialog', 'Custom data for each recipient');
  await press(page, 'Got it');
  await page.waitForFunction(() => !document.querySelector('dialog[open]'), {
    timeout: TIMEOUT_MS,
  });
  await findByRole(page, 'combobox', 'Platform');
  await page.select(byRole('combobox', 'Platform'), platform);
}

/** Waits until Generate is enabled (at most 60 s: the preview renders first), presses it and
 * answers the HTML output. */
export async function generateHtml(page: Page): Promise<string> {
  await page.waitForFunction(
    (sel) => document.querySelector(sel)?.getAttribute('aria-disabled') !== 'true',
    { timeout: 60_000 },
    'button[aria-describedby$="-generate-hint"]',
  );
  await press(page, 'Generate');
  const output = await page.waitForSelector('[data-testid="export-html"]');
  return output!.evaluate((el) => (el as HTMLTextAreaElement).value);
}
