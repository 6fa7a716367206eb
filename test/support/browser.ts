/**
 * A test browser: the Chromium that @sparticuz/chromium ships (never a download), separate from
 * the render service's warm one, with the flags a closed network needs.
 */
import chromium from '@sparticuz/chromium';
import { mkdir } from 'node:fs/promises';
import { afterAll, beforeAll } from 'vitest';
import puppeteer, { type Browser } from 'puppeteer-core';
import { chromiumArgs } from '#functions/render/browser.ts';
import { CHROMIUM_LOCKDOWN_ARGS } from '#lib/ssrf.ts';

export async function launchTestBrowser(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH ?? (await chromium.executablePath()),
    // Without the render lockdown: this browser is a user's, and must reach the local stack.
    args: chromiumArgs().filter(
      (a) => a !== '--single-process' && !CHROMIUM_LOCKDOWN_ARGS.includes(a),
    ),
    headless: true,
  });
}

/**
 * A test browser for one e2e file: launched in `beforeAll` (with test-results/ ready for
 * screenshots), closed in `afterAll`. Returns a getter.
 */
export function useTestBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchTestBrowser();
    await mkdir('test-results', { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the test browser did not start');
    return browser;
  };
}
