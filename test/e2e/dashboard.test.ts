/// <reference lib="dom" />
/**
 * The dashboard, the create page and the show page through the built SPA in headless Chromium
 * (docs/decisions.md "Dashboard SPA" Dashboard and routes, docs/decisions.md "Design lists" design states and the 4-second flash, docs/decisions.md "Design API shapes": "Dashboard
 * lists" and "Design actions"; docs/decisions.md "Design API shapes"): the demo user creates a design from a library
 * picture through the picker, it is renamed, cloned, archived and activated again, and after
 * 40 more designs the list sorted by name scrolls to "No more results" with every design in
 * the server's order. Screenshots land in test-results/e2e-dashboard-*.png.
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
  POLL,
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
/** How many designs the scroll check adds (docs/decisions.md "Design API shapes""sort and scroll through 40 designs"). */
const SEEDED = 40;
/** The flash's duration, ms (docs/decisions.md "Design lists"), and the slack allowed around it. */
const FLASH_MS = 4000;
const FLASH_SLACK_MS = 500;
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

/** Waits until the flash (role=status, docs/decisions.md "Design lists") reads `text`. */
async function waitForFlash(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    (t) =>
      document.querySelector('[role="status"] [data-testid="flash"]')?.textContent?.includes(t),
    { timeout: TIMEOUT_MS },
    text,
  );
}

/**
 * Starts timing the flash in the page itself (so the test's own pauses, like a screenshot, do
 * not count): records when a flash element appears and when it goes, in ms.
 */
