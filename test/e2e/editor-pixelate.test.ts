/// <reference lib="dom" />
/**
 * The Pixelate control (docs/editor.md "Filters and enhancements";
 * docs/adr/0050-pixelate-and-legacy-base-image-scaling.md "Pixelate and legacy base-image
 * scaling"): the user opens Enhance, moves the Pixelate slider by keyboard to 12 px; the output
 * reads "12 px", the value is saved, the editor's photo turns into 12 px blocks of one colour, and
 * the render URL draws the same blocks. Moving it back to 1 px draws the plain photo again (a value
 * of 1 or below is ignored). Screenshots: test-results/e2e-pixelate-*.png.
 */
import { writeFile } from 'node:fs/promises';
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { createDesign, ownTeam } from '../support/designs.ts';
import { fetchImage, pollUntil, useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import { TIMEOUT_MS, byRole, press, signIn, snap } from '../support/aria.ts';
import { waitForSaved } from '../support/editor-page.ts';

const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();

const PASSWORD = 'design-walnut-27';
const BLOCK = 12;

/** The block of canvas px 24..35 on both axes: 144 px that Pixelate 12 makes one colour. */
const BLOCK_AT = { x: 2 * BLOCK, y: 2 * BLOCK };

/** How far the pixels of one block spread, in levels (worst channel): 0 for one colour. */
function spread(pixelAt: (x: number, y: number) => number[]): number {
  const first = pixelAt(BLOCK_AT.x, BLOCK_AT.y);
  let worst = 0;
  for (let y = BLOCK_AT.y; y < BLOCK_AT.y + BLOCK; y++)
    for (let x = BLOCK_AT.x; x < BLOCK_AT.x + BLOCK; x++) {
      const px = pixelAt(x, y);
      for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(px[c]! - first[c]!));
    }
  return worst;
}

/** The spread of the block on the editor's photo layer, read at canvas px. */
const editorSpread = (page: Page, canvasWidth: number) =>
  page
    .evaluate(
      (at, block, width) => {
        const photo = document.querySelector<HTMLCanvasElement>(
          '[data-testid="editor-canvas"] canvas.editor-stage__base',
        );
        if (!photo || photo.width === 0) return null;
        const k = photo.width / width;
        const data = photo
          .getContext('2d')!
          .getImageData(
            Math.round(at.x * k),
            Math.round(at.y * k),
            Math.round(block * k),
            Math.round(block * k),
          );
        return { w: data.width, rgba: Array.from(data.data) };
      },
      BLOCK_AT,
      BLOCK,
      canvasWidth,
    )
    .then((read) => {
      if (!read) return Number.POSITIVE_INFINITY;
      // Inset by a device px on each side: the browser's scaling may soften block edges.
      let worst = 0;
      const at = (x: number, y: number) =>
        read.rgba.slice((y * read.w + x) * 4, (y * read.w + x) * 4 + 3);
      const first = at(1, 1);
      for (let y = 1; y < read.w - 1; y++)
        for (let x = 1; x < read.w - 1; x++)
          for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(at(x, y)[c]! - first[c]!));
      return worst;
    });

describe('the Pixelate control', () => {
  it(
    'pixelates the photo in 12 px blocks in the editor and the render, and 1 px draws it plain',
    { timeout: 240_000 },
    async () => {
      const base = stack().url;
      const email = `pixelate-e2e-${Date.now()}@example.com`;
      const client = await ownTeam(base, email);
      const design = await createDesign(client, { title: 'Pixelated' });
      const loaded = (await client.request('GET', `/api/pic-snippet/${design.id}`)).json;
      const width = Number(loaded.canvas_width);
      const render = () => fetchImage(`${base}/r/${design.public_id}.png?__preview=1`);
      const renderSpread = async () => {
        const r = await render();
        return spread((x, y) => {
          const i = (y * r.width + x) * 3;
          return [r.pixels[i]!, r.pixels[i + 1]!, r.pixels[i + 2]!];
        });
      };
      // The plain photo varies inside that square.
      expect(await renderSpread()).toBeGreaterThan(10);

      const page = await browser().newPage();
      await page.setViewport({ width: 1400, height: 1000 });
      page.setDefaultTimeout(TIMEOUT_MS);
      page.setDefaultNavigationTimeout(60_000);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      await signIn(page, base, email, PASSWORD);
      await page.goto(`${base}/pic-snippet/${design.id}/edit`, { waitUntil: 'domcontentloaded' });
      await page.waitForSelector('[data-testid="editor-canvas"] .canvas-container');

      await press(page, 'Enhance');
      const slider = (await page.waitForSelector(byRole('slider', 'Pixelate')))!;
      await slider.focus();
      for (let i = 0; i < BLOCK; i++) await page.keyboard.press('ArrowRight');
      const output = () =>
        slider.evaluate((el) => el.parentElement?.querySelector('output')?.textContent ?? '');
      expect(await output()).toBe(`${BLOCK} px`);
      await pollUntil(
        'the editor photo in blocks',
        () => editorSpread(page, width),
        (s) => s <= 3,
        {
          timeoutMs: 30_000,
        },
      );
      await snap(page, 'e2e-pixelate-1-editor');
      await waitForSaved(page);
      const saved = (await client.request('GET', `/api/pic-snippet/${design.id}`)).json;
      expect((saved.enhance as Record<string, number>).Pixelate).toBe(BLOCK);
      await pollUntil('the render in blocks', renderSpread, (s) => s <= 2, { timeoutMs: 30_000 });
      await writeFile('test-results/e2e-pixelate-2-render.png', (await render()).bytes);

      // Back to 1 px: ignored, the plain photo again on both sides.
      for (let i = 0; i < BLOCK - 1; i++) await page.keyboard.press('ArrowLeft');
      expect(await output()).toBe('1 px');
      await pollUntil(
        'the editor photo plain',
        () => editorSpread(page, width),
        (s) => s > 10,
        {
          timeoutMs: 30_000,
        },
      );
      await waitForSaved(page);
      await pollUntil('the render plain', renderSpread, (s) => s > 10, { timeoutMs: 30_000 });
      await snap(page, 'e2e-pixelate-3-plain');
      expect(errors).toEqual([]);
      await page.close();
    },
  );
});
