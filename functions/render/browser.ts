/**
 * The warm Chromium and the warm render page (docs/adr/0004-render-slice.md "Render slice"):
 * launched once per process, never per request. The page loads the render bundle from
 * functions/render/page/dist through request interception, and its font files from the assets
 * bucket or the configured font CDN (fonts.ts); every other request the page makes is aborted, so
 * the page can reach nothing on the network (the SSRF guard's first line, docs/security.md "SSRF
 * guard").
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
import { METRIC, recordMetric } from '#lib/metrics.ts';
import { forget, ready, waitFor } from '#lib/readiness.ts';
import { chromiumExecutable, discardUnpackedChromium } from './chromium-binary.ts';
import { fontFile } from './fonts.ts';

/** The origin the render page is served from; it never resolves, every request is intercepted. */
export const PAGE_ORIGIN = 'https://render.picsnippets.invalid';

/**
 * @sparticuz/chromium's defaults that weaken isolation; dropped (docs/security.md "SSRF guard").
 */
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

/**
 * The render browser's 2D canvases are drawn by the CPU from the first draw. With the emulated
 * GPU, Chromium starts a canvas GPU-accelerated and moves it to the CPU at its first read-back:
 * the first render of each process was drawn on the GPU path (slightly different pixels from
 * every later one) and its read-back paid the move (180–230 ms here). Every later render is drawn
 * exactly as before (docs/performance.md "Render v2: CPU per render, the fonts stage, cold
 * start").
 */
const RENDER_CANVAS_FLAGS = ['--disable-accelerated-2d-canvas'];

let browserPromise: Promise<Browser> | undefined;
let pagePromise: Promise<Page> | undefined;
/** True while `closeBrowser`/`resetRenderPage` end the browser on purpose. */
let closing = false;
/** Set by `closeBrowser` (stack stop, tests) until the next explicit `getRenderPage`. */
let closedOnPurpose = false;

/**
 * The only variables a Chromium process gets (docs/security.md "The render function's reach"): what
 * it needs to find its libraries, fonts and temp folder. Never AWS credentials, the session or
 * Stripe secrets, or any other setting of the function.
 */
const CHROMIUM_ENV_KEYS = [
  'PATH',
  'HOME',
  'LANG',
  'LC_ALL',
  'TZ',
  'TMPDIR',
  'LD_LIBRARY_PATH',
  'FONTCONFIG_PATH',
  'FONTCONFIG_FILE',
] as const;

/**
 * The environment for a Chromium process: the allow-listed variables of this process, with
 * `FONTCONFIG_FILE` pointing at @sparticuz/chromium's own `fonts.conf` when it is unpacked, so a
 * render here uses Lambda's fonts and never this machine's (docs/adr/0004-render-slice.md "Render
 * slice"). A binary stored unpacked (`CHROMIUM_PATH`, e.g. in a container image:
 * docs/adr/0071-fresh-cold-start-chromium-stored-unpacked.md "Fresh cold start: Chromium stored
 * unpacked") finds its `fonts/fonts.conf` beside it.
 * @param source the environment to pick from (default `process.env`); its `TMPDIR`, when set, is
 *   where the unpacked `fonts/fonts.conf` is looked for
 */
export function chromiumEnv(source: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of CHROMIUM_ENV_KEYS) {
    const value = source[key];
    if (value !== undefined) env[key] = value;
  }
  const override = source.CHROMIUM_PATH;
  // The temp folder @sparticuz/chromium unpacks into: the one `source` names, else this process's.
  const tmp = source.TMPDIR || tmpdir();
  const places = [tmp, ...(override ? [dirname(override)] : [])];
  const fontsConf = places.map((dir) => join(dir, 'fonts', 'fonts.conf')).find(existsSync);
  if (fontsConf) env.FONTCONFIG_FILE = fontsConf;
  return env;
}

/**
 * Launches a Chromium with the render flags and a scrubbed environment. When the unpacked binary
 * does not start (corrupt despite the size check), it is unpacked once more and launched again
 * (docs/operations.md "Chromium's first unpack").
 * @param onStep told what is happening, for the health answer
 * @param options.args the command line (default `chromiumArgs()`, the render browser's)
 * @throws Error naming the binary, what was tried and the launch error, when the second launch
 *   fails too
 */
