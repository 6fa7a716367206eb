/// <reference lib="dom" />
/**
 * Sign-in through the built SPA in headless Chromium (issue: accounts §2, §6): a wrong password
 * shows the field error, the right one signs in with a session the API knows.
 */
import { describe, expect, it } from 'vitest';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';

const stack = useLocalStack({ web: 'preview', warmChromium: false });
const browser = useTestBrowser();

describe('sign-in page', () => {
  it('shows the error for a wrong password, then signs in', async () => {
    const page = await browser().newPage();
    await page.setViewport({ width: 1280, height: 800 });
    await page.goto(`${stack().url}/login`, { waitUntil: 'networkidle0' });
    await page.type('input[name="email"]', 'demo@example.com');
    await page.type('input[name="password"]', 'wrong-password');
    await page.click('button[type="submit"]');
    await page.waitForFunction(
      () => document.body.innerText.includes('These credentials do not match our records.'),
      {
        timeout: 10_000,
      },
    );
    await page.screenshot({ path: 'test-results/e2e-sign-in-error.png' });

    await page.click('input[name="password"]', { count: 3 });
    await page.type('input[name="password"]', 'demo-password');
    await page.click('button[type="submit"]');
    await page.waitForFunction(() => location.pathname === '/', { timeout: 10_000 });
    const me = await page.evaluate(async () => {
      const res = await fetch('/user/current', {
        headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' },
      });
      return { status: res.status, body: (await res.json()) as { email?: string } };
    });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe('demo@example.com');
    const cookies = await browser().defaultBrowserContext().cookies();
    const session = cookies.find((c) => c.name === 'picsnippets_session');
    expect(session?.httpOnly).toBe(true);
    await page.close();
  });
});
