/// <reference lib="dom" />
/**
 * API tokens through the built SPA in headless Chromium (docs/developer-api.md "Tokens": "Security
 * and tokens"; docs/adr/0010-api-tokens.md "API tokens"): a token created in Settings → Security is
 * shown once, works as `Authorization: Bearer` on the API from outside the browser, shows when it
 * was last used, and answers 401 once revoked in the UI. Screenshots land in
 * test-results/e2e-tokens-*.png. What the section shows on its own (the default abilities ticked,
 * focus on the shown token and on the outcome of a delete, the empty list) is in
 * web/src/features/settings/ApiTokensSection.test.tsx.
 *
 * @own-stack: reads the demo user's API tokens ("Shop sync", its last use), which other files create and use.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import {
  POLL,
  byRole,
  findByRole,
  listText,
  press,
  fillField,
  signIn,
  snap,
  waitForText,
} from '../support/aria.ts';

const stack = useLocalStack({ web: 'preview', warmChromium: false });
const browser = useTestBrowser();

/** `GET /user/current` from node (not the browser: no cookies), with the token as Bearer. */
async function currentUserWith(token: string) {
  const res = await fetch(`${stack().url}/user/current`, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  });
  return { status: res.status, body: (await res.json()) as { email?: string; message?: string } };
}

/** The value of the read-only field that shows the new token. */
const shownToken = async (page: Page) =>
  (await findByRole(page, 'textbox', 'New API token')).evaluate(
    (el) => (el as HTMLInputElement).value,
  );

describe('API tokens', () => {
  it('creates a token shown once, calls the API with it, revokes it → 401', async () => {
    const context = await browser().createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await signIn(page, stack().url, 'demo@example.com', 'demo-password');
    await page.goto(`${stack().url}/settings#/security`, { waitUntil: 'networkidle0' });
    // Create with the default ability (read): the plain token is shown.
    await fillField(page, 'Token name', 'Shop sync');
    await press(page, 'Create token');
    await waitForText(page, 'Token “Shop sync” created');
    const token = await shownToken(page);
    expect(token).toMatch(/^pst_[\w-]{40,}$/);
    await expect.poll(() => listText(page, 'Your tokens'), POLL).toContain('Shop sync');
    await snap(page, 'e2e-tokens-1-created');

    // The API answers to the token, as the user who made it.
    const before = await currentUserWith(token);
    expect(before.status).toBe(200);
    expect(before.body.email).toBe('demo@example.com');

    // Shown once: after a reload the token is nowhere on the page; the list says it was used.
    await page.reload({ waitUntil: 'networkidle0' });
    await expect.poll(() => listText(page, 'Your tokens'), POLL).toContain('Last used');
    expect(await page.$(byRole('textbox', 'New API token'))).toBeNull();
    expect(await page.content()).not.toContain(token);
    await snap(page, 'e2e-tokens-2-listed');

    // Revoke in the UI, after confirming.
    await press(page, 'Delete Shop sync');
    const dialog = await findByRole(page, 'alertdialog', 'Delete this API token?');
    await snap(page, 'e2e-tokens-3-confirm');
    await (await dialog.waitForSelector(byRole('button', 'Delete token')))!.click();
    await waitForText(page, 'The token “Shop sync” was deleted.');
    await snap(page, 'e2e-tokens-4-deleted');

    // The same call now answers 401.
    const after = await currentUserWith(token);
    expect(after.status).toBe(401);
    expect(after.body.message).toBe('Invalid API token.');
    await context.close();
  });
});
