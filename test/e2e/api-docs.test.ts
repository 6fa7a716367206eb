/// <reference lib="dom" />
/**
 * The developer API reference (docs/developer-api.md): `/api/docs` draws the OpenAPI document
 * with the kept viewer in the browser, under its own content security policy, with no script or
 * style refused and no request to another origin.
 */
import { describe, expect, it } from 'vitest';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import { snap, waitForText } from '../support/aria.ts';

const stack = useLocalStack({ web: 'preview', warmChromium: false });
const browser = useTestBrowser();

describe('/api/docs', () => {
  it('draws the reference of the token routes, with nothing refused by the CSP', async () => {
    const page = await browser().newPage();
    const refused: string[] = [];
    const foreign: string[] = [];
    const origin = new URL(stack().url).origin;
    page.on('console', (message) => {
      if (/content security policy/i.test(message.text())) refused.push(message.text());
    });
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol.startsWith('http') && url.origin !== origin) foreign.push(request.url());
    });
    await page.setViewport({ width: 1280, height: 900 });
    await page.goto(`${stack().url}/api/docs`, { waitUntil: 'networkidle0' });
    // The groups in the table's order, the render group first (the image URL and the rule link);
    // the viewer draws the groups in view, and its filter box finds the others by name.
    await waitForText(page, 'GET /r/{proxy+}');
    const listed = await page.evaluate(() => document.body.innerText);
    expect(listed).toContain('GET /l/{proxy+}');
    expect(listed.indexOf('render')).toBeLessThan(listed.indexOf('designs'));
    await page.type('input.operation-filter-input', 'templates');
    await waitForText(page, 'GET /getHomeTemplates');
    const filtered = await page.evaluate(() =>
      Array.from(document.querySelectorAll('.opblock-tag'), (e) => e.textContent),
    );
    expect(filtered.some((name) => name?.startsWith('templates'))).toBe(true);
    expect(filtered.some((name) => name?.startsWith('designs'))).toBe(false);
    await snap(page, 'e2e-api-docs');
    expect(refused).toEqual([]);
    expect(foreign).toEqual([]);
    await page.close();
  });
});
