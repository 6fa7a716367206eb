/**
 * The warm Chromium and the warm render page (DESIGN.md §5): launched once per process, never
 * per request. The page loads the render bundle from functions/render/page/dist through request
 * interception, and its font files from the assets bucket or the configured font CDN (fonts.ts);
 * every other request the page makes is aborted, so the page can reach nothing on the network
 * (the SSRF guard's first line, issue: render §10).
 */
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { config } from '#lib/config.ts';
import { CHROMIUM_LOCKDOWN_ARGS } from '#lib/ssrf.ts';
import { logger } from '#lib/logger.ts';
import { fontFile } from './fonts.ts';

/** The origin the render page is served from; it never resolves, every request is intercepted. */
export const PAGE_ORIGIN = 'https://render.picsnippets.invalid';

/** @sparticuz/chromium's defaults that weaken isolation; dropped (issue: render §10). */
const INSECURE_FLAGS = [
  '--disable-web-security',
  '--allow-running-insecure-content',
  '--disable-site-isolation-trials',
];

/** Flags for a closed network: no background fetches (env notes: they fail here anyway). */
const QUIET_FLAGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  '--disable-extensions',
];

const here = dirname(fileURLToPath(import.meta.url));
/** The built page: beside this file in a Lambda bundle, or under page/dist in the repo. */
const PAGE_DIRS = [join(here, 'page', 'dist'), join(here, 'page')];

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
};

async function findPageDir(): Promise<string> {
  for (const dir of PAGE_DIRS) {
    try {
      await readFile(join(dir, 'main.js'));
      return dir;
    } catch {
      // try the next location
    }
  }
  throw new Error('render page bundle not found: run `npm run build:render`');
}

/**
 * The launch arguments: @sparticuz/chromium's, less the insecure ones, plus quiet ones and the
 * SSRF lockdown (no DNS, no direct sockets: WebSockets and WebRTC bypass request interception;
 * functions/lib/ssrf.ts).
 */
export function chromiumArgs(): string[] {
  return [
    ...chromium.args.filter((a) => !INSECURE_FLAGS.includes(a)),
    ...QUIET_FLAGS,
    ...CHROMIUM_LOCKDOWN_ARGS,
  ];
}

let browserPromise: Promise<Browser> | undefined;
let pagePromise: Promise<Page> | undefined;

async function launch(): Promise<Browser> {
  const started = Date.now();
  const executablePath = config().CHROMIUM_PATH ?? (await chromium.executablePath());
  // Lambda's font setup everywhere: only @sparticuz/chromium's fonts.conf (Open Sans), never this
  // machine's fonts, so a render that looks right here looks right in Lambda (DESIGN.md §5).
  const fontsConf = join(tmpdir(), 'fonts', 'fonts.conf');
  const env = existsSync(fontsConf) ? { ...process.env, FONTCONFIG_FILE: fontsConf } : process.env;
  const browser = await puppeteer.launch({
    executablePath,
    env,
    args: chromiumArgs(),
    headless: true,
    // DevTools over stdio pipes rather than a WebSocket: less overhead for the pixel hand-off.
    pipe: true,
    defaultViewport: { width: 1056, height: 1056 },
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  browser.on('disconnected', () => {
    logger.warn('chromium disconnected; it will be relaunched on the next render');
    browserPromise = undefined;
    pagePromise = undefined;
  });
  logger.info('chromium launched', { ms: Date.now() - started });
  return browser;
}

async function openPage(browser: Browser): Promise<Page> {
  const dir = await findPageDir();
  const page = await browser.newPage();
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin !== PAGE_ORIGIN || request.method() !== 'GET') {
      void request.abort('blockedbyclient');
      return;
    }
    // Font files: the assets bucket's fonts and the configured font CDN only (fonts.ts).
    const font = fontFile(decodeURIComponent(url.pathname));
    if (font) {
      void font.then(
        (body) =>
          body
            ? request.respond({
                status: 200,
                contentType: TYPES[extname(url.pathname)] ?? 'application/octet-stream',
                body,
              })
            : request.respond({ status: 404, body: '' }),
        () => request.respond({ status: 404, body: '' }),
      );
      return;
    }
    const file = normalize(join(dir, decodeURIComponent(url.pathname)));
    if (!file.startsWith(dir)) {
      void request.abort('blockedbyclient');
      return;
    }
    readFile(file).then(
      (body) =>
        request.respond({
          status: 200,
          contentType: TYPES[extname(file)] ?? 'application/octet-stream',
          body,
        }),
      () => request.respond({ status: 404, body: '' }),
    );
  });
  page.on('pageerror', (error) => logger.error('render page error', { error }));
  await page.goto(`${PAGE_ORIGIN}/index.html`, { waitUntil: 'load' });
  await page.waitForFunction('window.picsnippetsReady === true');
  return page;
}

/** The warm browser; launched on first use and after a crash. */
export function getBrowser(): Promise<Browser> {
  browserPromise ??= launch().catch((error: unknown) => {
    browserPromise = undefined;
    throw error;
  });
  return browserPromise;
}

/** The warm render page holding fabric and the fonts. */
export function getRenderPage(): Promise<Page> {
  pagePromise ??= getBrowser()
    .then(openPage)
    .catch((error: unknown) => {
      pagePromise = undefined;
      throw error;
    });
  return pagePromise;
}

/** Drops the warm page and browser after a crash, so the next call launches fresh ones. */
export async function resetRenderPage(): Promise<void> {
  const pending = browserPromise;
  browserPromise = undefined;
  pagePromise = undefined;
  const browser = await pending?.catch(() => undefined);
  await browser?.close().catch(() => undefined);
}

/** Closes the browser (local stack shutdown, tests). */
export async function closeBrowser(): Promise<void> {
  const pending = browserPromise;
  browserPromise = undefined;
  pagePromise = undefined;
  if (pending) {
    const browser = await pending.catch(() => undefined);
    await browser?.close().catch(() => undefined);
  }
}
