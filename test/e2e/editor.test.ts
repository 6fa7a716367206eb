/// <reference lib="dom" />
/**
 * The editor through the built SPA in headless Chromium (docs/editor.md, first slice;
 * docs/editor.md "Architecture" Editor, docs/editor.md "Commands" editor changes and undo/redo,
 * docs/editor.md "Editing rules" canvas clamps, docs/editor.md "Constants" snippet defaults): the
 * demo user opens the demo design, adds a text snippet, types `Hi {{first_name}}`, changes its
 * size, drags it with the mouse, undoes and redoes the drag, waits for "Saved", reloads, and finds
 * the snippet where it was left; the render URL then draws it. Screenshots land in
 * test-results/e2e-editor-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { signedIn, useDemoDesignCopy } from '../support/designs.ts';
import { fetchImage, meanDifference, useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import { byRole, findByRole, press, signIn, snap, waitForText } from '../support/aria.ts';

// The render URL is drawn by the render service: it needs its warm Chromium.
const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();

const DEMO = { email: 'demo@example.com', password: 'demo-password' };
/** This file's copy of the seeded demo design: it edits and saves it. */
const welcome = useDemoDesignCopy();

/** The value of the number field labelled `label` (the snippet's X, Y, Font size). */
const numberField = (page: Page, label: string) =>
  page.$eval(byRole('spinbutton', label), (input) => Number((input as HTMLInputElement).value));

/** The selected snippet's position as the panel shows it, canvas px. */
const position = async (page: Page) => ({
  left: await numberField(page, 'X'),
  top: await numberField(page, 'Y'),
});

/** Waits until the save state reads "Saved" (after "Saving…"). */
const waitForSaved = (page: Page) =>
  page.waitForFunction(
    () => document.querySelector('[data-testid="save-state"]')?.textContent?.includes('Saved'),
    { timeout: 15_000 },
  );

/** The canvas on screen: its box in CSS px and its scale (screen px per canvas px). */
async function canvasBox(page: Page) {
  return page.$eval('[data-testid="editor-canvas"]', (el) => {
    const rect = el.getBoundingClientRect();
    const width = Number((el as HTMLElement).dataset.canvasWidth);
    return { x: rect.left, y: rect.top, scale: rect.width / width };
  });
}

/** Replaces the text of the field labelled `label` by typing, as a user does. */
async function typeInto(page: Page, role: string, label: string, text: string) {
  const field = await findByRole(page, role, label);
  await field.click({ count: 3 });
  await page.keyboard.down('Control');
  await page.keyboard.press('a');
  await page.keyboard.up('Control');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(text, { delay: 10 });
}

