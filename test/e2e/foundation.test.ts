/// <reference lib="dom" />
/**
 * End to end: the built SPA in headless Chromium through the local stack, and the demo render URL
 * with two names. Screenshots land in test-results/.
 *
 * The home page's live preview is the seeded demo design (web/src/lib/renderUrl.ts
 * `DEMO_DESIGN`), which the file only reads, as every file may (docs/testing.md "One stack per
 * worker"): its size and a redraw for a typed name. The render URL's two names are drawn from
 * the file's own copy of the demo design (`useDemoDesignCopy`), as seeded whatever another file
 * saved to the demo design.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useDemoDesignCopy } from '../support/designs.ts';
import { fetchImage, meanDifference, useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import { TIMEOUT_MS } from '../support/aria.ts';

if (!existsSync('dist/web/index.html')) {
  throw new Error('dist/web is missing: run `npm run build` before the e2e tests (npm test does).');
}

const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();
/** This file's copy of the seeded demo design, for the render URL's two names. */
const welcome = useDemoDesignCopy();

describe('the SPA', () => {
  it('loads the home page with the live render, and the system status from the footer', async () => {
    const page = await browser().newPage();
    await page.setViewport({ width: 1280, height: 900 });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(stack().url, { waitUntil: 'networkidle0' });

    const preview = await page.waitForSelector('[data-testid="render-preview"]');
    await page.waitForFunction(
      () => {
        const img = document.querySelector<HTMLImageElement>('[data-testid="render-preview"]');
        return img !== null && img.complete && img.naturalWidth > 0;
      },
      { timeout: TIMEOUT_MS },
    );
    const size = await preview!.evaluate((img) => [
      (img as HTMLImageElement).naturalWidth,
      (img as HTMLImageElement).naturalHeight,
    ]);
    expect(size).toEqual([1000, 625]);

    await page.screenshot({ path: 'test-results/e2e-home.png', fullPage: true });

    // Typing a name redraws the preview through the real render URL.
    const input = await page.waitForSelector('[data-testid="first-name"]');
    await input!.click({ count: 3 });
    await input!.type('Bartholomew');
    await page.waitForFunction(
      () => {
        const img = document.querySelector<HTMLImageElement>('[data-testid="render-preview"]');
        return (
          img !== null &&
          img.src.includes('first_name=Bartholomew') &&
          img.complete &&
          img.naturalWidth > 0
        );
      },
      { timeout: TIMEOUT_MS },
    );
    await page.screenshot({ path: 'test-results/e2e-home-bartholomew.png' });
    // The home page lists no service checks; the footer's "System status" shows them.
    expect(await page.$('[data-testid="health"]')).toBeNull();
    await page.click('footer a[href="/status"]');
    await page.waitForFunction(
      () => /ok/i.test(document.querySelector('[data-testid="health"]')?.textContent ?? ''),
      { timeout: TIMEOUT_MS },
    );
    expect(errors).toEqual([]);
    await page.close();
  });

  it('serves the SPA shell for client routes, as CloudFront does', async () => {
    const res = await fetch(`${stack().url}/settings/companies/abc`, {
      headers: { accept: 'text/html' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-security-policy')).toContain("object-src 'none'");
    expect(await res.text()).toContain('<div id="root">');
  });
});

describe('the demo render URL', () => {
  it('returns different decodable JPEGs for two names', async () => {
    const ana = await fetchImage(`${stack().url}${welcome().render}.jpg?first_name=Ana`);
    const ben = await fetchImage(`${stack().url}${welcome().render}.jpg?first_name=Benedikt`);
    for (const img of [ana, ben]) {
      expect(img.res.headers.get('content-type')).toBe('image/jpeg');
      expect([img.width, img.height]).toEqual([1000, 625]);
    }
    expect(ana.bytes.equals(ben.bytes)).toBe(false);
    expect(
      meanDifference(ana.pixels, ben.pixels, 1000, { left: 50, top: 240, width: 900, height: 140 }),
    ).toBeGreaterThan(3);
  });
});
