/// <reference lib="dom" />
/**
 * The bell, the notifications panel and the support dialog through the built SPA in headless
 * Chromium (docs/notifications.md "The bell and the panel": "Other", docs/billing.md "Flows":
 * "Notification panel", docs/accounts.md "Error answers in the SPA": "Support success";
 * docs/notifications.md): an existing user invited to the demo team sees the bell's pending marker,
 * opens the panel from the keyboard, reads the invitation's notification, toggles to the
 * announcements (an admin's Markdown, its action link), closes with Escape (focus back on the bell,
 * the marker gone), then writes to support and sees 'Got It!'. Screenshots land in
 * test-results/e2e-notifications-*.png.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'puppeteer-core';
import { db } from '#lib/db/index.ts';
import { SUPPORT_MESSAGES } from '#shared/contract/notifications.ts';
import { TestClient } from '../support/client.ts';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import {
  POLL,
  TIMEOUT_MS,
  byRole,
  fillField,
  findByRole,
  listText,
  press,
  signIn,
  snap,
  waitForText,
} from '../support/aria.ts';

const stack = useLocalStack({ web: 'preview', warmChromium: false });
const browser = useTestBrowser();

const PASSWORD = 'lantern-orchard-73';
const USER = { name: 'Noah Notified', email: `noah-${randomUUID().slice(0, 8)}@example.org` };

/** The bell's accessible name: "Notifications", with " (new)" while something is unread. */
const bellName = (page: Page) =>
  page.evaluate(() => {
    const bell = document.querySelector<HTMLButtonElement>('button.bell');
    return bell ? bell.innerText.trim() : '';
  });

/** Whether the focused element is the bell. */
const bellFocused = (page: Page) =>
  page.evaluate(() => document.activeElement?.classList.contains('bell') ?? false);

/** Presses Tab until the focused element is the bell (at most 30 times). */
async function tabToBell(page: Page): Promise<void> {
  for (let i = 0; i < 30 && !(await bellFocused(page)); i++) await page.keyboard.press('Tab');
  expect(await bellFocused(page), 'the bell is reachable with Tab').toBe(true);
}

describe('the bell, the panel and support', () => {
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  const user = (): Page => {
    if (!page) throw new Error('no page: an earlier step failed');
    return page;
  };
  afterAll(async () => {
    await context?.close();
  });

  it('shows the pending marker for an invitation and an announcement', async () => {
    // The user registers (API), proves the address, and is invited by the demo team's owner.
    const c = new TestClient(stack().url);
    const registered = await c.request('POST', '/register', {
      name: USER.name,
      email: USER.email,
      team: 'Noah Team',
      password: PASSWORD,
      password_confirmation: PASSWORD,
      terms: true,
      plan: 'free',
    });
    expect(registered.status).toBe(201);
    const userId = (await c.request('GET', '/user/current')).json.id as string;
    await db().User.patch({ userId }).set({ emailVerifiedAt: new Date().toISOString() }).go();
    const owner = new TestClient(stack().url);
    expect((await owner.login('demo@example.com')).status).toBe(200);
    const invited = await owner.request('POST', '/settings/companies/team-demo/invitations', {
      email: USER.email,
    });
    expect(invited.status).toBe(201);
    // An admin's announcement (the kiosk writes them through the same entity).
    await db()
      .Announcement.create({
        announcementId: `announcement-${randomUUID()}`,
        body: 'Our **autumn templates** are here.',
        actionText: 'Read more',
        actionUrl: 'https://example.com/autumn',
      })
      .go();

    context = await browser().createBrowserContext();
    page = await context.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await signIn(page, stack().url, USER.email, PASSWORD);
    await expect.poll(() => bellName(user()), POLL).toBe('Notifications (new)');
  });

  it('opens the panel with the keyboard, toggles to the announcements, Escape closes it', async () => {
    const p = user();
    await tabToBell(p);
    await p.keyboard.press('Enter');
    const dialog = await findByRole(p, 'dialog', 'Notifications');
    await expect
      .poll(() => listText(p, 'Notifications'), POLL)
      .toContain('Dana Demo invited you to join Demo Team as a member.');
    expect(await listText(p, 'Notifications')).toContain('New');
    await findByRole(p, 'link', 'View invitation');
    await snap(p, 'e2e-notifications-1-panel');

    // The toggle has focus first; Tab moves to "Announcements", Space presses it.
    await expect
      .poll(() => p.evaluate(() => document.activeElement?.textContent ?? ''), POLL)
      .toBe('Notifications');
    await p.keyboard.press('Tab');
    await p.keyboard.press('Space');
    await expect
      .poll(() => listText(p, 'Announcements'), POLL)
      .toContain('Our autumn templates are here.');
    const strong = await dialog.$('strong');
    expect(await strong?.evaluate((el) => el.textContent)).toBe('autumn templates');
    const link = await findByRole(p, 'link', 'Read more');
    expect(await link.evaluate((el) => [el.getAttribute('href'), el.getAttribute('rel')])).toEqual([
      'https://example.com/autumn',
      'noopener noreferrer',
    ]);
    await snap(p, 'e2e-notifications-2-announcements');

    await p.keyboard.press('Escape');
    await p.waitForSelector(byRole('dialog', 'Notifications'), {
      hidden: true,
      timeout: TIMEOUT_MS,
    });
    await expect.poll(() => bellFocused(p), POLL).toBe(true);
    // Both were read: the marker goes.
    await expect.poll(() => bellName(p), POLL).toBe('Notifications');
  });

  it('the notification’s action link leads to the invitation', async () => {
    const p = user();
    await p.keyboard.press('Enter');
    await findByRole(p, 'dialog', 'Notifications');
    await press(p, 'View invitation', 'link');
    await p.waitForFunction(
      () => location.pathname === '/settings' && location.hash === '#/companies',
      {
        timeout: TIMEOUT_MS,
      },
    );
    await p.waitForSelector(byRole('dialog', 'Notifications'), {
      hidden: true,
      timeout: TIMEOUT_MS,
    });
    await waitForText(p, 'Demo Team');
  });

  it('sends a support message and sees ‘Got It!’', async () => {
    const p = user();
    await press(p, 'Support');
    await findByRole(p, 'dialog', 'Contact support');
    await waitForText(p, USER.email);
    // Sending empty: the fields say what to enter.
    await press(p, 'Send message');
    await waitForText(p, SUPPORT_MESSAGES.subjectRequired);
    await fillField(p, 'Subject', 'Where are my templates?');
    await p.locator(byRole('textbox', 'Message')).fill('The Bonus tab is empty for my team.');
    await snap(p, 'e2e-notifications-3-support');
    await press(p, 'Send message');
    await findByRole(p, 'dialog', SUPPORT_MESSAGES.sentTitle);
    await waitForText(p, SUPPORT_MESSAGES.sent);
    await snap(p, 'e2e-notifications-4-support-sent');
    // The confirmation closes by itself.
    await p.waitForSelector(byRole('dialog', SUPPORT_MESSAGES.sentTitle), {
      hidden: true,
      timeout: TIMEOUT_MS,
    });
    const mails = (await (await fetch(`${stack().url}/__outbox.json`)).json()) as Array<{
      to: string;
      subject: string;
      headers?: Record<string, string>;
    }>;
    expect(mails.find((m) => m.subject === '[Support] Where are my templates?')).toMatchObject({
      to: 'support@picsnippets.local',
      headers: { 'Reply-To': USER.email },
    });
  });
});
