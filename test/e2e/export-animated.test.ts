/// <reference lib="dom" />
/**
 * An animated design from the export screen through the render URL (docs/export.md "Animated
 * designs"; docs/animated-designs.md): the demo user uploads an animated GIF as a design's base
 * photo, opens its export screen, chooses Klaviyo, is told the design plays as an animated GIF,
 * generates, and the HTML's image, a `.gif` URL at 1× (no `@2x`), answers the
 * animation: every frame at its delay, frame 1 the design's first. Screenshot:
 * test-results/e2e-export-animated.png.
 */
import sharp from 'sharp';
import { expect, it } from 'vitest';
import { createDesign, signedIn } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import { snap, waitForText } from '../support/aria.ts';
import { generateHtml, openExportScreen, signedInPage } from '../support/export-page.ts';
import { frameCentre, solidGif } from '../support/gif.ts';

const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();

it('exports a GIF design to Klaviyo as its animation', { timeout: 240_000 }, async () => {
  const base = stack().url;
  const demo = await signedIn(base, 'demo@example.com');
  const gif = await solidGif(['#ff0000', '#00c000', '#0000ff'], {
    width: 600,
    height: 300,
    delayMs: [100, 200, 300],
  });
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(gif)], { type: 'image/gif' }), 'anim.gif');
  const upload = await demo.request('POST', '/image', form);
  expect(upload.status, JSON.stringify(upload.json)).toBe(201);
  const design = await createDesign(demo, { image_id: (upload.json.image as { id: string }).id });

  const { page, errors } = await signedInPage(browser(), base, 'demo@example.com', 'demo-password');
  await openExportScreen(page, base, design.id, 'klaviyo');
  await waitForText(page, 'An animated GIF in e-mail');
  const html = await generateHtml(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await snap(page, 'e2e-export-animated');

  // The e-mail's image: the `.gif` at 1× (no @2x).
  const img = /<img src="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
  expect(img, html).toMatch(new RegExp(`/r/${design.public_id}/v\\d+\\.gif(\\?|$)`));
  expect(img).not.toContain('@2x');
  const res = await fetch(img!);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/gif');
  expect(res.headers.get('cache-control')).not.toBe('no-store');
  const bytes = Buffer.from(await res.arrayBuffer());
  const meta = await sharp(bytes, { pages: -1 }).metadata();
  expect(meta.pages).toBe(3);
  expect(meta.delay).toEqual([100, 200, 300]);
  const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) <= 40);
  const colours = [
    [255, 0, 0],
    [0, 192, 0],
    [0, 0, 255],
  ];
  for (const [k, colour] of colours.entries())
    expect(near(await frameCentre(bytes, k), colour)).toBe(true);
  expect(errors).toEqual([]);
  await page.close();
});
