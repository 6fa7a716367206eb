/// <reference lib="dom" />
/**
 * The font picker in the editor's text toolbar through the built SPA in headless Chromium
 * (docs/fonts.md; docs/fonts.md "The editor" font family, docs/editor.md "Commands" font upload,
 * docs/fonts.md "Limits and known gaps" the virtualised list). A Pro team's owner opens a copy of
 * the demo design, picks Lobster from the keyboard (search, arrows, Enter), sees the canvas redraw,
 * and the saved design's render URL draws Lobster; Esc closes, an empty search says "No Font"; an
 * upload with a wrong extension is refused for 4 s, a real .ttf joins the Uploaded category. A free
 * team sees the Pro plans message with the Upgrade link instead of the upload. Screenshots land in
 * test-results/e2e-fonts-*.png.
 *
 * The file owns its data: the Pro team (on the demo team's plan, as data) with its copy of the
 * demo design and the font it uploads, and the free team, each with an owner of its own, so no
 * other file's subscription or uploads reach what it shows (docs/testing.md "One stack per
 * worker").
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import {
  OWN_TEAM_PASSWORD,
  createDesign,
  currentTeamId,
  demoDesignCopyIn,
  ownTeam,
  setTeamPlan,
  uniqueEmail,
} from '../support/designs.ts';
import { fetchImage, meanDifference, useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import type { TestClient } from '../support/client.ts';
import {
  POLL,
  TIMEOUT_MS,
  byRole,
  findByRole,
  press,
  signIn,
  snap,
  waitForText,
} from '../support/aria.ts';
import { makeTtf } from '../support/fonts.ts';

const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();

/** The Pro team's owner (signed in through the API) and its copy of the demo design. */
const OWNER = uniqueEmail('fonts-pro');
let api: TestClient;
let welcome: { designId: string; render: string };

beforeAll(async () => {
  api = await ownTeam(stack().url, OWNER);
  await setTeamPlan(await currentTeamId(api), 'pro-monthly');
  welcome = await demoDesignCopyIn(await currentTeamId(api));
});

const SNIPPET = 'Hello {{first_name}}!';
const WIDE = { width: 1440, height: 960 };

/**
 * Signs the Pro team's owner in on a new tab, opens the copy's editor and waits until the canvas
 * is drawn (as test/support/editor-page.ts `openEditorPage` does for the demo user).
 * @returns the tab and the list its uncaught errors are pushed to.
 */
async function openEditor(): Promise<{ page: Page; errors: string[] }> {
  const page = await browser().newPage();
  await page.setViewport(WIDE);
  page.setDefaultTimeout(TIMEOUT_MS);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await signIn(page, stack().url, OWNER, OWN_TEAM_PASSWORD);
  await page.goto(`${stack().url}/pic-snippet/${welcome.designId}/edit`, {
    waitUntil: 'networkidle0',
  });
  await page.waitForSelector('[data-testid="editor-canvas"] .canvas-container');
  return { page, errors };
}

/** The pixels of the editor's canvases (photo and snippets), as data URLs. */
const canvasPixels = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLCanvasElement>('[data-testid="editor-canvas"] canvas'))
      .map((c) => c.toDataURL())
      .join('|'),
  );

/** The id of the active option and its text (the listbox's aria-activedescendant). */
const activeOption = (page: Page) =>
  page.$eval(byRole('combobox', 'Search fonts'), (input) => {
    const id = input.getAttribute('aria-activedescendant');
    return id ? (document.getElementById(id)?.textContent ?? null) : null;
  });

/** The accessible label of the focused element. */
const focusedLabel = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('aria-label'));

/** Types into the focused search box after clearing it. */
async function search(page: Page, text: string) {
  const box = await findByRole(page, 'combobox', 'Search fonts');
  await box.click({ count: 3 });
  await page.keyboard.press('Backspace');
  await page.keyboard.type(text, { delay: 15 });
}

