/// <reference lib="dom" />
/**
 * Web tracking end to end (docs/export.md): a plain HTML page on another origin, served here,
 * holds the snippet the export screen generates for "My website" (the script tag and a tagged
 * image). Opened in headless Chromium with `?first_name=Ana` in its address, the script sets the
 * image to the render URL with `first_name=Ana`, and the image should load and show what the
 * render URL draws for Ana (the render answers `Cross-Origin-Resource-Policy: cross-origin`).
 * Screenshot: test-results/e2e-web-tracking.png.
 *
 * The design is the file's own copy of the seeded demo design (`useDemoDesignCopy`): the render
 * for Ana and its fallback are compared as seeded, whatever another file saved to the demo
 * design (docs/testing.md "One stack per worker").
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebTrackingSnippet } from '#shared/export-url.ts';
import { useTestBrowser } from '../support/browser.ts';
import { useDemoDesignCopy } from '../support/designs.ts';
import { fetchImage, meanDifference, useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ web: 'none' });
const browser = useTestBrowser();
/** This file's copy of the seeded demo design: the customer page's tagged image. */
const welcome = useDemoDesignCopy();

let site: Server;
let siteUrl = '';

beforeAll(async () => {
  // The customer's site: its own origin, a page with the pasted snippet.
  site = createServer((_req, res) => {
    const snippet = buildWebTrackingSnippet(
      {
        base_url: `${stack().url}${welcome().render}`,
        provider: 'mywebsite',
        parameters: [{ param_name: 'first_name', merge_tag_value: 'first_name' }],
      },
      { origin: stack().url, width: 100 },
    );
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><html><head><title>Welcome</title></head>` +
          `<body style="margin:0;font-family:sans-serif"><h1>Our autumn offer</h1>${snippet}</body></html>`,
      );
  });
  await new Promise<void>((ok) => site.listen(0, '127.0.0.1', ok));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((ok) => site?.close(ok));
});

/** Opens the customer page with `?first_name=Ana` and waits until the tagged image settled. */
async function openCustomerPage() {
  const page = await browser().newPage();
  await page.setViewport({ width: 1100, height: 800 });
  const failures: string[] = [];
  page.on('requestfailed', (r) => {
    // The first src (the all-fallback render) is aborted when the script sets the new one.
    if (r.failure()?.errorText !== 'net::ERR_ABORTED')
      failures.push(`${r.url()} ${r.failure()?.errorText}`);
  });
  page.on('pageerror', (e) => failures.push(String(e)));
  await page.goto(`${siteUrl}/landing?first_name=Ana&utm_source=mail`, { waitUntil: 'load' });
  await page.waitForFunction(
    () => {
      const img = document.querySelector<HTMLImageElement>('img[data-picsnippet]');
      return img !== null && img.src.includes('first_name=Ana') && img.complete;
    },
    { timeout: 20_000 },
  );
  await page.screenshot({ path: 'test-results/e2e-web-tracking.png', fullPage: true });
  return { page, failures };
}

describe('the web-tracking script on a customer page', () => {
  it('loads cross-origin and sets the tagged image to the render URL with first_name=Ana', async () => {
    const { page, failures } = await openCustomerPage();
    const src = await page.$eval('img[data-picsnippet]', (img) => (img as HTMLImageElement).src);
    // Only the design's parameter is passed on: utm_source stays on the page.
    expect(src).toBe(`${stack().url}${welcome().render}?first_name=Ana`);
    expect(failures.filter((f) => f.includes('/js/picsnippets.js'))).toEqual([]);
    expect(
      await page.evaluate(() => typeof (window as { PicSnippets?: unknown }).PicSnippets),
    ).toBe('object');
    await page.close();
  });

  it('shows the render for Ana on the page', async () => {
    const { page, failures } = await openCustomerPage();
    expect(failures).toEqual([]);
    const element = await page.$('img[data-picsnippet]');
    expect(
      await element!.evaluate((img) => (img as HTMLImageElement).naturalWidth),
    ).toBeGreaterThan(0);

    // What the page shows is the render for Ana, not the all-fallback one.
    const shot = await sharp(await element!.screenshot())
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { width, height } = shot.info;
    const asShown = async (url: string) =>
      sharp((await fetchImage(url)).bytes)
        .resize(width, height, { fit: 'fill' })
        .removeAlpha()
        .raw()
        .toBuffer();
    const ana = await asShown(`${stack().url}${welcome().render}?first_name=Ana`);
    const fallback = await asShown(`${stack().url}${welcome().render}`);
    const k = width / 1000; // the render is 1000 px wide
    const band = {
      left: Math.round(50 * k),
      top: Math.round(200 * k),
      width: Math.round(900 * k),
      height: Math.round(220 * k),
    };
    const toAna = meanDifference(shot.data, ana, width, band);
    const toFallback = meanDifference(shot.data, fallback, width, band);
    // The browser's downscale and sharp's differ a little at text edges (about 3 of 255).
    expect(toAna).toBeLessThan(6);
    expect(toFallback).toBeGreaterThan(toAna * 2);
    await page.close();
  });
});
