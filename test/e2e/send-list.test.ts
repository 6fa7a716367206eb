/// <reference lib="dom" />
/**
 * Pre-rendering a send list on the export screen, through the built SPA in headless Chromium
 * (docs/send-lists.md): the demo user uploads a small CSV for the demo design, watches the
 * progress reach its end, downloads the CSV of URLs, and every URL in it is then answered from
 * the render cache (`x-render-cache` is not `miss`). A file the parser refuses shows its
 * message. Screenshots land in test-results/e2e-send-list-*.png.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { ElementHandle, Page } from 'puppeteer-core';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import {
  byRole,
  findByRole,
  press,
  signIn,
  snap,
  TIMEOUT_MS,
  waitForText,
} from '../support/aria.ts';

const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();

const DESIGN_ID = 'design-demo-welcome';
const FILE_LABEL = 'Send list (CSV or XLSX)';
/** Rendering a few rows with the shared Chromium on a loaded 2-core machine, ms. */
const RENDER_WAIT_MS = 180_000;

/**
 * A CSV of the demo design's one parameter: three names, one of them twice and one with a
 * character no font draws (U+E000, private use), and a recipient without a name (the fallback,
 * "Hello there!").
 */
const LIST =
  'first_name,email\r\nAna,ana@example.com\r\nBo\uE000,\r\nCé,ce@example.com\r\nAna,\r\n,x@example.com\r\n';

/** Writes `text` to a temporary file named `name` and answers its path. */
async function tempFile(name: string, text: string | Buffer): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'send-list-')), name);
  await writeFile(path, text);
  return path;
}

/** The demo user on the demo design's export screen, the custom-data intro closed. */
async function exportScreen(): Promise<Page> {
  const context = await browser().createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1366, height: 900 });
  page.setDefaultTimeout(TIMEOUT_MS);
  page.setDefaultNavigationTimeout(90_000);
  await signIn(page, stack().url, 'demo@example.com', 'demo-password');
  await page.goto(`${stack().url}/pic-snippet/${DESIGN_ID}/export`, { waitUntil: 'networkidle0' });
  await findByRole(page, 'dialog', 'Custom data for each recipient');
  await press(page, 'Got it');
  await findByRole(page, 'heading', 'Pre-render a send list');
  return page;
}

/** Chooses `path` in the send-list file picker, as a user does through its label. */
async function chooseFile(page: Page, path: string) {
  await page.waitForFunction(
    (text) => Array.from(document.querySelectorAll('label')).some((l) => l.textContent === text),
    { timeout: TIMEOUT_MS },
    FILE_LABEL,
  );
  const control = await page.evaluateHandle(
    (text) =>
      Array.from(document.querySelectorAll('label')).find((l) => l.textContent === text)!.control,
    FILE_LABEL,
  );
  const input = control.asElement() as ElementHandle<HTMLInputElement> | null;
  expect(await input?.evaluate((el) => el.type)).toBe('file');
  await input!.uploadFile(path);
}

/** The text of the element matched by `selector` (the page's live progress region). */
const textOf = (page: Page, selector: string) =>
  page.$eval(selector, (el) => (el as HTMLElement).innerText);