describe('editor', () => {
  it(
    'adds a snippet with a merge field, sizes, drags, undoes and redoes it, saves, and the render URL draws it',
    { timeout: 240_000 },
    async () => {
      const base = stack().url;
      const api = await signedIn(base, DEMO.email);
      const before = await fetchImage(`${base}${welcome().render}.png?first_name=Ann`);
      expect(before.res.status).toBe(200);

      const page = await browser().newPage();
      await page.setViewport({ width: 1366, height: 900 });
      page.setDefaultTimeout(15_000);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      await signIn(page, base, DEMO.email, DEMO.password);

      // Opening the editor: the title, the canvas at the design's size, the demo snippet.
      await page.goto(`${base}/pic-snippet/${welcome().designId}/edit`, {
        waitUntil: 'networkidle0',
      });
      const title = await findByRole(page, 'textbox', 'Design title');
      expect(await title.evaluate((el) => (el as HTMLInputElement).value)).toBe('Welcome');
      await waitForText(page, 'Canvas 1000 × 625 px');
      await page.waitForSelector('[data-testid="editor-canvas"] .canvas-container');
      await findByRole(page, 'button', 'Hello {{first_name}}!');
      expect(
        await page.$eval(byRole('button', 'Undo'), (b) => (b as HTMLButtonElement).disabled),
      ).toBe(true);
      await snap(page, 'e2e-editor-1-open');

      // Add a text snippet: "Snippet 1", 32 px, selected; the button rests for 1 s (docs/editor.md
      // "Commands").
      await press(page, 'Add text snippet');
      const add = await findByRole(page, 'button', 'Add text snippet');
      expect(await add.evaluate((b) => (b as HTMLButtonElement).disabled)).toBe(true);
      const text = await findByRole(page, 'textbox', 'Text');
      expect(await text.evaluate((el) => (el as HTMLTextAreaElement).value)).toBe('Snippet 1');
      expect(await numberField(page, 'Font size')).toBe(32);
      await page.waitForFunction(
        (sel) => !(document.querySelector(sel) as HTMLButtonElement | null)?.disabled,
        { timeout: 3000 },
        '.editor-snippets__add',
      );

      // Type a merge field: the parameter takes the design's fallback for first_name.
      await typeInto(page, 'textbox', 'Text', 'Hi {{first_name}}');
      const fallback = await findByRole(page, 'textbox', 'Fallback for {{first_name}}');
      expect(await fallback.evaluate((el) => (el as HTMLInputElement).value)).toBe('there');
      await findByRole(page, 'button', 'Hi {{first_name}}');

      // Its size.
      await typeInto(page, 'spinbutton', 'Font size', '48');
      expect(await numberField(page, 'Font size')).toBe(48);
      await snap(page, 'e2e-editor-2-typed');

      // Drag it with the mouse, from a point inside its first line.
      const start = await position(page);
      const box = await canvasBox(page);
      const from = {
        x: box.x + (start.left + 160) * box.scale,
        y: box.y + (start.top + 24) * box.scale,
      };
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      // 200 px left and 160 px down on the canvas, whatever its zoom (inside its edges).
      const by = { x: -200 * box.scale, y: 160 * box.scale };
      await page.mouse.move(from.x + by.x, from.y + by.y, { steps: 15 });
      await page.mouse.up();
      const dragged = await position(page);
      // Within a screen pixel (1 / zoom canvas px) and the whole-px rounding of the position.
      const pixel = 1 / box.scale + 1;
      expect(Math.abs(dragged.left - (start.left - 200))).toBeLessThanOrEqual(pixel);
      expect(Math.abs(dragged.top - (start.top + 160))).toBeLessThanOrEqual(pixel);
      await snap(page, 'e2e-editor-3-dragged');

      // Undo takes the whole drag back in one step; redo brings it again (docs/editor.md
      // "Commands").
      await press(page, 'Undo');
      expect(await position(page)).toEqual(start);
      expect(
        await page.$eval(byRole('button', 'Redo'), (b) => (b as HTMLButtonElement).disabled),
      ).toBe(false);
      await press(page, 'Redo');
      expect(await position(page)).toEqual(dragged);
      // The keyboard does the same, outside text fields (focus is on the Redo button).
      await page.keyboard.down('Control');
      await page.keyboard.press('z');
      await page.keyboard.up('Control');
      expect(await position(page)).toEqual(start);
      await page.keyboard.down('Control');
      await page.keyboard.press('y');
      await page.keyboard.up('Control');
      expect(await position(page)).toEqual(dragged);
      // Arrow keys nudge the selection: Shift moves 10 px.
      await page.keyboard.down('Shift');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.up('Shift');
      await page.keyboard.press('ArrowUp');
      const final = { left: dragged.left + 10, top: dragged.top - 1 };
      expect(await position(page)).toEqual(final);

      await waitForSaved(page);
      await snap(page, 'e2e-editor-4-saved');

      // The server has it.
      const saved = await api.request('GET', `/api/pic-snippet/${welcome().designId}`);
      const snippets = saved.json.text_snippets as {
        text: string;
        left: number;
        top: number;
        fontSize: number;
        parameters: { param_name: string; param_default_value: string }[];
      }[];
      const mine = snippets.find((s) => s.text === 'Hi {{first_name}}');
      expect(mine).toMatchObject({ ...final, fontSize: 48 });
      expect(mine!.parameters).toMatchObject([
        { param_name: 'first_name', param_default_value: 'there' },
      ]);

      // Reload: the snippet is there, where it was left.
      await page.reload({ waitUntil: 'networkidle0' });
      await press(page, 'Hi {{first_name}}');
      expect(await position(page)).toEqual(final);
      expect(await numberField(page, 'Font size')).toBe(48);
      await page.waitForSelector('[data-testid="editor-canvas"] .canvas-container');
      await snap(page, 'e2e-editor-5-reloaded');

      // Delete asks first (docs/editor.md "Messages" 'Delete Text Snippet?'); Cancel keeps the
      // snippet.
      await (await findByRole(page, 'button', 'Hi {{first_name}}')).focus();
      await page.keyboard.press('Delete');
      await findByRole(page, 'alertdialog', 'Delete Text Snippet?');
      await snap(page, 'e2e-editor-6-delete');
      await press(page, 'Cancel');
      await findByRole(page, 'button', 'Hi {{first_name}}');
      expect(await page.$('dialog[open]')).toBeNull();

      // A corner handle scales the text: a larger font in a wider box, one undo step.
      const stored = (await api.request('GET', `/api/pic-snippet/${welcome().designId}`)).json
        .text_snippets as { text: string; width: number; height: number | null }[];
      const measured = stored.find((s) => s.text === 'Hi {{first_name}}')!;
      expect(measured.height).toBeGreaterThan(48);
      const view = await canvasBox(page);
      const handle = {
        x: view.x + (final.left + measured.width + 4) * view.scale,
        y: view.y + (final.top + measured.height! + 4) * view.scale,
      };
      await page.mouse.move(handle.x, handle.y);
      await page.mouse.down();
      await page.mouse.move(handle.x + 60, handle.y + 12, { steps: 10 });
      await page.mouse.up();
      const scaled = await numberField(page, 'Font size');
      expect(scaled).toBeGreaterThan(48);
      expect(await position(page)).toEqual(final);
      await snap(page, 'e2e-editor-7-scaled');
      await press(page, 'Undo');
      expect(await numberField(page, 'Font size')).toBe(48);
      await press(page, 'Redo');
      expect(await numberField(page, 'Font size')).toBe(scaled);

      // The title saves on blur; Enter does not end the field (docs/editor.md "Architecture").
      await typeInto(page, 'textbox', 'Design title', 'Welcome back');
      await page.keyboard.press('Enter');
      await (await findByRole(page, 'button', 'Hi {{first_name}}')).focus();
      await waitForSaved(page);
      await expect
        .poll(
          async () =>
            (await api.request('GET', `/api/pic-snippet/${welcome().designId}`)).json.title,
        )
        .toBe('Welcome back');

      // The render URL draws it: the snippet's area changed, the rest of the photo did not.
      const after = await fetchImage(`${base}${welcome().render}.png?first_name=Ann`);
      expect([after.width, after.height]).toEqual([before.width, before.height]);
      const area = {
        left: Math.round(final.left),
        top: Math.round(final.top),
        width: 300,
        height: 60,
      };
      expect(meanDifference(after.pixels, before.pixels, after.width, area)).toBeGreaterThan(8);
      const corner = { left: 0, top: 0, width: 200, height: 120 };
      expect(meanDifference(after.pixels, before.pixels, after.width, corner)).toBeLessThan(1);
      expect(errors).toEqual([]);
    },
  );

  it('says so when the design is not the current team’s', async () => {
    const page = await browser().newPage();
    await page.setViewport({ width: 1280, height: 800 });
    await signIn(page, stack().url, DEMO.email, DEMO.password);
    await page.goto(`${stack().url}/pic-snippet/design-nobody/edit`, { waitUntil: 'networkidle0' });
    await findByRole(page, 'heading', 'This PicSnippet was not found');
  });
});
