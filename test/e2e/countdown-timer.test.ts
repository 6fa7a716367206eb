/// <reference lib="dom" />
/**
 * A countdown timer built in the editor (docs/editor.md "Countdown timer"): added from the
 * Stickers panel, set to a fixed deadline with its units, labels off and 5 frames through the
 * properties panel (labelled controls), a change undone and redone; the canvas preview ticks; the
 * design saves; its render URL with `.gif` answers an animated GIF of those 5 frames whose first
 * frame shows the digits for the moment asked (read by OCR); the export screen says it is an
 * animated GIF. Screenshots: test-results/e2e-countdown-*.png.
 */
import type { Page } from 'puppeteer-core';
import sharp from 'sharp';
import type { Worker } from 'tesseract.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_NOW_HEADER } from '../../functions/render/countdown-gif.ts';
import { zonedInstant } from '../../shared/scene/countdown.ts';
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
import { useTestBrowser } from '../support/browser.ts';
import { createDesign, ownTeam } from '../support/designs.ts';
import { waitForSaved } from '../support/editor-page.ts';
import { lineReader, readWhiteText } from '../support/ocr.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();
const PASSWORD = 'design-walnut-27';

let ocr: Worker;
beforeAll(async () => {
  ocr = await lineReader();
});
afterAll(async () => {
  await ocr?.terminate();
});

/** Sets the input labelled `label` as a browser's date or time picker does (value, input event). */
async function setInput(page: Page, label: string, value: string): Promise<void> {
  await page.waitForFunction(
    (l) => Array.from(document.querySelectorAll('label')).some((x) => x.textContent?.trim() === l),
    {},
    label,
  );
  await page.evaluate(
    (l, v) => {
      const tag = Array.from(document.querySelectorAll('label')).find(
        (x) => x.textContent?.trim() === l,
      )!;
      const input = document.getElementById(tag.htmlFor) as HTMLInputElement;
      const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      setter.call(input, v);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    },
    label,
    value,
  );
}

/** The objects' canvas, where the timers' preview is drawn, as a data URL (this second). */
const timerPixels = (page: Page) =>
  page.$eval('[data-testid="editor-canvas"] .canvas-container canvas.lower-canvas', (c) =>
    (c as HTMLCanvasElement).toDataURL(),
  );

interface TimerJson {
  left: number;
  top: number;
  width: number;
  height: number;
  scaleX: number;
  scaleY: number;
  countdown: Record<string, unknown>;
}

describe('countdown timer in the editor', () => {
  it(
    'is added, set up in its panel, ticks on the canvas, and renders as a GIF with the right digits',
    { timeout: 240_000 },
    async () => {
      const base = stack().url;
      const email = `countdown-e2e-${Date.now()}@example.com`;
      const client = await ownTeam(base, email);
      const design = await createDesign(client, { title: 'Sale ends' });

      const page = await browser().newPage();
      await page.setViewport({ width: 1400, height: 1000 });
      page.setDefaultTimeout(TIMEOUT_MS);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      await signIn(page, base, email, PASSWORD);
      await page.goto(`${base}/pic-snippet/${design.id}/edit`, { waitUntil: 'networkidle0' });

      // Add it where the other dynamic stickers are.
      await press(page, 'Stickers');
      const add = await page.waitForSelector('button[aria-label^="Add Countdown timer"]');
      await add!.click();
      await page.waitForSelector('[data-testid="countdown-panel"]');
      await findByRole(page, 'toolbar', 'Countdown timer tools');

      // It ticks: the preview changes from one second to the next.
      const first = await timerPixels(page);
      await new Promise((r) => setTimeout(r, 1500));
      expect(await timerPixels(page)).not.toBe(first);
      await snap(page, 'e2e-countdown-1-added');

      // Evergreen shows its duration and where its start comes from; then back to a deadline.
      await press(page, 'Evergreen (per recipient)', 'radio');
      await findByRole(page, 'spinbutton', 'Days');
      await findByRole(page, 'textbox', 'Fallback start time');
      const tools = await page.$('[data-testid="sticker-tools"]');
      await tools!.screenshot({ path: 'test-results/e2e-countdown-1b-evergreen.png' });
      // It may count from each recipient's first open instead of a parameter.
      await press(page, 'From the first open', 'radio');
      await waitForText(page, 'first time each recipient opens');
      await tools!.screenshot({ path: 'test-results/e2e-countdown-1c-first-open.png' });
      await press(page, 'From a parameter', 'radio');
      await press(page, 'A fixed deadline', 'radio');

      // A fixed deadline, hours-minutes-seconds, no labels, 5 frames.
      await setInput(page, 'End date', '2031-06-01');
      await setInput(page, 'End time', '18:30');
      const zone = await findByRole(page, 'combobox', 'Time zone');
      await zone.select('UTC');
      const units = await findByRole(page, 'combobox', 'Units shown');
      await units.select('hms');
      // Undoable like the rest of the document: Undo and Redo take the units back and forth.
      const unitsShown = () => units.evaluate((el) => (el as HTMLSelectElement).value);
      await press(page, 'Undo');
      await expect.poll(unitsShown, POLL).toBe('dhms');
      await press(page, 'Redo');
      await expect.poll(unitsShown, POLL).toBe('hms');
      await press(page, 'Show labels', 'checkbox');
      await page.locator(byRole('spinbutton', 'GIF frames (one a second)')).fill('5');
      await waitForSaved(page);
      const panel = await page.$('[data-testid="sticker-tools"]');
      await panel!.screenshot({ path: 'test-results/e2e-countdown-2-panel.png' });
      await snap(page, 'e2e-countdown-3-set');

      const saved = (await client.request('GET', `/api/pic-snippet/${design.id}`)).json;
      const timer = (saved.graphics_data as TimerJson[])[0]!;
      expect(timer.countdown).toMatchObject({
        mode: 'fixed',
        deadline: '2031-06-01T18:30',
        timeZone: 'UTC',
        units: 'hms',
        showLabels: false,
        frames: 5,
      });

      // The render: 2 days 3 h 4 min 5 s before the deadline shows 51:04:05 on frame 1.
      const end = zonedInstant('2031-06-01T18:30', 'UTC');
      const now = end - (((2 * 24 + 3) * 60 + 4) * 60 + 5) * 1000;
      const res = await fetch(`${base}/r/${design.public_id}.gif`, {
        headers: { [TEST_NOW_HEADER]: String(now) },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/gif');
      const gif = Buffer.from(await res.arrayBuffer());
      const meta = await sharp(gif, { animated: true }).metadata();
      expect(meta.pages).toBe(5);
      await sharp(gif, { page: 0 }).png().toFile('test-results/e2e-countdown-4-render.png');
      const box = {
        left: Math.round(timer.left),
        top: Math.round(timer.top),
        width: Math.floor(timer.width * timer.scaleX),
        height: Math.floor(timer.height * timer.scaleY),
      };
      const text = await readWhiteText(ocr, gif, 0, box);
      expect(text.replace(/\D/g, ''), text).toBe('510405');
      const later = await readWhiteText(ocr, gif, 4, box);
      expect(later.replace(/\D/g, ''), later).toBe('510401');

      // The export screen says the image is an animated GIF, and its preview loads.
      await page.goto(`${base}/pic-snippet/${design.id}/export`, { waitUntil: 'networkidle0' });
      await waitForText(page, 'answers an animated GIF of up to 5 frames, one a second');
      await press(page, 'Got it');
      await snap(page, 'e2e-countdown-5-export');
      expect(errors).toEqual([]);
      await page.close();
    },
  );
});
