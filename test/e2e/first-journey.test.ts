/// <reference lib="dom" />
/**
 * A marketer's two paths through the built SPA in headless Chromium, end to end, each on a team of
 * its own (docs/accounts.md "Screens", docs/editor.md "Server sync", docs/export.md "The screen"):
 *
 * - the first day: sign up on the free plan (the terms linked), land on the dashboard, create a
 *   design from a library picture, add `Hi {{first_name}}` in the editor, open the export screen,
 *   choose Klaviyo (first_name matched by name), generate, and the image URL with the value Klaviyo
 *   fills in draws it, as the render of `?first_name=…` does and unlike the fallback;
 * - a daily edit: sign in, land on the dashboard, open the design from its card, change its text
 *   (the save state says "Saving…" until the server has it, and the server has what it says),
 *   then export again.
 *
 * On the way, the dashboard, the export screen and the settings pages are looked at 375 px wide
 * (docs/accounts.md "Screens"): no page scrolls sideways. Screenshots land in
 * test-results/e2e-journey-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { providerOf } from '#shared/providers/index.ts';
import { fetchImage, meanDifference, useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
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

const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();

const PASSWORD = 'violet-harbour-42';
const klaviyo = providerOf('klaviyo');
const WIDE = { width: 1366, height: 900 };
const PHONE = { width: 375, height: 812 };

/** Shared by the two journeys: the first creates what the second edits. */
const journey = { email: `journey.${Date.now()}@example.com`, designId: '', title: '' };

/** Types into the field named `name` (role textbox), replacing what it held. */
async function replaceText(page: Page, name: string, text: string) {
  const field = await findByRole(page, 'textbox', name);
  await field.click({ count: 3 });
  await page.keyboard.down('Control');
  await page.keyboard.press('a');
  await page.keyboard.up('Control');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(text, { delay: 5 });
}

/** The editor's save state as it reads. */
const saveState = (page: Page) =>
  page.$eval('[data-testid="save-state"]', (el) => el.textContent?.trim() ?? '');

/**
 * At 375 × 812: the page's content fits the screen (nothing scrolls sideways) and a full-page
 * screenshot `e2e-journey-{name}-375.png` is taken; then back to the wide viewport.
 */
