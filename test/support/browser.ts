/**
 * A test browser: the Chromium that @sparticuz/chromium ships (never a download), separate from
 * the render service's warm one, with the flags a closed network needs.
 */
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser } from 'puppeteer-core';
import { chromiumArgs } from '#functions/render/browser.ts';

export async function launchTestBrowser(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH ?? (await chromium.executablePath()),
    args: chromiumArgs().filter((a) => a !== '--single-process'),
    headless: true,
  });
}
