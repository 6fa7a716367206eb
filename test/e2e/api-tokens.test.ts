/// <reference lib="dom" />
/**
 * API tokens through the built SPA in headless Chromium (docs/developer-api.md "Tokens": "Security and tokens";
 * docs/decisions.md "API tokens"): a token created in Settings → Security is shown once, works as
 * `Authorization: Bearer` on the API from outside the browser, shows when it was last used, and
 * answers 401 once revoked in the UI. Screenshots land in test-results/e2e-tokens-*.png.
 *
 * @own-stack: lists the demo user's API tokens from none, which other files create.
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
    await findByRole(page, 'tab', 'Security');
    await expect
      .poll(
        () => page.$eval(byRole('tab', 'Security'), (el) => el.getAttribute('aria-selected')),
        POLL,
      )
      .toBe('true');

    // The default ability (read) is ticked, the other is not (docs/decisions.md "API tokens": abilities with a
    // default flag).
    const read = await findByRole(page, 'checkbox', 'Read designs, images and settings');
    const write = await findByRole(
      page,
      'checkbox',
      'Create and change designs, images and settings',
    );
    expect(await read.evaluate((el) => (el as HTMLInputElement).checked)).toBe(true);
    expect(await write.evaluate((el) => (el as HTMLInputElement).checked)).toBe(false);

    // Create: the plain token is shown, and focus goes to it.
    await fillField(page, 'Token name', 'Shop sync');
    await press(page, 'Create token');
    await waitForText(page, 'Token “Shop sync” created');
    const token = await shownToken(page);
    expect(token).toMatch(/^pst_[\w-]{40,}$/);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ''), POLL)
      .toContain('this is the only time it is shown');
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
    await waitForText(page, 'You have no API tokens yet.');
    // The Delete button went with the row: focus is on the outcome, not lost.
    await expect
      .poll(
        () =>
          page.evaluate(() =>
            document.activeElement === document.body
              ? ''
              : (document.activeElement?.textContent ?? ''),
          ),
        POLL,
      )
      .toContain('The token “Shop sync” was deleted.');
    await snap(page, 'e2e-tokens-4-deleted');

    // The same call now answers 401.
    const after = await currentUserWith(token);
    expect(after.status).toBe(401);
    expect(after.body.message).toBe('Invalid API token.');
    await context.close();
  });
});
