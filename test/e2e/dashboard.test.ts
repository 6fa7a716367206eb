/// <reference lib="dom" />
/**
 * The dashboard, the create page and the show page through the built SPA in headless Chromium
 * (docs/adr/0020-dashboard-spa.md "Dashboard SPA" Dashboard and routes,
 * docs/adr/0018-design-lists.md "Design lists" design states, docs/adr/0019-design-api-shapes.md
 * "Design API shapes": "Dashboard lists" and "Design actions"; docs/adr/0019-design-api-shapes.md
 * "Design API shapes"): the demo user creates a design from a library picture through the picker,
 * it is renamed, cloned, archived and activated again, and after 40 more designs the list sorted by
 * name scrolls to "No more results" with every design in the server's order. Screenshots land in
 * test-results/e2e-dashboard-*.png. What one component shows is in the component tests: the cards,
 * the actions from the keyboard with focus kept in place, the 4-second flash and a frozen team's
 * disabled actions (web/src/features/dashboard/DesignList.test.tsx), the tag filter and the frozen
 * notice (web/src/pages/DashboardPage.test.tsx), the PDF view (DesignViewer.test.tsx) and the
 * not-found state of the show page, the editor and the export screen (DesignNotFound.test.tsx).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import type { TestClient } from '../support/client.ts';
import { createDesign, signedIn } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import {
  byRole,
  findByRole,
  press,
  signIn,
  snap,
  textOf,
  TIMEOUT_MS,
  waitForText,
} from '../support/aria.ts';

// The render service draws the previews: it needs its warm Chromium.
const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();

const DEMO = { email: 'demo@example.com', password: 'demo-password' };
/** How many designs the scroll check adds (docs/adr/0019-design-api-shapes.md "Design API shapes""sort and scroll through 40 designs"). */
const SEEDED = 40;
/** Words for the seeded titles, so the name order differs from the creation order. */
const WORDS = ['Kite', 'Amber', 'Harbour', 'Dune', 'Meadow', 'Ember', 'Cobalt', 'Juniper'];

/** The title of every card of the list on screen, in order. */
const cardTitles = (page: Page) =>
  page.$$eval('[data-testid="design-card"] h3', (titles) =>
    titles.map((t) => (t as HTMLElement).innerText.trim()),
  );

/** The titles of a list as the API pages it (following `cursor`), for comparison. */
async function apiTitles(client: TestClient, list: string, sortby: string): Promise<string[]> {
  const titles: string[] = [];
  let query = `sortby=${sortby}&page=1`;
  for (;;) {
    const res = await client.request('GET', `/get${list}?${query}`);
    expect(res.status).toBe(200);
    const page = res.json[list.toLowerCase()] as {
      data: { title: string }[];
      next_page: number | null;
      cursor: string | null;
    };
    titles.push(...page.data.map((d) => d.title));
    if (page.next_page === null) return titles;
    query = `sortby=${sortby}&page=${page.next_page}&cursor=${encodeURIComponent(page.cursor ?? '')}`;
  }
}

/** Waits until a card titled `title` is listed (lists load after each view or sort change). */
const waitForCard = (page: Page, title: string) =>
  page.waitForFunction(
    (t) =>
      Array.from(document.querySelectorAll('[data-testid="design-card"] h3')).some(
        (h) => h.textContent === t,
      ),
    {},
    title,
  );

/** Waits until no card titled `title` is listed (it left the list). */
const waitForCardGone = (page: Page, title: string) =>
  page.waitForFunction(
    (t) =>
      !Array.from(document.querySelectorAll('[data-testid="design-card"] h3')).some(
        (h) => h.textContent === t,
      ),
    {},
    title,
  );

/** Waits until the flash (role=status, docs/adr/0018-design-lists.md "Design lists") reads `text`. */
async function waitForFlash(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    (t) =>
      document.querySelector('[role="status"] [data-testid="flash"]')?.textContent?.includes(t),
    { timeout: TIMEOUT_MS },
    text,
  );
}

