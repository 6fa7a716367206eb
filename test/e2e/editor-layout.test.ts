/// <reference lib="dom" />
/**
 * The editor's layout (docs/editor.md "Layout") in the built SPA: on a wide window (1440×900 and
 * 1280×720), a tablet's (900×1000) and a phone's (375×812), the demo user selects a new text snippet and then a new
 * countdown timer, whose settings are long, and the canvas stays whole inside the window each
 * time; on the wide windows the page itself does not scroll. Screenshots:
 * test-results/e2e-editor-layout-*.png.
 */
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { byRole, findByRole, press, snap } from '../support/aria.ts';
import { useTestBrowser } from '../support/browser.ts';
import { createDesign, signedIn } from '../support/designs.ts';
import { DEMO_USER, openEditorPage } from '../support/editor-page.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();

/** Where the canvas is drawn and how big the window and the page are, CSS px. */
function measure(page: Page) {
  return page.evaluate(() => {
    const r = document.querySelector('[data-testid="editor-canvas"]')!.getBoundingClientRect();
    return {
      canvas: { left: r.left, top: r.top, right: r.right, bottom: r.bottom, height: r.height },
      window: { width: window.innerWidth, height: window.innerHeight },
      pageHeight: document.documentElement.scrollHeight,
    };
  });
}

/** Expects the canvas whole inside the window, at least `minHeight` px high. */
async function expectCanvasInView(page: Page, minHeight: number, wide: boolean) {
  const { canvas, window: view, pageHeight } = await measure(page);
  expect(canvas.left).toBeGreaterThanOrEqual(0);
  expect(canvas.top).toBeGreaterThanOrEqual(0);
  expect(canvas.right).toBeLessThanOrEqual(view.width);
  expect(canvas.bottom).toBeLessThanOrEqual(view.height);
  expect(canvas.height).toBeGreaterThanOrEqual(minHeight);
  if (wide) expect(pageHeight).toBeLessThanOrEqual(view.height);
}

const WINDOWS = [
  { name: 'wide', width: 1440, height: 900, minHeight: 300, wide: true },
  { name: 'laptop', width: 1280, height: 720, minHeight: 200, wide: true },
  { name: 'tablet', width: 900, height: 1000, minHeight: 250, wide: false },
  { name: 'phone', width: 375, height: 812, minHeight: 180, wide: false },
] as const;

describe('the editor layout keeps the canvas in view', () => {
  for (const size of WINDOWS) {
    it(
      `with a text and a countdown timer selected at ${size.width}×${size.height}`,
      { timeout: 180_000 },
      async () => {
        const base = stack().url;
        const api = await signedIn(base, DEMO_USER.email);
        const design = await createDesign(api, { title: `Layout ${size.name}` });
        const { page, errors } = await openEditorPage(browser(), base, design.id, size);
        await expectCanvasInView(page, size.minHeight, size.wide);

        await press(page, 'Add text snippet');
        await findByRole(page, 'group', 'Text tools');
        await findByRole(page, 'complementary', 'Object settings');
        await expectCanvasInView(page, size.minHeight, size.wide);
        await snap(page, `e2e-editor-layout-${size.name}-1-text`);

        await press(page, 'Stickers');
        const add = await page.waitForSelector('button[aria-label^="Add Countdown timer"]');
        await add!.click();
        await findByRole(page, 'toolbar', 'Countdown timer tools');
        await expectCanvasInView(page, size.minHeight, size.wide);
        await snap(page, `e2e-editor-layout-${size.name}-2-countdown`);

        if (!size.wide) {
          // The settings sheet folds away with its button, the panel's sheet closes with its own,
          // and the canvas keeps (or takes back) the room.
          const before = (await measure(page)).canvas.height;
          await press(page, 'Object settings');
          await press(page, 'Stickers');
          expect(
            await page.$eval(byRole('button', 'Object settings'), (b) =>
              b.getAttribute('aria-expanded'),
            ),
          ).toBe('false');
          // Folded: out of the accessibility tree and out of sight.
          expect(await page.$(byRole('toolbar', 'Countdown timer tools'))).toBeNull();
          expect((await measure(page)).canvas.height).toBeGreaterThanOrEqual(before);
          await expectCanvasInView(page, size.minHeight, size.wide);
          await snap(page, `e2e-editor-layout-${size.name}-3-folded`);
        }
        expect(errors).toEqual([]);
        await page.close();
      },
    );
  }
});