export async function launchChromium(
  onStep: (what: string) => void = () => undefined,
  options: { args?: string[] } = {},
): Promise<Browser> {
  const override = config().CHROMIUM_PATH;
  const start = async (): Promise<Browser> => {
    onStep('unpacking Chromium');
    const executablePath = await chromiumExecutable(override);
    onStep('launching Chromium');
    return puppeteer.launch({
      executablePath,
      env: chromiumEnv(),
      args: options.args ?? chromiumArgs(),
      headless: true,
      // DevTools over stdio pipes rather than a WebSocket: less overhead for the pixel hand-off.
      pipe: true,
      defaultViewport: { width: 1056, height: 1056 },
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
  };
  try {
    return await start();
  } catch (first) {
    const message = (first as Error).message;
    if (override) {
      throw new Error(`Chromium at CHROMIUM_PATH=${override} did not start: ${message}`, {
        cause: first,
      });
    }
    // Only a binary that was there and did not run is unpacked again; a failed unpack (disk
    // full, no write access) is reported as it is.
    if (!(first instanceof Error) || !isLaunchFailure(first)) throw first;
    logger.warn('chromium did not start; unpacking it again', { error: first });
    await discardUnpackedChromium();
    try {
      return await start();
    } catch (second) {
      throw new Error(
        `Chromium did not start, even after unpacking @sparticuz/chromium again into ${tmpdir()}: ` +
          `${(second as Error).message}. Check free disk space in ${tmpdir()} and that nothing ` +
          'else removes files there while the product runs.',
        { cause: second },
      );
    }
  }
}

/** Puppeteer's launch errors: the process did not start, exited, or never answered. */
function isLaunchFailure(error: Error): boolean {
  return /Failed to launch|Target closed|Protocol error|spawn|ENOEXEC|EACCES|exited|Timed out/i.test(
    error.message,
  );
}

/**
 * When the render browser's last launch reached each step, ms since the process started
 * (`performance.now()`): `executable` the binary found or unpacked, `launched` puppeteer
 * connected to the spawned Chromium. For the bench's cold-start split (test/bench/cold-start.ts;
 * docs/performance.md "Method").
 */
export const launchSteps: { executable?: number; launched?: number } = {};

async function launch(): Promise<Browser> {
  const started = Date.now();
  const browser = await launchChromium(
    (what) => {
      if (what === 'launching Chromium') launchSteps.executable = performance.now();
      waitFor('renderer', what);
    },
    { args: [...chromiumArgs(), ...RENDER_CANVAS_FLAGS] },
  );
  launchSteps.launched = performance.now();
  browser.on('disconnected', () => {
    browserPromise = undefined;
    pagePromise = undefined;
    if (closing) return;
    logger.warn('chromium disconnected; relaunching it');
    recordMetric(METRIC.chromiumRestart);
    waitFor('renderer', 'relaunching Chromium after it exited');
    // Warm again soon, so the next request does not pay for the launch; not when the process
    // is stopping (Ctrl-C reaches Chromium too, just before the stack's stop closes it).
    setTimeout(() => {
      if (closedOnPurpose || browserPromise) return;
      void getRenderPage().catch((error: unknown) =>
        logger.error('chromium relaunch failed', { error: error as Error }),
      );
    }, 300).unref();
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
  waitFor('renderer', 'opening the render page');
  await page.goto(`${PAGE_ORIGIN}/index.html`, { waitUntil: 'load' });
  await page.waitForFunction('window.picsnippetsReady === true');
  ready('renderer');
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
  closedOnPurpose = false;
  pagePromise ??= getBrowser()
    .then(openPage)
    .catch((error: unknown) => {
      pagePromise = undefined;
      waitFor('renderer', 'a render to start Chromium again (the last start failed; see the log)');
      throw error;
    });
  return pagePromise;
}

/**
 * Drops the warm page and browser after a crash, so the next call launches fresh ones.
 * @param failed the page a draw failed on: nothing is dropped when the warm page is already
 *   another one (the browser exited and was relaunched in the meantime)
 */
export async function resetRenderPage(failed?: Page): Promise<void> {
  if (failed && pagePromise) {
    const current = await pagePromise.catch(() => undefined);
    if (current !== failed) return;
  }
  await endBrowser();
  waitFor('renderer', 'relaunching Chromium after a crash');
}

/** Closes the browser (local stack shutdown, tests); the renderer leaves the health answer. */
export async function closeBrowser(): Promise<void> {
  closedOnPurpose = true;
  await endBrowser();
  forget('renderer');
}

async function endBrowser(): Promise<void> {
  const pending = browserPromise;
  browserPromise = undefined;
  pagePromise = undefined;
  if (!pending) return;
  closing = true;
  try {
    const browser = await pending.catch(() => undefined);
    await browser?.close().catch(() => undefined);
  } finally {
    closing = false;
  }
}
