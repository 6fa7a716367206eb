/**
 * Web-page screenshots for screenshot stickers (docs/security.md "Render limits": 910x512, mobile
 * or desktop), taken in a Chromium of their own, never the render browser (docs/security.md
 * "Screenshot pages"):
 * - its own process (locally) or its own function (in AWS, functions/screenshot/handler.ts), so
 *   a hostile page shares no memory, CPU thread or credentials with the render page;
 * - every request of the page through the SSRF guard's interception, the lockdown flags (no DNS,
 *   no direct sockets), no popups (`--block-new-web-contents`, and any that appear are closed),
 *   downloads denied;
 * - a time budget for the whole capture: past it, the browser process is killed (a page that
 *   spins forever cannot hold a core) and the next capture launches a fresh one;
 * - at most `SCREENSHOT_CONCURRENCY` pages at once.
 */
import pLimit from 'p-limit';
import sharp from 'sharp';
import type { Browser, Page } from 'puppeteer-core';
import type { UrlGuard } from '#lib/ssrf.ts';
import { SCREENSHOT_SIZE } from '#shared/dynamic-stickers.ts';
import { logger } from '#lib/logger.ts';
import { chromiumArgs, launchChromium } from '#functions/render/browser.ts';

/** The whole capture (launch, load, sub-requests, screenshot), ms. */
export const SCREENSHOT_BUDGET_MS = 6000;
/** Pages at once in one screenshot browser. */
export const SCREENSHOT_CONCURRENCY = 2;

/**
 * The screenshot function's answer (functions/screenshot/handler.ts), as the render function
 * reads it: `{ jpeg }` (base64) on success; `{ error }` (a reason word, no URL) otherwise.
 */
export type ScreenshotResponse = { jpeg: string } | { error: string };

const MOBILE_USER_AGENT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 PicSnippets/1.0';

let browserPromise: Promise<Browser> | undefined;
const limit = pLimit(SCREENSHOT_CONCURRENCY);

function screenshotBrowser(): Promise<Browser> {
  browserPromise ??= launchChromium(undefined, {
    args: [...chromiumArgs(), '--block-new-web-contents'],
  }).then(
    (browser) => {
      browser.on('disconnected', () => {
        browserPromise = undefined;
      });
      return browser;
    },
    (error: unknown) => {
      browserPromise = undefined;
      throw error;
    },
  );
  return browserPromise;
}

/** Kills the screenshot browser's process at once (a page past its budget). */
async function killScreenshotBrowser(): Promise<void> {
  const pending = browserPromise;
  browserPromise = undefined;
  const browser = await pending?.catch(() => undefined);
  browser?.process()?.kill('SIGKILL');
}

/** The process id of the running screenshot browser, if one runs (tests). */
export async function screenshotBrowserPid(): Promise<number | undefined> {
  const browser = await browserPromise?.catch(() => undefined);
  return browser?.process()?.pid;
}

/** Closes the screenshot browser (tests, local stack stop). */
export async function closeScreenshotBrowser(): Promise<void> {
  const pending = browserPromise;
  browserPromise = undefined;
  const browser = await pending?.catch(() => undefined);
  await browser?.close().catch(() => undefined);
}

/** The largest element a crop takes, CSS px per side (larger elements are cut at it). */
export const MAX_CROP_SIDE_PX = 2000;

/**
 * A PNG of the first element matching `selector`, fitted within 910x512 with its aspect kept
 * (transparent around it), waiting for the element until `deadline` (ms since the epoch).
 * @throws Error `no element` when nothing matches in time or the element has no size.
 */
async function cropElement(page: Page, selector: string, deadline: number): Promise<Buffer> {
  const element = await page
    .waitForSelector(selector, { timeout: Math.max(1, deadline - Date.now()) })
    .catch(() => null);
  const box = await element?.boundingBox();
  if (!box || box.width < 1 || box.height < 1) throw new Error('no element');
  const shot = Buffer.from(
    await page.screenshot({
      type: 'png',
      omitBackground: true,
      captureBeyondViewport: true,
      clip: {
        x: Math.max(0, box.x),
        y: Math.max(0, box.y),
        width: Math.min(box.width, MAX_CROP_SIDE_PX),
        height: Math.min(box.height, MAX_CROP_SIDE_PX),
      },
    }),
  );
  return sharp(shot)
    .resize(SCREENSHOT_SIZE.width, SCREENSHOT_SIZE.height, {
      fit: 'contain',
      background: { r: 0, g: 0, b: 0, alpha: 0 },
    })
    .png()
    .toBuffer();
}

async function capture(
  guard: UrlGuard,
  url: string,
  isMobile: boolean,
  signal: AbortSignal,
  selector: string | undefined,
  deadline: number,
): Promise<Buffer> {
  const browser = await screenshotBrowser();
  const page = await browser.newPage();
  let interception: { close(): void } | undefined;
  try {
    signal.throwIfAborted();
    page.on('popup', (popup) => void popup?.close().catch(() => undefined));
    const session = await page.createCDPSession();
    await session.send('Browser.setDownloadBehavior', { behavior: 'deny' }).catch(() => undefined);
    interception = await guard.interceptPage(page, { timeoutMs: 4000 });
    if (isMobile) {
      await page.setViewport({
        width: 455,
        height: 256,
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
      });
      await page.setUserAgent({ userAgent: MOBILE_USER_AGENT });
    } else {
      await page.setViewport({ width: 1280, height: 720 });
    }
    await page.goto(url, { waitUntil: 'load', timeout: SCREENSHOT_BUDGET_MS });
    signal.throwIfAborted();
    if (selector !== undefined) return await cropElement(page, selector, deadline);
    const shot = Buffer.from(await page.screenshot({ type: 'png' }));
    return await sharp(shot)
      .resize(SCREENSHOT_SIZE.width, SCREENSHOT_SIZE.height, { fit: 'cover', position: 'top' })
      .jpeg({ quality: 85 })
      .toBuffer();
  } finally {
    interception?.close();
    void page.close().catch(() => undefined);
  }
}

/**
 * A JPEG screenshot of `url`, 910x512, or with `selector` a PNG of that element (a live web
 * crop, docs/web-crops.md), fitted within 910x512.
 * @param guard the SSRF guard that checks the URL and serves every request of the page
 * @param url an http(s) URL (already checked by the caller too)
 * @param isMobile a 455x256 viewport at 2x with a mobile user agent; else 1280x720
 * @param budgetMs the whole capture's budget (default `SCREENSHOT_BUDGET_MS`), the wait for the
 *   element included
 * @param selector the element to crop (a CSS selector, at most 200 characters); absent: the page
 * @returns the JPEG (page) or PNG (element) bytes
 * @throws `UrlRefused` from the guard; Error `screenshot budget exceeded` past the budget (the
 *   browser is then killed); Error `no element` when the selector matches nothing in time;
 *   puppeteer's errors for a page that does not load or a selector it cannot read
 */
export function captureScreenshot(
  guard: UrlGuard,
  url: string,
  isMobile: boolean,
  budgetMs = SCREENSHOT_BUDGET_MS,
  selector?: string,
): Promise<Buffer> {
  return limit(async () => {
    await guard.check(url);
    const deadline = Date.now() + budgetMs;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const overBudget = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new Error('screenshot budget exceeded'));
      }, budgetMs);
    });
    try {
      return await Promise.race([
        capture(guard, url, isMobile, controller.signal, selector, deadline),
        overBudget,
      ]);
    } catch (error) {
      if (controller.signal.aborted) {
        logger.warn('screenshot over budget; killing its browser', { budgetMs });
        await killScreenshotBrowser();
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  });
}
