/// <reference lib="dom" />
/**
 * GIF playback in the editor (docs/adr/0059-gif-playback.md "GIF playback"): a design on an
 * uploaded red-then-blue GIF shows Play, Pause and Stop; playing moves through the frames, Pause
 * keeps and saves the frame shown, Stop shows and saves the first, and the render URL draws the
 * saved frame. Screenshots: test-results/e2e-gif-*.png.
 */
import sharp from 'sharp';
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { createDesign, ownTeam } from '../support/designs.ts';
import { fetchImage, pollUntil, useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import { TIMEOUT_MS, byRole, press, signIn, snap } from '../support/aria.ts';

const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();

const PASSWORD = 'design-walnut-27';

/** A two-frame GIF, red then blue, 300 x 200 px, 400 ms a frame. */
async function twoColourGif(): Promise<Buffer> {
  const frame = (background: string) =>
    sharp({ create: { width: 300, height: 200, channels: 3, background } })
      .png()
      .toBuffer();
  return sharp(await Promise.all(['#ff0000', '#0000ff'].map(frame)), {
    join: { animated: true },
  })
    .gif({ loop: 0, delay: [400, 400] })
    .toBuffer();
}

const waitForSaved = (page: Page) =>
  page.waitForFunction(
    () => document.querySelector('[data-testid="save-state"]')?.textContent?.includes('Saved'),
    { timeout: TIMEOUT_MS },
  );

/** The colour at the centre of the frames' layer. */
const centre = (page: Page) =>
  page.evaluate(() => {
    const c = document.querySelector<HTMLCanvasElement>('canvas.editor-stage__gif');
    if (!c || c.width === 0) return null;
    return [...c.getContext('2d')!.getImageData(c.width / 2, c.height / 2, 1, 1).data];
  });
const isRed = (px: number[] | null) => px !== null && px[0]! > 200 && px[2]! < 60;
const isBlue = (px: number[] | null) => px !== null && px[2]! > 200 && px[0]! < 60;

const frameText = (page: Page) =>
  page.$eval('[data-testid="gif-frame"]', (el) => el.textContent ?? '');

describe('GIF playback', () => {
  it(
    'plays, pauses and stops an animated base photo, saving the frame shown',
    { timeout: 240_000 },
    async () => {
      const base = stack().url;
      const email = `gif-e2e-${Date.now()}@example.com`;
      const client = await ownTeam(base, email);
      const form = new FormData();
      form.append(
        'image',
        new Blob([new Uint8Array(await twoColourGif())], { type: 'image/gif' }),
        'two.gif',
      );
      const uploaded = await client.request('POST', '/image', form);
      expect(uploaded.status, JSON.stringify(uploaded.json)).toBe(201);
      const design = await createDesign(client, {
        image_id: (uploaded.json.image as { id: string }).id,
        title: 'Animated',
      });

      const page = await browser().newPage();
      await page.setViewport({ width: 1400, height: 1000 });
      page.setDefaultTimeout(TIMEOUT_MS);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      await signIn(page, base, email, PASSWORD);
      await page.goto(`${base}/pic-snippet/${design.id}/edit`, { waitUntil: 'networkidle0' });
      await page.waitForSelector(byRole('button', 'Play'));
      await page.waitForSelector(byRole('button', 'Pause'));
      await page.waitForSelector(byRole('button', 'Stop'));

      // Playing (no reduced motion asked): both colours come by.
      await pollUntil('the red frame', () => centre(page), isRed, { timeoutMs: 15_000 });
      await pollUntil('the blue frame', () => centre(page), isBlue, { timeoutMs: 15_000 });
      await snap(page, 'e2e-gif-1-playing');

      // Pause on the blue frame: it stays, and is saved as frame 1 (index 1).
      await pollUntil('the blue frame again', () => centre(page), isBlue, { timeoutMs: 15_000 });
      await press(page, 'Pause');
      const paused = await centre(page);
      const shown = isBlue(paused) ? 1 : 0;
      expect(await frameText(page)).toBe(`Frame ${shown + 1} of 2`);
      await new Promise((r) => setTimeout(r, 1000));
      expect(await centre(page)).toEqual(paused);
      await waitForSaved(page);
      expect(
        (await client.request('GET', `/api/pic-snippet/${design.id}`)).json.base_image_gif_frame,
      ).toBe(shown);
      await snap(page, 'e2e-gif-2-paused');

      // Stop: the first frame (red), saved as 0; the render draws it.
      if (shown === 0) {
        // Paused on red: play on to blue so Stop has something to undo.
        await press(page, 'Play');
        await pollUntil('blue', () => centre(page), isBlue, { timeoutMs: 15_000 });
      }
      await press(page, 'Stop');
      expect(isRed(await centre(page))).toBe(true);
      expect(await frameText(page)).toBe('Frame 1 of 2');
      await waitForSaved(page);
      expect(
        (await client.request('GET', `/api/pic-snippet/${design.id}`)).json.base_image_gif_frame,
      ).toBe(0);
      await snap(page, 'e2e-gif-3-stopped');

      // Keyboard: Tab to Play, Space; then Pause by keyboard on blue; the render draws blue.
      await page.focus(byRole('button', 'Play'));
      await page.keyboard.press('Space');
      await pollUntil('blue after Play', () => centre(page), isBlue, { timeoutMs: 15_000 });
      await page.focus(byRole('button', 'Pause'));
      await page.keyboard.press('Space');
      await waitForSaved(page);
      const saved = (await client.request('GET', `/api/pic-snippet/${design.id}`)).json
        .base_image_gif_frame as number;
      const render = await pollUntil(
        'the render of the saved frame',
        () => fetchImage(`${base}/r/${design.public_id}.png?__preview=1`),
        (r) => {
          const i = (Math.floor(r.height / 2) * r.width + Math.floor(r.width / 2)) * 3;
          const px = [r.pixels[i]!, r.pixels[i + 1]!, r.pixels[i + 2]!];
          return saved === 1 ? isBlue(px) : isRed(px);
        },
      );
      expect(render.res.status).toBe(200);
      expect(errors).toEqual([]);
      await page.close();
    },
  );
});