describe('the font picker in the editor', () => {
  it(
    'picks Lobster from the keyboard, redraws the canvas, saves, and the render URL draws it',
    { timeout: 300_000 },
    async () => {
      const base = stack().url;
      const before = await fetchImage(`${base}${welcome.render}.png?first_name=Ana`);
      const { page, errors } = await openEditor();
      await press(page, SNIPPET);
      await press(page, 'Font: Noto Sans');
      const listbox = await findByRole(page, 'listbox', 'Fonts');
      await findByRole(page, 'option', 'Permanent Marker');
      // Rows are drawn in their own family once loaded; only rows on screen are in the page.
      await page.waitForFunction(
        () =>
          Array.from(document.querySelectorAll<HTMLElement>('[role="option"]')).some((o) =>
            o.style.fontFamily.replace(/"/g, '').startsWith('Journal,'),
          ),
        { timeout: TIMEOUT_MS },
      );
      const box = await listbox.boundingBox();
      expect(Math.round(box!.height)).toBe(350);
      const rendered = await page.$$eval('[role="option"]', (o) => o.length);
      const offered = (
        (await api.request('GET', '/api/fonts')).json.groups as Array<{ options: unknown[] }>
      ).flatMap((g) => g.options).length;
      expect(rendered).toBeLessThan(offered);
      await snap(page, 'e2e-fonts-1-open');

      // The category select: All Fonts, Uploaded, then the server groups.
      const categories = await page.$$eval('.font-picker select option', (o) =>
        o.map((x) => x.textContent),
      );
      expect(categories.slice(0, 3)).toEqual(['All Fonts', 'Uploaded', 'Built-in']);

      // Search (400 ms), arrow down to Lobster, Enter picks it once its faces have loaded.
      const canvasBefore = await canvasPixels(page);
      await search(page, 'lobs');
      await findByRole(page, 'option', 'Lobster');
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => activeOption(page), POLL).toBe('Lobster');
      await page.keyboard.press('Enter');
      await findByRole(page, 'button', 'Font: Lobster');
      await expect.poll(() => page.$(byRole('listbox', 'Fonts')), POLL).toBeNull();
      // Focus returns to the picker's button.
      await expect.poll(() => focusedLabel(page), POLL).toBe('Font: Lobster');
      await page.waitForFunction(
        (was) =>
          Array.from(
            document.querySelectorAll<HTMLCanvasElement>('[data-testid="editor-canvas"] canvas'),
          )
            .map((c) => c.toDataURL())
            .join('|') !== was,
        { timeout: TIMEOUT_MS },
        canvasBefore,
      );
      await page.waitForFunction(
        () => document.querySelector('[data-testid="save-state"]')?.textContent?.includes('Saved'),
        { timeout: TIMEOUT_MS },
      );
      await snap(page, 'e2e-fonts-2-lobster');

      const design = await api.request('GET', `/api/pic-snippet/${welcome.designId}`);
      const snippet = (design.json.text_snippets as Array<Record<string, unknown>>)[0]!;
      expect(snippet.fontFamily).toBe('Lobster');
      const after = await fetchImage(`${base}${welcome.render}.png?first_name=Ana`);
      const band = { left: 50, top: 200, width: 900, height: 220 };
      expect(meanDifference(after.pixels, before.pixels, after.width, band)).toBeGreaterThan(2);

      // Esc closes and gives focus back; an unmatched search says "No Font".
      await press(page, 'Font: Lobster');
      await search(page, 'zzzz');
      await waitForText(page, 'No Font');
      await snap(page, 'e2e-fonts-3-no-font');
      await page.keyboard.press('Escape');
      await expect.poll(() => page.$(byRole('listbox', 'Fonts')), POLL).toBeNull();
      await expect.poll(() => focusedLabel(page), POLL).toBe('Font: Lobster');
      expect(errors).toEqual([]);
      await page.close();
    },
  );

  it(
    'uploads a .ttf into the Uploaded category and refuses another extension for 4 s',
    { timeout: 300_000 },
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'fonts-e2e-'));
      const good = join(dir, 'acme-e2e.ttf');
      const bad = join(dir, 'acme-e2e.txt');
      await writeFile(good, makeTtf('Acme E2E'));
      await writeFile(bad, 'not a font');
      const { page, errors } = await openEditor();
      await press(page, SNIPPET);
      await page.locator('.font-picker__button').setTimeout(TIMEOUT_MS).click();
      await findByRole(page, 'button', 'Upload font');
      const input = (await page.$('.font-picker input[type="file"]'))!;

      await input.uploadFile(bad);
      await waitForText(page, 'Allowed extensions are: .ttf, .otf, .woff');
      await snap(page, 'e2e-fonts-4-bad-extension');
      await page.waitForFunction(
        () => !document.body.innerText.includes('Allowed extensions are'),
        { timeout: 6000 },
      );

      await input.uploadFile(good);
      await findByRole(page, 'option', 'Acme E2E');
      await expect
        .poll(() => page.$eval('.font-picker select', (s) => (s as HTMLSelectElement).value), POLL)
        .toBe('Uploaded');
      await waitForText(page, 'Acme E2E was uploaded.');
      await snap(page, 'e2e-fonts-5-uploaded');
      await press(page, 'Acme E2E', 'option');
      await findByRole(page, 'button', 'Font: Acme E2E');
      expect(errors).toEqual([]);
      await page.close();
    },
  );

  it(
    'shows a free team the Pro plans message with the Upgrade link (spec 000 §6)',
    { timeout: 300_000 },
    async () => {
      const base = stack().url;
      // A team of the file's own on the free plan (as registered).
      const email = uniqueEmail('fonts-free');
      const free = await ownTeam(base, email);
      const freeTeam = await currentTeamId(free);
      const design = await createDesign(free, { title: 'Free fonts' });
      // A context of its own: the Pro owner's session cookie stays in the other tabs' context.
      const context = await browser().createBrowserContext();
      const page = await context.newPage();
      await page.setViewport(WIDE);
      page.setDefaultTimeout(TIMEOUT_MS);
      await signIn(page, base, email, OWN_TEAM_PASSWORD);
      await page.goto(`${base}/pic-snippet/${design.id}/edit`, { waitUntil: 'networkidle0' });
      await press(page, 'Add text snippet');
      await press(page, 'Font: Noto Sans');
      await findByRole(page, 'listbox', 'Fonts');
      await waitForText(page, 'This feature is available only for Pro plans.');
      const link = await findByRole(page, 'link', 'Upgrade');
      expect(await link.evaluate((a) => (a as HTMLAnchorElement).pathname)).toBe(
        `/settings/companies/${freeTeam}`,
      );
      expect(await page.$(byRole('button', 'Upload font'))).toBeNull();
      const uploaded = await page.$eval(
        '.font-picker select',
        (s) =>
          Array.from((s as HTMLSelectElement).options).find((o) => o.value === 'Uploaded')
            ?.disabled,
      );
      expect(uploaded).toBe(true);
      await snap(page, 'e2e-fonts-6-free-team');
      await context.close();
    },
  );
});