async function fitsPhone(page: Page, name: string) {
  await page.setViewport(PHONE);
  await new Promise((resolve) => setTimeout(resolve, 300)); // a layout pass after the resize
  const sizes = await page.evaluate(() => ({
    scroll: document.scrollingElement!.scrollWidth,
    inner: window.innerWidth,
    // What sticks out, for the failure message.
    wide: Array.from(document.querySelectorAll('main *'))
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]}`),
  }));
  await snap(page, `e2e-journey-${name}-375`);
  expect(sizes.scroll, `${name} at 375 px: ${sizes.wide.join(', ')}`).toBeLessThanOrEqual(
    sizes.inner,
  );
  await page.setViewport(WIDE);
}

/** A fresh context's page at the wide viewport, page errors collected. */
async function freshPage() {
  const context = await browser().createBrowserContext();
  const page = await context.newPage();
  await page.setViewport(WIDE);
  page.setDefaultTimeout(TIMEOUT_MS);
  page.setDefaultNavigationTimeout(90_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  return { context, page, errors };
}

/** Opens the export screen, closes its intro, chooses Klaviyo, generates: the image link. */
async function exportToKlaviyo(page: Page, designId: string, name: string): Promise<string> {
  await page.goto(`${stack().url}/pic-snippet/${designId}/export`, { waitUntil: 'networkidle0' });
  if (await page.$(byRole('dialog', 'Custom data for each recipient'))) {
    await press(page, "Don't show it again");
    await page.waitForFunction(() => !document.querySelector('dialog[open]'));
  }
  const platform = await findByRole(page, 'combobox', 'Platform');
  if ((await platform.evaluate((el) => (el as HTMLSelectElement).value)) !== 'klaviyo') {
    await page.select(byRole('combobox', 'Platform'), 'klaviyo');
    await waitForText(page, '✓ platform saved');
  }
  const value = await findByRole(page, 'textbox', 'Value of first_name');
  await expect
    .poll(() => value.evaluate((el) => (el as HTMLInputElement).value), POLL)
    .toBe(klaviyo.mergeTag('first_name'));
  await page.waitForFunction(
    (sel) => document.querySelector(sel)?.getAttribute('aria-disabled') !== 'true',
    { timeout: 60_000 },
    'button[aria-describedby$="-generate-hint"]',
  );
  await press(page, 'Generate');
  const link = await (await page.waitForSelector('[data-testid="export-link"]'))!.evaluate(
    (el) => (el as HTMLInputElement).value,
  );
  await page.evaluate(() => window.scrollTo(0, 0));
  await snap(page, `e2e-journey-${name}-export`);
  await fitsPhone(page, `${name}-export`);
  return link;
}

/** The design's render URL (no version, no query) of an exported image link. */
function renderOf(link: string): string {
  const url = new URL(link);
  return `${url.origin}${url.pathname.replace(/\/v\d+$/, '')}`;
}

/** The image Klaviyo's recipient `name` gets from the exported `link`, and the direct renders. */
async function drawnFor(link: string, render: string, name: string) {
  const delivered = await fetchImage(
    link.replace(klaviyo.urlTag('first_name'), () => klaviyo.substitute(name)),
  );
  const reference = await fetchImage(`${render}?first_name=${encodeURIComponent(name)}`);
  const fallback = await fetchImage(render);
  expect(delivered.res.status).toBe(200);
  expect([delivered.width, delivered.height]).toEqual([reference.width, reference.height]);
  const all = { left: 0, top: 0, width: reference.width, height: reference.height };
  return {
    fromReference: meanDifference(delivered.pixels, reference.pixels, reference.width, all),
    fromFallback: meanDifference(delivered.pixels, fallback.pixels, reference.width, all),
  };
}

describe('a marketer’s journeys', () => {
  it(
    'first day: signs up, creates a design, adds a name, exports to Klaviyo, and the image draws it',
    { timeout: 300_000 },
    async () => {
      const base = stack().url;
      const { context, page, errors } = await freshPage();

      // Sign up on the free plan; the terms are a link to a page.
      await page.goto(`${base}/register`, { waitUntil: 'networkidle0' });
      expect(
        await (
          await findByRole(page, 'link', 'Read the terms (opens in a new tab)')
        ).evaluate((a) => a.getAttribute('href')),
      ).toBe('/terms');
      await replaceText(page, 'Name', 'Mara Keting');
      await replaceText(page, 'E-mail address', journey.email);
      await replaceText(page, 'Company name', 'Journey Goods');
      for (const selector of ['input[name="password"]', 'input[name="password_confirmation"]']) {
        await page.type(selector, PASSWORD);
      }
      await page.click('input[name="terms"]');
      await press(page, 'Continue');
      await page.waitForSelector('input[name="plan"]');
      await page.click('button[type="submit"]');
      await page.waitForFunction(() => location.pathname === '/confirmation');

      // The dashboard, on a phone as well.
      await page.goto(`${base}/dashboard`, { waitUntil: 'networkidle0' });
      await snap(page, 'e2e-journey-1-dashboard');
      await fitsPhone(page, 'first-dashboard');

      // A first design from a library picture: it opens in the editor.
      await page.locator(byRole('link', 'Create a new PicSnippet')).click();
      await page.waitForSelector('[data-testid="picture-card"]');
      const picture = await page.$eval('[data-testid="picture-card"] h2', (h) => h.textContent!);
      await page.locator(byRole('link', `Use this Pic ${picture}`)).click();
      await page.waitForFunction(() => /^\/pic-snippet\/[^/]+\/edit$/.test(location.pathname));
      journey.designId = decodeURIComponent(page.url().split('/pic-snippet/')[1]!.split('/')[0]!);
      journey.title = picture;
      await page.waitForSelector('[data-testid="editor-canvas"] .canvas-container');

      // A greeting with the recipient's first name, saved.
      await press(page, 'Add text snippet');
      await replaceText(page, 'Text', 'Hi {{first_name}}');
      await replaceText(page, 'Fallback for {{first_name}}', 'there');
      await page.keyboard.press('Tab');
      await expect.poll(() => saveState(page), { ...POLL, timeout: 30_000 }).toBe('✓ Saved');
      await snap(page, 'e2e-journey-2-editor');

      // Export to Klaviyo: the image of the link Klaviyo fills draws the name.
      const link = await exportToKlaviyo(page, journey.designId, '3-first');
      const drawn = await drawnFor(link, renderOf(link), 'Bartholomew');
      expect(drawn.fromReference).toBe(0);
      expect(drawn.fromFallback).toBeGreaterThan(0);

      // The settings pages on a phone.
      for (const [path, name] of [
        ['/settings#/profile', 'settings-profile'],
        ['/settings#/companies', 'settings-companies'],
        ['/settings#/security', 'settings-security'],
        ['/settings#/subscription', 'settings-subscription'],
      ] as const) {
        await page.goto(`${base}${path}`, { waitUntil: 'networkidle0' });
        await fitsPhone(page, name);
      }
      const teamId = await page.evaluate(async () => {
        const res = await fetch('/user/current', {
          headers: { accept: 'application/json', 'x-requested-with': 'XMLHttpRequest' },
        });
        return ((await res.json()) as { current_team_id: string }).current_team_id;
      });
      for (const tab of ['companies', 'membership', 'developer', 'webhooks', 'data']) {
        await page.goto(`${base}/settings/companies/${teamId}#/${tab}`, {
          waitUntil: 'networkidle0',
        });
        await fitsPhone(page, `team-settings-${tab}`);
      }
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it(
    'daily edit: signs in to the dashboard, opens the design, changes its text, saved tells the truth, exports',
    { timeout: 240_000 },
    async () => {
      expect(journey.designId, 'the first journey made the design').not.toBe('');
      const base = stack().url;
      const { context, page, errors } = await freshPage();

      // Signing in lands on the dashboard (signIn waits for it), where the design is listed.
      await signIn(page, base, journey.email, PASSWORD);
      await page.waitForSelector('[data-testid="design-card"] a.design-card__link');
      await fitsPhone(page, 'daily-dashboard');
      // An active design's card opens it in the editor.
      await page.locator(`[data-testid="design-card"] a.design-card__link`).click();
      await page.waitForFunction(
        (id) => location.pathname === `/pic-snippet/${id}/edit`,
        {},
        journey.designId,
      );
      await page.waitForSelector('[data-testid="editor-canvas"] .canvas-container');

      // Select the greeting in the layers and change its words.
      await page.waitForFunction(() => {
        const item = Array.from(document.querySelectorAll('.editor-snippets__item')).find((b) =>
          b.textContent?.includes('Hi {{first_name}}'),
        );
        (item as HTMLButtonElement | undefined)?.click();
        return item !== undefined;
      });
      await findByRole(page, 'textbox', 'Text');
      await replaceText(page, 'Text', 'Welcome back {{first_name}}');
      // Until the server has it, the state does not say "Saved".
      const early = await saveState(page);
      expect(early).not.toBe('✓ Saved');
      await page.keyboard.press('Tab');
      await expect.poll(() => saveState(page), { ...POLL, timeout: 30_000 }).toBe('✓ Saved');
      const stored = await page.evaluate(async (id) => {
        const res = await fetch(`/api/pic-snippet/${id}`, {
          headers: { accept: 'application/json', 'x-requested-with': 'XMLHttpRequest' },
        });
        return ((await res.json()) as { text_snippets: Array<{ text: string }> }).text_snippets.map(
          (s) => s.text,
        );
      }, journey.designId);
      expect(stored).toContain('Welcome back {{first_name}}');
      await snap(page, 'e2e-journey-4-daily-editor');

      // The font list draws each name whole in its own face: no glyph cut at the top or bottom,
      // and a name cut at the end has its whole self in the row's title.
      await page.locator('.font-picker__button').click();
      await page.waitForSelector('.font-picker__option .font-picker__name');
      await new Promise((resolve) => setTimeout(resolve, 1500)); // the visible rows' faces load
      await snap(page, 'e2e-journey-4b-font-list');
      // The list opens inside the settings column: nothing past the window's edge, and the
      // column does not scroll sideways (it hid the column's title).
      const placed = await page.$eval('.font-picker__panel', (panel) => {
        const box = panel.getBoundingClientRect();
        const column = panel.closest('.editor-settings');
        return {
          inside: box.left >= 0 && box.right <= window.innerWidth,
          sideways: column ? column.scrollWidth - column.clientWidth : 0,
        };
      });
      expect(placed).toEqual({ inside: true, sideways: 0 });
      const cutNames = await page.$$eval('.font-picker__option', (rows) =>
        rows.flatMap((row) => {
          const name = row.querySelector('.font-picker__name') as HTMLElement;
          const text = name.textContent ?? '';
          // The ink of the name in its face against the name's box: the baseline sits where
          // the line box puts it (half the leading above the font's ascent).
          const style = getComputedStyle(name);
          const measure = document.createElement('canvas').getContext('2d')!;
          measure.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
          const m = measure.measureText(text);
          const line = name.clientHeight;
          const baseline =
            (line - (m.fontBoundingBoxAscent + m.fontBoundingBoxDescent)) / 2 +
            m.fontBoundingBoxAscent;
          const inside =
            baseline - m.actualBoundingBoxAscent >= -0.5 &&
            baseline + m.actualBoundingBoxDescent <= line + 0.5;
          const whole = name.scrollWidth <= name.clientWidth || row.getAttribute('title') === text;
          return inside && whole ? [] : [text];
        }),
      );
      expect(cutNames).toEqual([]);
      await page.keyboard.press('Escape');

      // The Stickers panel names each dynamic sticker whole ("Hosted image", not "Hosted i…").
      await press(page, 'Stickers');
      await page.waitForSelector('.library__dynamic .library__caption');
      await snap(page, 'e2e-journey-4c-stickers');
      const cutCaptions = await page.$$eval('.library__caption', (captions) =>
        captions.flatMap((caption) => {
          const tile = caption.closest('.library__pick')!;
          // Each word fits the caption's width: lines break between words, not inside one.
          const style = getComputedStyle(caption);
          const measure = document.createElement('canvas').getContext('2d')!;
          measure.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
          const words = (caption.textContent ?? '').split(' ');
          const tileStyle = getComputedStyle(tile);
          const room =
            tile.clientWidth -
            parseFloat(tileStyle.paddingLeft) -
            parseFloat(tileStyle.paddingRight);
          const wordsFit = words.every((w) => measure.measureText(w).width <= room);
          return caption.scrollWidth > Math.ceil(room) ||
            tile.scrollHeight > tile.clientHeight ||
            !wordsFit
            ? [caption.textContent]
            : [];
        }),
      );
      expect(cutCaptions).toEqual([]);

      // Export again: Klaviyo remembered, the name still drawn.
      const link = await exportToKlaviyo(page, journey.designId, '5-daily');
      const drawn = await drawnFor(link, renderOf(link), 'Ana');
      expect(drawn.fromReference).toBe(0);
      expect(drawn.fromFallback).toBeGreaterThan(0);
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