/** Waits until every preview image on the page has loaded (the render service drew it). */
const waitForImages = (page: Page) =>
  page.waitForFunction(
    () =>
      Array.from(document.images).every((img) => img.complete && img.naturalWidth > 0) &&
      document.images.length > 0 &&
      !document.querySelector('.design-card__preview--loading'),
    { timeout: 30_000 },
  );

describe('dashboard', () => {
  it(
    'creates from a library picture, renames, clones, archives, activates, and scrolls 40 sorted designs',
    { timeout: 300_000 },
    async () => {
      const page = await browser().newPage();
      await page.setViewport({ width: 1280, height: 900 });
      page.setDefaultTimeout(TIMEOUT_MS);
      const base = stack().url;
      const api = await signedIn(base, DEMO.email);

      await signIn(page, base, DEMO.email, DEMO.password);

      // The header has a Dashboard link for a signed-in user.
      await page.locator(byRole('link', 'Dashboard')).click();
      await page.waitForFunction(() => location.pathname === '/dashboard');
      await findByRole(page, 'tab', 'Active PicSnippets');
      await page.waitForSelector('[data-testid="design-card"]', { timeout: TIMEOUT_MS });
      await waitForImages(page);
      await snap(page, 'e2e-dashboard-1-list');

      // Create a new PicSnippet → the library picker → "Use this Pic".
      await page.locator(byRole('link', 'Create a new PicSnippet')).click();
      await page.waitForFunction(() => location.pathname === '/pic-snippet/create');
      await page.waitForSelector('[data-testid="picture-card"]', { timeout: TIMEOUT_MS });
      const picture = await page.$eval('[data-testid="picture-card"] h2', (h) => h.textContent!);
      const credit = await page.$eval('[data-testid="picture-card"]', (c) => c.textContent!);
      expect(credit).toMatch(/Photo by \S/);
      await waitForImages(page);
      await snap(page, 'e2e-dashboard-2-picker');
      await page.locator(byRole('link', `Use this Pic ${picture}`)).click();

      // The design is created and opens in the editor, the create address replaced.
      await page.waitForFunction(
        () => /^\/pic-snippet\/design-[^/]+\/edit$/.test(location.pathname),
        { timeout: TIMEOUT_MS },
      );
      const designId = decodeURIComponent(page.url().split('/pic-snippet/')[1]!.split('/edit')[0]!);
      await page.waitForSelector(byRole('textbox', 'Design title'), { timeout: TIMEOUT_MS });
      await snap(page, 'e2e-dashboard-3a-created-editor');
      // Its show page: the render URL and the preview.
      await page.goto(`${base}/pic-snippet/${encodeURIComponent(designId)}`, {
        waitUntil: 'domcontentloaded',
      });
      expect(await textOf(await findByRole(page, 'heading', picture))).toBe(picture);
      const renderUrl = await page.$eval(
        '[data-testid="render-url"]',
        (el) => (el as HTMLInputElement).value,
      );
      expect(renderUrl).toMatch(new RegExp(`^${base}/r/[\\w-]+$`));
      await waitForImages(page);
      const shown = await page.$eval('[data-testid="design-preview"]', (img) => ({
        width: (img as HTMLImageElement).naturalWidth,
        alt: (img as HTMLImageElement).alt,
      }));
      expect(shown.width).toBeGreaterThan(100);
      expect(shown.alt).toBe(picture);
      await snap(page, 'e2e-dashboard-3-show');

      // Rename through the API (the editor renames; docs/editor.md "Editing rules"), then the page
      // shows it.
      const title = 'E2E Spring sale';
      const renamed = await api.request('PUT', `/api/pic-snippet/${encodeURIComponent(designId)}`, {
        title,
      });
      expect(renamed.status).toBe(200);
      await page.reload({ waitUntil: 'networkidle0' });
      await findByRole(page, 'heading', title);

      // Clone: the copy opens, titled "Copy of - …" (docs/editor.md "Editing rules").
      await press(page, 'Clone');
      await page.waitForFunction((id) => !location.pathname.endsWith(id), {}, designId);
      // The flash first: it goes after 4 s, while the heading stays.
      await waitForFlash(page, `“${title}” was cloned`);
      await findByRole(page, 'heading', `Copy of - ${title}`);
      await snap(page, 'e2e-dashboard-4-clone');

      // Archive from the dashboard card; the flash confirms and the card leaves the list.
      await page.locator(byRole('link', 'Dashboard')).click();
      await page.waitForFunction(() => location.pathname === '/dashboard');
      await waitForCard(page, title);
      await waitForCard(page, `Copy of - ${title}`);
      await press(page, `Archive ${title}`);
      await waitForFlash(page, `“${title}” was archived.`);
      await waitForCardGone(page, title);
      await snap(page, 'e2e-dashboard-5-archived-flash');

      // The Archive view (kept in ?view=archived) lists it; Activate brings it back.
      await press(page, 'Archive', 'tab');
      await page.waitForFunction(() => location.search.includes('view=archived'));
      await waitForCard(page, title);
      await press(page, `Activate ${title}`);
      await waitForFlash(page, `“${title}” is active again.`);
      await waitForCardGone(page, title);
      await snap(page, 'e2e-dashboard-6-activated-flash');

      // 40 more designs, created in an order unlike their names.
      const seeded = Array.from(
        { length: SEEDED },
        (_, i) =>
          `Seed ${WORDS[(i * 5) % WORDS.length]} ${String((i * 17) % SEEDED).padStart(2, '0')}`,
      );
      for (const name of seeded) await createDesign(api, { title: name });

      // Sort by name (kept in ?sortby=name) and scroll until "No more results".
      await press(page, 'Active PicSnippets', 'tab');
      await page.waitForSelector('[data-testid="design-card"]');
      const expected = await apiTitles(api, 'Active', 'name');
      await page.select('select[name="sortby"]', 'name');
      await page.waitForFunction(() => location.search.includes('sortby=name'));
      await page.waitForFunction(
        (t) => document.querySelector('[data-testid="design-card"] h3')?.textContent === t,
        {},
        expected[0],
      );
      // Scroll down as a user does; each time the sentinel nears the viewport a page loads.
      let pages = 1;
      while (!(await page.$('[data-testid="list-end"]'))) {
        const shown = (await cardTitles(page)).length;
        await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
        await page.waitForFunction(
          (n) =>
            document.querySelector('[data-testid="list-end"]') !== null ||
            document.querySelectorAll('[data-testid="design-card"]').length > n,
          { timeout: 30_000 },
          shown,
        );
        pages++;
        expect(pages, 'pages loaded by scrolling').toBeLessThan(10);
      }
      await waitForText(page, 'No more results');
      const titles = await cardTitles(page);
      expect(titles.length).toBeGreaterThanOrEqual(SEEDED + 2);
      expect(titles).toEqual(expected);
      expect(titles).toEqual(expect.arrayContaining(seeded));
      const seededInOrder = titles.filter((t) => seeded.includes(t));
      expect(seededInOrder).toEqual([...seeded].sort((a, b) => a.localeCompare(b)));
      await snap(page, 'e2e-dashboard-10-sorted-end');

      // A reload keeps the sort.
      // (Previews may still be rendering: wait for the page, not for an idle network.)
      await page.reload({ waitUntil: 'domcontentloaded' });
      await page.waitForSelector('[data-testid="design-card"]', { timeout: 30_000 });
      expect(await page.$eval('select[name="sortby"]', (s) => (s as HTMLSelectElement).value)).toBe(
        'name',
      );
      await page.close();
    },
  );
});
