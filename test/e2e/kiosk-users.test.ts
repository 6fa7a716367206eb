/// <reference lib="dom" />
/**
 * The kiosk's Users and Teams tabs through the built SPA in headless Chromium (docs/kiosk.md
 * "Kiosk", docs/kiosk.md, docs/kiosk.md "Users, impersonation and discounts", "Teams and
 * additional permissions"): the admin searches users, opens a profile, goes back with Esc to
 * the search as it was, impersonates the user, sees the banner on another page, stops and is
 * the admin again on the user's profile; then finds a team and saves its permissions.
 * Screenshots land in test-results/e2e-kiosk-*.png.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'puppeteer-core';
import { KIOSK_USER_MESSAGES } from '#shared/contract/kiosk-users.ts';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import {
  POLL,
  TIMEOUT_MS,
  byRole,
  fillField,
  findByRole,
  press,
  snap,
  waitForText,
  openKiosk,
  search,
} from '../support/aria.ts';

const stack = useLocalStack({ web: 'preview', warmChromium: false });
const browser = useTestBrowser();

const BANNER = 'You (Ada Admin) are impersonating Dana Demo';

// One story in steps that build on each other (vitest runs them in order).
describe('kiosk users and teams', () => {
  let context: BrowserContext | undefined;
  let admin: Page | undefined;
  const page = (): Page => {
    if (!admin) throw new Error('no page: an earlier step failed');
    return admin;
  };
  afterAll(async () => {
    await context?.close();
  });

  it('searches users and opens a profile', async () => {
    context = await browser().createBrowserContext();
    admin = await context.newPage();
    await admin.setViewport({ width: 1280, height: 900 });
    await openKiosk(admin, stack().url, 'users');
    await search(admin, 'Search users by name or e-mail', 'dana');
    await findByRole(admin, 'link', 'Dana Demo');
    await waitForText(admin, '1 user found');
    await snap(admin, 'e2e-kiosk-1-users');

    await press(admin, 'Dana Demo', 'link');
    await admin.waitForFunction(() => location.hash === '#/users/user-demo');
    await findByRole(admin, 'heading', 'Teams, plans and subscriptions');
    await waitForText(admin, 'Demo Team');
    await waitForText(admin, 'Billing is offline (no Stripe key is configured)');
    await snap(admin, 'e2e-kiosk-2-profile');
  });

  it('Esc goes back to the search, query kept', async () => {
    const p = page();
    await p.keyboard.press('Escape');
    await p.waitForFunction(() => location.hash === '#/users');
    const kept = await p.$eval(byRole('searchbox', 'Search users by name or e-mail'), (el) =>
      'value' in el ? String(el.value) : '',
    );
    expect(kept).toBe('dana');
    await findByRole(p, 'link', 'Dana Demo');
  });

  it('impersonates: the banner shows on every page; stopping brings the admin back', async () => {
    const p = page();
    await press(p, 'Dana Demo', 'link');
    await press(p, 'Impersonate Dana Demo');
    await p.waitForFunction(() => location.pathname === '/dashboard', { timeout: TIMEOUT_MS });
    await waitForText(p, BANNER);
    // Another page: still there, and the kiosk link is gone (Dana is no admin).
    await p.goto(`${stack().url}/settings#/profile`, { waitUntil: 'networkidle0' });
    await waitForText(p, BANNER);
    expect(await p.$(byRole('link', 'Kiosk'))).toBeNull();
    // The password can't be changed while impersonating: the form says why and is disabled.
    await waitForText(p, KIOSK_USER_MESSAGES.readOnlyWhileImpersonating);
    const changePassword = await findByRole(p, 'button', 'Change password');
    expect(
      await changePassword.evaluate((el) => (el as HTMLButtonElement).matches(':disabled')),
    ).toBe(true);
    await snap(p, 'e2e-kiosk-3-impersonating');

    await press(p, 'Stop impersonating');
    await p.waitForFunction(
      () => location.pathname === '/spark/kiosk' && location.hash === '#/users/user-demo',
      { timeout: TIMEOUT_MS },
    );
    await findByRole(p, 'link', 'Kiosk');
    await findByRole(p, 'heading', 'Impersonations');
    await waitForText(p, 'Ada Admin (admin@example.com)');
    expect(await p.evaluate(() => document.body.innerText.includes('are impersonating'))).toBe(
      false,
    );
  });

  it('finds a team and saves its additional permissions', async () => {
    const p = page();
    await press(p, 'Teams', 'tab');
    await p.waitForFunction(() => location.hash === '#/teams');
    await search(p, 'Search teams by name', 'demo');
    await press(p, 'Demo Team', 'link');
    await findByRole(p, 'heading', 'Additional permissions');
    await waitForText(p, 'Dana Demo');
    await fillField(p, 'Additional PicSnippets', '3');
    await press(p, 'Save the permissions');
    await waitForText(p, 'The permissions are saved.');
    await expect
      .poll(
        () =>
          p.$eval(byRole('textbox', 'Additional PicSnippets'), (el) =>
            'value' in el ? String(el.value) : '',
          ),
        POLL,
      )
      .toBe('3');
    await snap(p, 'e2e-kiosk-4-team');
  });
});