const timeFlash = (page: Page) =>
  page.evaluate(() => {
    const log: { shown?: number; gone?: number } = {};
    (window as unknown as { flashLog: typeof log }).flashLog = log;
    const observer = new MutationObserver(() => {
      const present = document.querySelector('[data-testid="flash"]') !== null;
      if (present && log.shown === undefined) log.shown = performance.now();
      if (!present && log.shown !== undefined && log.gone === undefined) {
        log.gone = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document.body, { childList: true, subtree: true });
  });

/** How long the timed flash stayed on the page, ms (waits until it has gone). */
async function flashDuration(page: Page): Promise<number> {
  await page.waitForFunction(
    () => (window as unknown as { flashLog: { gone?: number } }).flashLog.gone !== undefined,
    { timeout: FLASH_MS + 10_000 },
  );
  return page.evaluate(() => {
    const log = (window as unknown as { flashLog: { shown: number; gone: number } }).flashLog;
    return log.gone - log.shown;
  });
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
      expect(credit).toMatch(/Photo: \S/);
      await waitForImages(page);
      await snap(page, 'e2e-dashboard-2-picker');
      await page.locator(byRole('link', `Use this Pic ${picture}`)).click();

      // The design is created and the address replaced by its show page.
      await page.waitForFunction(() => /^\/pic-snippet\/design-/.test(location.pathname), {
        timeout: TIMEOUT_MS,
      });
      const designId = decodeURIComponent(page.url().split('/pic-snippet/')[1]!);
      await waitForFlash(page, `“${picture}” was created.`);
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
      // Back does not go to the create address again (it was replaced: no second design).
      await snap(page, 'e2e-dashboard-3-show');

      // The demo team is on the Pro plan: the PDF view frames the PDF render.
      await press(page, 'PDF');
      const pdf = await page.waitForSelector('iframe.viewer__pdf', { timeout: TIMEOUT_MS });
      expect(await pdf!.evaluate((f) => (f as HTMLIFrameElement).src)).toBe(`${renderUrl}/pdf`);
      await press(page, 'Image');

      // Rename through the API (the editor renames; docs/editor.md "Editing rules"), then the page shows it.
      const title = 'E2E Spring sale';
      const renamed = await api.request('PUT', `/api/pic-snippet/${encodeURIComponent(designId)}`, {
        title,
      });
      expect(renamed.status).toBe(200);
      await page.reload({ waitUntil: 'networkidle0' });
      await findByRole(page, 'heading', title);
      // The "was created" flash came with the navigation; a reload does not show it again.
      expect(await page.$('[data-testid="flash"]')).toBeNull();

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
      const before = await cardTitles(page);
      const next = before[before.indexOf(title) + 1] ?? before[before.indexOf(title) - 1];
      // From the keyboard: focus the card's Archive button and press Enter.
      await (await findByRole(page, 'button', `Archive ${title}`)).focus();
      await page.keyboard.press('Enter');
      await waitForFlash(page, `“${title}” was archived.`);
      await page.waitForFunction(
        (t) =>
          !Array.from(document.querySelectorAll('[data-testid="design-card"] h3')).some(
            (h) => h.textContent === t,
          ),
        {},
        title,
      );
      // The card now in its place takes focus, so a keyboard user keeps their position.
      await page.waitForFunction(
        (t) =>
          document.activeElement?.closest('[data-testid="design-card"] ')?.querySelector('h3')
            ?.textContent === t,
        {},
        next,
      );
      await snap(page, 'e2e-dashboard-5-archived-flash');

      // The Archive view (kept in ?view=archived) lists it; Activate brings it back.
      await press(page, 'Archive', 'tab');
      await page.waitForFunction(() => location.search.includes('view=archived'));
      await waitForCard(page, title);
      // The archive flash has gone by now; the next one is timed from when it appears.
      await page.waitForFunction(() => !document.querySelector('[data-testid="flash"]'), {
        timeout: FLASH_MS + 5_000,
      });
      await timeFlash(page);
      await press(page, `Activate ${title}`);
      await waitForFlash(page, `“${title}” is active again.`);
      await snap(page, 'e2e-dashboard-6-activated-flash');
      // docs/decisions.md "Design lists": the confirmation flash lasts 4 seconds.
      const duration = await flashDuration(page);
      expect(duration).toBeGreaterThan(FLASH_MS - FLASH_SLACK_MS);
      expect(duration).toBeLessThan(FLASH_MS + FLASH_SLACK_MS);
      await waitForText(page, 'Nothing archived');
      await snap(page, 'e2e-dashboard-7-archive-empty');

      // A design that is not there (or another team's) gets the not-found state.
      await page.goto(`${base}/pic-snippet/design-does-not-exist`, {
        waitUntil: 'domcontentloaded',
      });
      await waitForText(page, 'This PicSnippet was not found');
      await expect.poll(() => page.title(), POLL).toContain('PicSnippet not found');
      // The editor and the export screen of such a design say the same.
      for (const screen of ['edit', 'export']) {
        await page.goto(`${base}/pic-snippet/design-does-not-exist/${screen}`, {
          waitUntil: 'domcontentloaded',
        });
        await waitForText(page, 'This PicSnippet was not found');
      }

      // Onboarding's address: the templates view with the tag as a filter chip.
      await page.goto(`${base}/dashboard?view=templates&tag=ecommerce`, {
        waitUntil: 'domcontentloaded',
      });
      await findByRole(page, 'button', 'Remove the tag filter ecommerce');
      await expect
        .poll(() => page.$eval('[role="tab"][aria-selected="true"]', (t) => t.textContent), POLL)
        .toBe('View Templates');
      await snap(page, 'e2e-dashboard-8-templates');

      // An admin freezes the demo team (docs/decisions.md "Design lists"): Create and the card actions are
      // disabled, and the page says why; pressing Archive changes nothing.
      const admin = await signedIn(base, 'admin@example.com');
      const freeze = (frozen: boolean) =>
        admin.request('POST', '/custom/teams/team-demo/additional_permissions', { frozen });
      expect((await freeze(true)).status).toBe(200);
      try {
        await page.goto(`${base}/dashboard`, { waitUntil: 'domcontentloaded' });
        // The page's calls queue behind the previews the local stack renders one at a time
        // (several seconds on a loaded 2-core machine): a generous wait here.
        await page.waitForFunction(
          () => document.body.innerText.includes("Your team's account is frozen"),
          { timeout: 60_000 },
        );
        const disabled = async (name: string) =>
          (await findByRole(page, 'button', name)).evaluate((b) => b.getAttribute('aria-disabled'));
        await expect.poll(() => disabled('Create a new PicSnippet'), POLL).toBe('true');
        await page.waitForSelector('[data-testid="design-card"]');
        const [first] = await cardTitles(page);
        await expect.poll(() => disabled(`Archive ${first}`), POLL).toBe('true');
        const archive = await findByRole(page, 'button', `Archive ${first}`);
        // The click does nothing. An action that runs calls the API from the click itself
        // (listed here as the page calls it) and shows its spinner until answered: neither
        // happens, so nothing can change the list later.
        await page.evaluate(() => {
          const w = window as unknown as { archiveCalls: string[] };
          w.archiveCalls = [];
          const realFetch = window.fetch.bind(window);
          window.fetch = (input, init) => {
            if (String(input).endsWith('/archive')) w.archiveCalls.push(String(input));
            return realFetch(input, init);
          };
        });
        await archive.click();
        expect(
          await page.evaluate(() => (window as unknown as { archiveCalls: string[] }).archiveCalls),
        ).toEqual([]);
        expect(await archive.$('.spinner')).toBeNull();
        expect((await cardTitles(page))[0]).toBe(first);
        expect(await page.$('[data-testid="flash"]')).toBeNull();
        await snap(page, 'e2e-dashboard-9-frozen');
      } finally {
        await freeze(false);
      }

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
      // A card says when it was created ("Created 22 Nov 2026") and how often it was viewed.
      const card = await page.$eval('[data-testid="design-card"]', (c) => c.textContent!);
      expect(card).toMatch(/Created \d{1,2} [A-Z][a-z]{2} \d{4}/);
      expect(card).toMatch(/(?<!\d)\d+ views?/);
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