describe('send list', () => {
  it(
    'uploads a CSV, shows progress to the end, downloads the URLs, and each is then a cache hit',
    { timeout: 400_000 },
    async () => {
      const page = await exportScreen();
      await snap(page, 'e2e-send-list-1-empty');
      // The header the file needs is named beside the picker.
      await waitForText(page, 'The first row names the columns: first_name, and optionally email.');

      await chooseFile(page, await tempFile('november.csv', LIST));
      await waitForText(page, 'november.csv, 1 KB');
      await press(page, 'Upload and pre-render');

      // The progress bar and its counts, in a live region, until the job has finished.
      const bar = await page.waitForSelector(byRole('progressbar', 'Pre-rendering november.csv'), {
        timeout: 60_000,
      });
      expect(bar).not.toBeNull();
      await snap(page, 'e2e-send-list-2-progress');
      await page.waitForFunction(() => document.body.innerText.includes('Finished.'), {
        timeout: RENDER_WAIT_MS,
        polling: 250,
      });
      const live = await textOf(page, '.send-list__progress [role="status"]');
      expect(live).toContain('4 of 4 rows (100 %)');
      expect(live.replace(/\s+/g, ' ')).toContain('Done 4 Failed 0 Duplicates 1 Total 4');
      expect(
        await page.$eval(byRole('progressbar', 'Pre-rendering november.csv'), (el) => [
          el.getAttribute('value'),
          el.getAttribute('max'),
        ]),
      ).toEqual(['4', '4']);
      // The report: five rows read, one showing the fallback; Cancel is gone once finished.
      await waitForText(page, '“november.csv”: 5 rows read.');
      await waitForText(page, '1 row shows the fallback (an empty value)');
      await waitForText(page, '1 row has characters that no font of the design draws');
      expect(await page.$(byRole('button', 'Cancel pre-rendering'))).toBeNull();

      // The download, as plain URLs.
      await findByRole(page, 'combobox', 'URLs written for');
      await page.select(byRole('combobox', 'URLs written for'), '');
      await snap(page, 'e2e-send-list-3-done');
      const href = await page.$eval(byRole('link', 'Download the URLs (CSV)'), (a) =>
        a.getAttribute('href'),
      );
      expect(href).toMatch(
        new RegExp(`^/api/pic-snippet/${DESIGN_ID}/send-lists/[\\w-]+/download$`),
      );
      const csv = await page.evaluate(async (path) => {
        const res = await fetch(path!);
        return { status: res.status, text: await res.text() };
      }, href);
      expect(csv.status).toBe(200);
      const rows = parse(csv.text, { columns: true, bom: true }) as Record<string, string>[];
      expect(rows.map((r) => [r.line, r.email, r.first_name, r.status])).toEqual([
        ['2', 'ana@example.com', 'Ana', expect.stringMatching(/^(rendered|cached)$/)],
        ['3', '', 'Bo\uE000', expect.stringMatching(/^(rendered|cached)$/)],
        ['4', 'ce@example.com', 'Cé', expect.stringMatching(/^(rendered|cached)$/)],
        ['5', '', 'Ana', 'duplicate'],
        ['6', 'x@example.com', '', expect.stringMatching(/^(rendered|cached)$/)],
      ]);

      // Each URL is the design's render URL with the row's value, and is now a cache hit.
      for (const row of rows) {
        const url = new URL(row.url!);
        expect(url.origin).toBe(stack().url);
        expect(url.pathname).toMatch(/^\/r\/[^/]+\/v\d+$/);
        expect(url.searchParams.get('first_name') ?? '').toBe(row.first_name);
        const res = await fetch(url);
        await res.arrayBuffer();
        expect(res.status, row.url).toBe(200);
        expect(res.headers.get('content-type'), row.url).toMatch(/^image\//);
        expect(res.headers.get('x-render-cache'), row.url).toMatch(/^(memory|store)$/);
      }
      await page.browserContext().close();
    },
  );

  it('shows the parser’s refusal of a file, naming the line', { timeout: 240_000 }, async () => {
    const page = await exportScreen();
    const ragged = 'first_name\r\nAna\r\nBo,extra\r\n';
    await chooseFile(page, await tempFile('ragged.csv', ragged));
    await press(page, 'Upload and pre-render');
    await page.waitForFunction(
      () => document.body.innerText.includes('“ragged.csv” was not pre-rendered'),
      { timeout: RENDER_WAIT_MS, polling: 250 },
    );
    await waitForText(page, 'Line 3 has 2 values but the header has 1 column.');
    await snap(page, 'e2e-send-list-4-refused');
    // A file that is not a list is refused before anything is sent.
    await chooseFile(page, await tempFile('photo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47])));
    await press(page, 'Upload and pre-render');
    await waitForText(page, '“photo.png” is not a .csv or .xlsx file.');
    await page.browserContext().close();
  });
});
