/// <reference lib="dom" />
/**
 * The editor stacks a countdown timer's digits in the design's layer order, as the render does
 * (docs/editor.md "Countdown timer"; docs/adr/0058-countdown-timers.md "Countdown timers",
 * "Animated output"): a QR code over the timer hides the digits under it, one under the timer is
 * drawn over by them, in the editor's canvas and in the render URL's image at the same second (the
 * page's clock stands still; the render is asked for that instant). The preview still ticks when
 * the clock moves, and ticking records no undo step. Screenshots:
 * test-results/e2e-countdown-order-*.png.
 */
import type { Page } from 'puppeteer-core';
import { editorLayers } from '../support/editor-page.ts';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { TEST_NOW_HEADER } from '../../functions/render/countdown-gif.ts';
import { TIMEOUT_MS, byRole, signIn, snap } from '../support/aria.ts';
import { useTestBrowser } from '../support/browser.ts';
import { countdownSticker } from '../support/countdown.ts';
import { createDesign, ownTeam } from '../support/designs.ts';
import { advancePageClock, fakePageClock } from '../support/page-clock.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();
const PASSWORD = 'design-walnut-27';

/** The canvas, px: a little larger than the timer. */
const CANVAS = { width: 620, height: 220 };
/** A QR code's box: 100 px square at `left`, across the digits' row. */
const qrBox = (left: number) => ({ left, top: 60, width: 100, height: 100 });
/** Under the timer: across the days' digits. Over it: across the seconds' digits. */
const UNDER = qrBox(40);
const OVER = qrBox(470);

/** An opaque QR code sticker (dark on white) at `box`. */
const qrSticker = (uuid: string, box: ReturnType<typeof qrBox>) => ({
  uuid,
  stickerType: 'dynamicSticker',
  dynamicStickerType: 'qrCode',
  dynamicStickerUrl: 'https://example.com/',
  ...box,
  scaleX: 1,
  scaleY: 1,
  angle: 0,
});

type Rgb = { data: Buffer; width: number; height: number };

/** Decodes a PNG to raw RGB with its size. */
async function rgb(png: Buffer): Promise<Rgb> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Red pixels (the timer's digits, #ff0000) inside `box`, 2 px in from its edges. */
function redIn(image: Rgb, box: ReturnType<typeof qrBox>): number {
  let red = 0;
  for (let y = box.top + 2; y < box.top + box.height - 2; y++)
    for (let x = box.left + 2; x < box.left + box.width - 2; x++) {
      const i = (y * image.width + x) * 3;
      if (image.data[i]! > 180 && image.data[i + 1]! < 90 && image.data[i + 2]! < 90) red++;
    }
  return red;
}

/** The editor's canvas layers (photo, objects, watermarks) composed in the page, as RGB. */
async function editorCanvas(page: Page): Promise<Rgb> {
  return rgb(Buffer.from((await editorLayers(page)).composed, 'base64'));
}

describe('countdown timer layer order in the editor', () => {
  it(
    'hides the digits under a sticker over the timer and draws them over one under it, as the render does',
    { timeout: 240_000 },
    async () => {
      const base = stack().url;
      const email = `countdown-order-${Date.now()}@example.com`;
      const client = await ownTeam(base, email);
      const created = await createDesign(client, { title: 'Timer order' });
      const design = (await client.request('GET', `/api/pic-snippet/${created.id}`)).json;
      const saved = await client.request('PUT', `/api/pic-snippet/${created.id}`, {
        version: design.version,
        canvas_width: CANVAS.width,
        canvas_height: CANVAS.height,
        text_snippets: [],
        graphics_data: [
          qrSticker('qr-under', UNDER),
          countdownSticker(
            {
              deadline: '2031-06-01T18:30',
              timeZone: 'UTC',
              showLabels: false,
              fontFamily: 'Lato',
              fontWeight: 'bold',
              fill: '#ff0000',
              fontSize: 72,
            },
            { left: 10, top: 10, angle: 0 },
          ),
          qrSticker('qr-over', OVER),
        ],
      });
      expect(saved.status, JSON.stringify(saved.json)).toBe(200);

      // The editor at 1:1, its clock standing still.
      const page = await browser().newPage();
      await page.setViewport({ width: CANVAS.width + 900, height: CANVAS.height + 600 });
      page.setDefaultTimeout(TIMEOUT_MS);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      await fakePageClock(page);
      await signIn(page, base, email, PASSWORD);
      await page.goto(`${base}/pic-snippet/${created.id}/edit`, {
        waitUntil: 'domcontentloaded',
      });
      await page.waitForSelector('[data-testid="editor-canvas"] .canvas-container');
      await page.waitForFunction(
        (width) =>
          document.querySelector('[data-testid="editor-canvas"]')?.getBoundingClientRect().width ===
          width,
        {},
        CANVAS.width,
      );
      await page.evaluate(() => document.fonts.ready);
      // Drawn once the digits and both QR codes are in.
      await expect
        .poll(async () => redIn(await editorCanvas(page), UNDER), { timeout: TIMEOUT_MS })
        .toBeGreaterThan(50);
      await new Promise((r) => setTimeout(r, 1000));
      const now = await page.evaluate(() => Date.now());
      const editor = await editorCanvas(page);
      await snap(page, 'e2e-countdown-order-1-editor');

      const res = await fetch(`${base}/r/${created.public_id}.png?__preview=1`, {
        headers: { [TEST_NOW_HEADER]: String(now) },
      });
      expect(res.status).toBe(200);
      const render = await rgb(Buffer.from(await res.arrayBuffer()));
      expect([render.width, render.height]).toEqual([CANVAS.width, CANVAS.height]);
      expect([editor.width, editor.height]).toEqual([CANVAS.width, CANVAS.height]);
      for (const [name, image] of [
        ['editor', editor],
        ['render', render],
      ] as const)
        await sharp(image.data, { raw: { ...CANVAS, channels: 3 } })
          .png()
          .toFile(`test-results/e2e-countdown-order-2-${name}.png`);

      // Over the timer: no digit shows through the QR code, on either side.
      expect(redIn(editor, OVER)).toBe(0);
      expect(redIn(render, OVER)).toBe(0);
      // Under the timer: the same digits over the QR code on both sides.
      const under = { editor: redIn(editor, UNDER), render: redIn(render, UNDER) };
      console.info(`red pixels over the QR code under the timer: ${JSON.stringify(under)}`);
      expect(under.render).toBeGreaterThan(50);
      expect(under.editor).toBeGreaterThan(0.8 * under.render);
      expect(under.editor).toBeLessThan(1.25 * under.render);
      // The digits between the QR codes are drawn too (the timer is there at all).
      const between = { left: 150, top: 60, width: 310, height: 100 };
      expect(redIn(editor, between)).toBeGreaterThan(200);

      // The preview still ticks: a second later the seconds' digits change, still under the QR.
      const secondsArea = { left: 420, top: 30, width: 190, height: 160 };
      const before = redIn(editor, secondsArea);
      await advancePageClock(page, 1000);
      await expect
        .poll(async () => redIn(await editorCanvas(page), secondsArea), { timeout: TIMEOUT_MS })
        .not.toBe(before);
      expect(redIn(await editorCanvas(page), OVER)).toBe(0);
      // Ticking is no change of the design: nothing to undo.
      expect(
        await page.$eval(byRole('button', 'Undo'), (b) => (b as HTMLButtonElement).disabled),
      ).toBe(true);
      await snap(page, 'e2e-countdown-order-3-ticked');
      expect(errors).toEqual([]);
      await page.close();
    },
  );
});
