/// <reference lib="dom" />
/**
 * A design's analytics through the built SPA (docs/analytics.md "The report"): recipients open
 * the design's render URL on a phone, through Gmail's proxy and on a desktop, one clicks
 * through its link; the local CDN log is rolled up; the owner opens the design, follows
 * "Analytics", reads the totals, the chart's numbers and the breakdowns, and exports the CSV;
 * then puts the design in a campaign and reads the campaign's analytics and the campaigns list.
 * The page's states and labels are component tests (web/src/pages/DesignAnalyticsPage.test.tsx).
 * Screenshots land in test-results/e2e-analytics-*.png.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rollUpLocalAnalytics } from '#infra/local/analytics.ts';
import { VIEWER_COUNTRY_HEADER } from '#functions/render/rule-context.ts';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import {
  OWN_TEAM_PASSWORD,
  currentTeamId,
  demoDesignCopyIn,
  ownTeam,
  uniqueEmail,
} from '../support/designs.ts';
import { POLL, byRole, findByRole, press, signIn, snap, waitForText } from '../support/aria.ts';

const stack = useLocalStack({ web: 'preview', warmChromium: false });
const browser = useTestBrowser();

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1';
const DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36';
const GMAIL =
  'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';

describe('design analytics', () => {
  it('shows every open, proxy fetch and click of a campaign, and exports them as CSV', async () => {
    const base = stack().url;
    const email = uniqueEmail('analytics-e2e');
    const owner = await ownTeam(base, email);
    const design = await demoDesignCopyIn(await currentTeamId(owner));
    const linked = await owner.request('PUT', `/api/pic-snippet/${design.designId}/link`, {
      version: 1,
      html_link_url: 'https://shop.example/offer',
    });
    expect(linked.status).toBe(200);
    const open = async (path: string, agent: string, country?: string) => {
      const res = await fetch(`${base}${path}`, {
        headers: { 'user-agent': agent, ...(country ? { [VIEWER_COUNTRY_HEADER]: country } : {}) },
        redirect: 'manual',
      });
      await res.arrayBuffer();
    };
    await open(`${design.render}?first_name=Ana`, IPHONE, 'FR');
    await open(`${design.render}?first_name=Ana`, IPHONE, 'FR');
    await open(`${design.render}?first_name=Ben`, GMAIL, 'US');
    await open(`${design.render}?first_name=Cy`, DESKTOP, 'DE');
    await open(`/l/${design.publicId}?first_name=Ana`, IPHONE, 'FR');
    await rollUpLocalAnalytics();

    const downloads = await mkdtemp(join(tmpdir(), 'analytics-e2e-'));
    const context = await browser().createBrowserContext({
      downloadBehavior: { policy: 'allow', downloadPath: downloads },
    });
    try {
      const page = await context.newPage();
      await page.setViewport({ width: 1280, height: 900 });
      await signIn(page, base, email, OWN_TEAM_PASSWORD);
      await page.goto(`${base}/pic-snippet/${design.designId}`, { waitUntil: 'networkidle0' });
      await press(page, 'Analytics', 'link');
      await page.waitForFunction(() => location.pathname.endsWith('/analytics'));
      await findByRole(page, 'heading', 'Analytics: Welcome');
      // The totals as a recipient's campaign made them: 3 opens (one a CDN hit), 1 proxy
      // fetch, 1 click of 4 impressions, 3 recipients.
      const tiles = async () =>
        page.$$eval('.analytics-tile', (els) =>
          els.map((el) => [
            el.querySelector('dt')?.textContent ?? '',
            el.querySelector('.analytics-tile__value')?.textContent ?? '',
          ]),
        );
      await expect.poll(tiles, POLL).toEqual([
        ['Opens', '3'],
        ['Mail-proxy fetches', '1'],
        ['Clicks', '1'],
        ['Click-through rate', '25%'],
        ['Recipients', '3'],
        ['CDN hit ratio', '20%'],
      ]);
      await waitForText(page, 'Gmail');
      await waitForText(page, 'France');
      await snap(page, 'e2e-analytics-1-report');

      // The chart's numbers, opened.
      await page.click('summary');
      const today = new Date().toISOString().slice(0, 10);
      // Today's row, by the column names: the numbers the tiles sum.
      const todayRow = await page.$eval(
        'details table',
        (table, day) => {
          const names = Array.from(
            table.querySelectorAll('thead th'),
            (th) => th.textContent ?? '',
          );
          const row = table.querySelector(`time[datetime="${day as string}"]`)?.closest('tr');
          const cells = row ? Array.from(row.querySelectorAll('th, td'), (c) => c.textContent) : [];
          return Object.fromEntries(names.map((name, i) => [name, cells[i] ?? null]));
        },
        today,
      );
      expect(todayRow).toMatchObject({ Opens: '3', 'Mail-proxy fetches': '1', Clicks: '1' });
      await snap(page, 'e2e-analytics-2-numbers');

      await press(page, 'Export CSV');
      await expect
        .poll(async () => (await readdir(downloads)).filter((f) => f.endsWith('.csv')), POLL)
        .toHaveLength(1);
      const [file] = (await readdir(downloads)).filter((f) => f.endsWith('.csv'));
      expect(file).toMatch(new RegExp(`^analytics-${design.designId}-`));
      const csv = await readFile(join(downloads, file!), 'utf8');
      const lines = csv.trim().split(/\r?\n/);
      expect(lines[0]).toBe('period,opens,proxy_fetches,clicks,cdn_hits,recipients');
      expect(lines).toContain(`${today},3,1,1,1,3`);

      // The design joins a campaign on its page; the campaign's analytics add its counts up.
      await page.goto(`${base}/pic-snippet/${design.designId}`, { waitUntil: 'networkidle0' });
      await page.locator(byRole('combobox', 'Campaign name')).fill('Spring sale');
      await press(page, 'Save campaign');
      await waitForText(page, 'Saved: in Spring sale.');
      await snap(page, 'e2e-analytics-3-campaign-field');
      await press(page, 'Analytics of the campaign Spring sale', 'link');
      await findByRole(page, 'heading', 'Campaign: Spring sale');
      await expect.poll(tiles, POLL).toContainEqual(['Opens', '3']);
      await findByRole(page, 'link', 'Welcome');
      await snap(page, 'e2e-analytics-4-campaign-report');
      await press(page, 'Campaigns', 'link');
      await findByRole(page, 'heading', 'Campaigns');
      await findByRole(page, 'link', 'Spring sale');
      await snap(page, 'e2e-analytics-5-campaigns');
    } finally {
      await context.close();
      await rm(downloads, { recursive: true, force: true });
    }
  });
});
