/// <reference lib="dom" />
/**
 * The watermark as a user meets it (docs/adr/0057-watermark.md "Watermark"): the owner of a
 * free-plan company uploads its logo in the company settings, switches "Show watermark" on in the
 * editor, and sees the logo at the top left of the canvas and of the render URL's image, with the
 * product mark at the bottom right of both. Screenshots: test-results/e2e-watermark-*.png.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { ElementHandle, Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { createDesign, ownTeam } from '../support/designs.ts';
import { fetchImage, pollUntil, useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import { TIMEOUT_MS, byRole, press, signIn, snap, waitForText } from '../support/aria.ts';
import { productMarkBox } from '#shared/scene/watermark.ts';

const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();

const PASSWORD = 'design-walnut-27';

/** Waits until the editor's save state reads "Saved". */
const waitForSaved = (page: Page) =>
  page.waitForFunction(
    () => document.querySelector('[data-testid="save-state"]')?.textContent?.includes('Saved'),
    { timeout: TIMEOUT_MS },
  );

/** The overlay canvas's RGBA at a design px (it is drawn in design px). */
const overlayPixel = (page: Page, x: number, y: number) =>
  page.evaluate(
    (px, py) => {
      const marks = document.querySelector<HTMLCanvasElement>(
        '[data-testid="editor-canvas"] canvas.editor-stage__marks',
      );
      if (!marks) return null;
      return [...marks.getContext('2d')!.getImageData(px, py, 1, 1).data];
    },
    x,
    y,
  );

describe('watermark', () => {
  it(
    'sets the company watermark, shows it on a design in the editor and in the render',
    { timeout: 240_000 },
    async () => {
      const base = stack().url;
      const email = `watermark-e2e-${Date.now()}@example.com`;
      const client = await ownTeam(base, email);
      const teamId = String((await client.request('GET', '/settings/companies/current')).json.id);
      const design = await createDesign(client, { title: 'Watermarked' });

      // A red logo with a transparent border, as a PNG file to choose.
      const logo = join(mkdtempSync(join(tmpdir(), 'watermark-')), 'logo.png');
      writeFileSync(
        logo,
        await sharp({
          create: {
            width: 400,
            height: 200,
            channels: 4,
            background: { r: 0, g: 0, b: 0, alpha: 0 },
          },
        })
          .composite([
            {
              input: await sharp({
                create: { width: 360, height: 160, channels: 4, background: '#dc2626' },
              })
                .png()
                .toBuffer(),
              left: 20,
              top: 20,
            },
          ])
          .png()
          .toBuffer(),
      );

      const page = await browser().newPage();
      await page.setViewport({ width: 1600, height: 1000 });
      page.setDefaultTimeout(TIMEOUT_MS);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      await signIn(page, base, email, PASSWORD);

      // Company settings: no watermark yet; choose one; its preview shows.
      await page.goto(`${base}/settings/companies/${teamId}#/companies`, {
        waitUntil: 'networkidle0',
      });
      await waitForText(page, 'No watermark yet.');
      const input = (await page.waitForSelector(
        'input[type="file"][aria-label="Watermark image"]',
      )) as ElementHandle<HTMLInputElement>;
      await input.uploadFile(logo);
      await waitForText(page, 'The watermark was saved.');
      await page.waitForSelector('img.watermark-preview');
      await page.waitForSelector(byRole('button', 'Replace watermark'));
      await snap(page, 'e2e-watermark-1-settings');

      // The editor: switch "Show watermark" on (a checkbox, by keyboard); it is saved.
      await page.goto(`${base}/pic-snippet/${design.id}/edit`, { waitUntil: 'networkidle0' });
      await page.waitForSelector('[data-testid="editor-canvas"] .canvas-container');
      const toggle = await page.waitForSelector(byRole('checkbox', 'Show watermark'));
      expect(await toggle!.evaluate((el) => (el as HTMLInputElement).checked)).toBe(false);
      // The free plan's product mark is there before the logo.
      const canvas = await page.$eval('[data-testid="editor-canvas"]', (el) => ({
        width: Number((el as HTMLElement).dataset.canvasWidth),
      }));
      expect(canvas.width).toBeGreaterThan(0);
      await waitForText(page, 'Free plan: the PicSnippets mark shows');
      await toggle!.focus();
      await page.keyboard.press('Space');
      await waitForSaved(page);
      expect(await toggle!.evaluate((el) => (el as HTMLInputElement).checked)).toBe(true);
      // The logo (a quarter of 400 x 200 at 10,10) is drawn at half opacity at 60,35.
      const red = await pollUntil(
        'the watermark on the editor canvas',
        () => overlayPixel(page, 60, 35),
        (px) => px !== null && px[3]! > 100,
      );
      expect(red![0]).toBeGreaterThan(200);
      expect(red![3]).toBeGreaterThan(110);
      expect(red![3]).toBeLessThan(145);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
      await snap(page, 'e2e-watermark-2-editor');

      // The render URL draws the same: reddish at 60,35, the dark product mark at the bottom right.
      const saved = await client.request('GET', `/api/pic-snippet/${design.id}`);
      expect(saved.json.show_watermark).toBe(true);
      const image = await pollUntil(
        'a render with the watermark',
        () => fetchImage(`${base}/r/${design.public_id}.png?__preview=1`),
        (r) => {
          const i = (35 * r.width + 60) * 3;
          return r.pixels[i]! - r.pixels[i + 1]! > 80;
        },
      );
      const mark = productMarkBox({ width: image.width, height: image.height });
      const pill = ((mark.top + 37) * image.width + mark.left + 80) * 3;
      expect(
        Math.max(image.pixels[pill]!, image.pixels[pill + 1]!, image.pixels[pill + 2]!),
      ).toBeLessThan(110);
      writeFileSync('test-results/e2e-watermark-3-render.png', image.bytes);

      // Switched off again: the logo leaves the canvas (the product mark stays).
      await toggle!.focus();
      await page.keyboard.press('Space');
      await waitForSaved(page);
      await pollUntil(
        'the watermark gone from the editor canvas',
        () => overlayPixel(page, 60, 35),
        (px) => px !== null && px[3] === 0,
      );
      await snap(page, 'e2e-watermark-4-off');
      // The settings' Remove button takes it away.
      await page.goto(`${base}/settings/companies/${teamId}#/companies`, {
        waitUntil: 'networkidle0',
      });
      await press(page, 'Remove watermark');
      await waitForText(page, 'The watermark was removed.');
      await waitForText(page, 'No watermark yet.');
      expect(errors).toEqual([]);
      await page.close();
    },
  );
});
