/// <reference lib="dom" />
/**
 * Leaving with unsaved changes asks first (docs/adr/0043-leaving-with-unsaved-changes-asks-first.md
 * "Leaving with unsaved changes asks first") through the built SPA in headless Chromium: a settings
 * form with typed changes asks before a header link or browser back takes the page away ("Stay"
 * keeps the page and what was typed, "Leave" goes), a reload gets the browser's `beforeunload`
 * prompt, a saved form does not ask, and the editor asks while its save queue holds a change. The
 * dialog's own behaviour (focus on Stay, Esc stays) and which forms mark the page unsaved are in
 * the component tests (web/src/components/UnsavedChangesPrompt.test.tsx,
 * web/src/features/settings/ProfileTab.test.tsx). The dialog's screenshot lands in
 * test-results/e2e-unsaved-changes-dialog.png.
 */
import { describe, expect, it } from 'vitest';
import type { HTTPRequest, Page } from 'puppeteer-core';
import { createDesign, ownTeam } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import {
  POLL,
  TIMEOUT_MS,
  byRole,
  fillField,
  findByRole,
  press,
  signIn,
  snap,
  waitForText,
} from '../support/aria.ts';

const stack = useLocalStack({ web: 'preview', warmChromium: false });
const browser = useTestBrowser();

/** The password `ownTeam` registers with. */
const PASSWORD = 'design-walnut-27';
const DIALOG = byRole('alertdialog', 'Leave this page?');

/** A new tab signed in as a fresh user of their own team. */
async function freshUser(prefix: string) {
  const email = `${prefix}-${Date.now()}@example.com`;
  const client = await ownTeam(stack().url, email);
  const page = await browser().newPage();
  await page.setViewport({ width: 1280, height: 900 });
  page.setDefaultTimeout(TIMEOUT_MS);
  await signIn(page, stack().url, email, PASSWORD);
  return { page, client };
}

/** Clicks the header's "Dashboard" link (the main navigation). */
const clickHeaderDashboard = (page: Page) =>
  page.locator('nav[aria-label="Main"] a[href="/dashboard"]').setTimeout(TIMEOUT_MS).click();

const pathname = (page: Page) => page.evaluate(() => location.pathname);
const dialogShown = async (page: Page) => (await page.$(DIALOG)) !== null;
const valueOf = (page: Page, label: string) =>
  page.$eval(byRole('textbox', label), (el) => (el as HTMLInputElement).value);

describe('leaving with unsaved changes', () => {
  it('asks before leaving a settings form with typed changes, and on reload, not after saving', async () => {
    const { page } = await freshUser('unsaved-settings');
    await page.goto(`${stack().url}/settings#/profile`, { waitUntil: 'networkidle0' });
    // An in-app history entry to go back to: the Security tab, then Profile again.
    await press(page, 'Security', 'tab');
    await press(page, 'Profile', 'tab');
    await fillField(page, 'Name', 'Desi Gner Typed');

    // A header link: the dialog; "Stay" keeps the page and what was typed.
    await clickHeaderDashboard(page);
    await findByRole(page, 'alertdialog', 'Leave this page?');
    await snap(page, 'e2e-unsaved-changes-dialog');
    await press(page, 'Stay');
    await expect.poll(() => dialogShown(page), POLL).toBe(false);
    expect(await pathname(page)).toBe('/settings');
    expect(await valueOf(page, 'Name')).toBe('Desi Gner Typed');

    // Browser back asks as well (to another tab of the page, whose panel replaces this one).
    await page.evaluate(() => history.back());
    await findByRole(page, 'alertdialog', 'Leave this page?');
    await press(page, 'Stay');
    await expect.poll(() => dialogShown(page), POLL).toBe(false);
    expect(await page.evaluate(() => location.hash)).toBe('#/profile');
    expect(await valueOf(page, 'Name')).toBe('Desi Gner Typed');

    // "Leave" goes.
    await clickHeaderDashboard(page);
    await press(page, 'Leave');
    await expect.poll(() => pathname(page), POLL).toBe('/dashboard');

    // A reload with typed changes: the browser's own prompt (accepted: the page reloads).
    await page.goto(`${stack().url}/settings#/profile`, { waitUntil: 'networkidle0' });
    await fillField(page, 'Name', 'Desi Gner Reloaded');
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.type());
      void dialog.accept();
    });
    await page.reload({ waitUntil: 'networkidle0' });
    expect(dialogs).toEqual(['beforeunload']);

    // Saved: nothing to ask.
    await fillField(page, 'Name', 'Desi Gner Saved');
    await press(page, 'Save contact details');
    await waitForText(page, 'Your contact details were saved.');
    await clickHeaderDashboard(page);
    await expect.poll(() => pathname(page), POLL).toBe('/dashboard');
    expect(await dialogShown(page)).toBe(false);
    await page.close();
  });

  it('asks before leaving the editor while a change is not saved', async () => {
    const { page, client } = await freshUser('unsaved-editor');
    const design = await createDesign(client, { title: 'Unsaved changes' });
    // The editor's saves are held back, so the change stays unsaved as long as the test wants.
    const held: HTTPRequest[] = [];
    let holding = true;
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      if (request.isInterceptResolutionHandled()) return;
      if (holding && request.method() === 'PUT' && request.url().includes('/api/pic-snippet/'))
        held.push(request);
      else void request.continue();
    });
    await page.goto(`${stack().url}/pic-snippet/${design.id}/edit`, {
      waitUntil: 'networkidle0',
    });
    await page.waitForSelector('[data-testid="editor-canvas"] .canvas-container');
    await press(page, 'Add text snippet');

    await clickHeaderDashboard(page);
    await findByRole(page, 'alertdialog', 'Leave this page?');
    await press(page, 'Stay');
    await expect.poll(() => dialogShown(page), POLL).toBe(false);
    expect(await pathname(page)).toBe(`/pic-snippet/${design.id}/edit`);

    // The save goes through: leaving no longer asks.
    holding = false;
    for (const request of held.splice(0)) void request.continue();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="save-state"]')?.textContent?.includes('Saved'),
      { timeout: TIMEOUT_MS },
    );
    await clickHeaderDashboard(page);
    await expect.poll(() => pathname(page), POLL).toBe('/dashboard');
    expect(await dialogShown(page)).toBe(false);
    await page.close();
  });
});
