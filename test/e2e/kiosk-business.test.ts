/// <reference lib="dom" />
/**
 * The kiosk's announcements, metrics and cancel reasons through the built SPA in headless
 * Chromium (docs/kiosk.md "Kiosk", docs/accounts.md "Constants"; docs/kiosk.md): a platform admin
 * publishes an announcement (a link that is not http or https is refused on its field; raw
 * HTML in the Markdown is not rendered), reads the metrics of subscriptions stored as the Stripe
 * webhooks store them after the daily snapshot ran, and the cancel reasons with their comments.
 * Screenshots land in test-results/e2e-kiosk-*.png.
 *
 * @own-stack: the kiosk's metrics and cancel reasons count every team in the table.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'puppeteer-core';
import { db } from '#lib/db/index.ts';
import { runDailySnapshot } from '#functions/kiosk/snapshot.ts';
import { ANNOUNCEMENT_MESSAGES } from '#shared/contract/kiosk.ts';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import {
  POLL,
  descriptionOf,
  fillField,
  findByRole,
  listText,
  press,
  snap,
  waitForText,
  openKiosk,
} from '../support/aria.ts';

const stack = useLocalStack({ web: 'preview', warmChromium: false });
const browser = useTestBrowser();
const DAY_MS = 86_400_000;

/** A team on `planId` with its subscription record (what the webhook would have stored). */
async function subscribedTeam(
  teamId: string,
  planId: string,
  extra: { quantity?: number; cancelReason?: string; cancelDescription?: string } = {},
) {
  await db()
    .Team.create({ teamId, name: `Studio ${teamId}`, slug: teamId, ownerId: 'user-demo', planId })
    .go();
  await db()
    .Subscription.put({
      teamId,
      name: 'default',
      stripeId: `sub_${teamId}`,
      stripeCustomerId: `cus_${teamId}`,
      stripeStatus: 'active',
      stripePriceId: `price_${planId}`,
      planId,
      quantity: extra.quantity ?? 1,
      eventAt: Math.floor(Date.now() / 1000),
      currentPeriodEnd: new Date(Date.now() + 40 * DAY_MS).toISOString(),
      ...(extra.cancelReason
        ? {
            cancelReason: extra.cancelReason,
            cancelDescription: extra.cancelDescription ?? '',
            endsAt: new Date(Date.now() + 10 * DAY_MS).toISOString(),
          }
        : {}),
    })
    .go();
}

describe('the kiosk: announcements, metrics, cancel reasons', () => {
  let context: BrowserContext;
  let page: Page;

  afterAll(async () => {
    await context?.close();
  });

  it('publishes an announcement; a non-http link is refused on its field', async () => {
    context = await browser().createBrowserContext();
    page = await context.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await openKiosk(page, stack().url, 'announcements');
    await waitForText(page, 'No announcements yet.');

    await fillField(
      page,
      'Announcement',
      'PDF export is **live**. <script>window.pwned = 1</script> [Trick](javascript:alert(1))',
    );
    await fillField(page, 'Action text (optional)', 'See how');
    await fillField(page, 'Action link (optional)', 'javascript:alert(1)');
    await press(page, 'Publish announcement');
    await expect
      .poll(() => descriptionOf(page, 'textbox', 'Action link (optional)'), POLL)
      .toContain(ANNOUNCEMENT_MESSAGES.httpOnly);

    await fillField(page, 'Action link (optional)', 'https://example.com/pdf');
    await press(page, 'Publish announcement');
    await waitForText(page, 'The announcement was published.');
    await expect.poll(() => listText(page, 'Published'), POLL).toContain('PDF export is live.');
    const list = await findByRole(page, 'list', 'Published');
    const rendered = await list.evaluate((el) => ({
      strong: el.querySelector('strong')?.textContent,
      scripts: el.querySelectorAll('script').length,
      links: Array.from(el.querySelectorAll('a')).map((a) => [
        a.textContent,
        a.getAttribute('href'),
      ]),
    }));
    // Markdown rendered, raw HTML dropped, the javascript: link no link at all.
    expect(rendered).toEqual({
      strong: 'live',
      scripts: 0,
      links: [['See how', 'https://example.com/pdf']],
    });
    expect(await page.evaluate(() => 'pwned' in window)).toBe(false);
    await snap(page, 'e2e-kiosk-announcements');
  });

  it('shows the metrics of the stored subscriptions after the daily snapshot', async () => {
    await subscribedTeam('kiosk-starter', 'starter-monthly', { quantity: 3 });
    await subscribedTeam('kiosk-pro', 'pro-monthly');
    await runDailySnapshot();

    await page.goto(`${stack().url}/spark/kiosk#/metrics`, { waitUntil: 'networkidle0' });
    await waitForText(page, 'Recurring revenue, last 30 days');
    await waitForText(page, 'Right now');
    // 3 × $9 + $29 = $56 a month, $672 a year: the newest snapshot and today's figures.
    // Polled: the trial count's tile comes with its own answer, after the others (a clean-clone
    // run read the page with four of the five).
    const figures = () =>
      page.$$eval('.kiosk-figure', (els) =>
        els.map((el) => (el as HTMLElement).innerText.replace(/\s+/g, ' ')),
      );
    await expect
      .poll(figures, { timeout: 20_000, interval: 250 })
      .toEqual(
        expect.arrayContaining([
          expect.stringContaining('Monthly recurring revenue $56'),
          expect.stringContaining('Yearly recurring revenue $672'),
          expect.stringContaining('On a trial 0'),
        ]),
      );
    // The chart's numbers are in a table a screen reader can read, one row per day.
    await page.click('.kiosk-chart summary');
    const table = await findByRole(page, 'table', 'Recurring revenue, last 30 days');
    const rows = await table.evaluate((el) =>
      Array.from(el.querySelectorAll('tbody tr')).map((tr) => (tr as HTMLElement).innerText),
    );
    expect(rows).toHaveLength(30);
    expect(rows.at(-1)).toContain('$56');
    expect(rows[0]).toContain('not known');
    await snap(page, 'e2e-kiosk-metrics');
  });

  it('lists the cancel reasons with their comments', async () => {
    await subscribedTeam('kiosk-leaving', 'starter-monthly', {
      cancelReason: 'difficultyOfUse',
      cancelDescription: 'The editor was hard to learn.',
    });
    await page.goto(`${stack().url}/spark/kiosk#/cancel-reasons`, { waitUntil: 'networkidle0' });
    await waitForText(page, 'The editor was hard to learn.');
    const rows = await page.$$eval('.kiosk-table tbody tr', (trs) =>
      trs.map((tr) => (tr as HTMLElement).innerText.replace(/\s+/g, ' ').trim()),
    );
    expect(rows).toContain('It is difficult to use 1');
    expect(rows).toContain('It costs too much 0');
    await snap(page, 'e2e-kiosk-cancel-reasons');
  });
});
