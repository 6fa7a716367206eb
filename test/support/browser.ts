/**
 * A test browser: the Chromium that @sparticuz/chromium ships (never a download), separate from
 * the render service's warm one, with the flags a closed network needs.
 */
import { mkdir } from 'node:fs/promises';
import { afterAll, beforeAll } from 'vitest';
import puppeteer, { type Browser, type BrowserContext } from 'puppeteer-core';
import { chromiumArgs } from '#functions/render/browser.ts';
import { chromiumExecutable } from '#functions/render/chromium-binary.ts';
import { CHROMIUM_LOCKDOWN_ARGS } from '#lib/ssrf.ts';

/**
 * The flags with which @sparticuz/chromium emulates a GPU in software (ANGLE on SwiftShader), as
 * the render service's Lambda needs. A user's Chrome never draws that way: with a GPU it uses
 * the GPU, and without a usable one it composites and draws 2D canvases on the CPU.
 */
const EMULATED_GPU_FLAGS = [
  '--use-gl=angle',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--ignore-gpu-blocklist',
  '--in-process-gpu',
];

/**
 * Launches the test browser.
 * @param options.gpu `'emulated'` (default): @sparticuz/chromium's software GPU, as the render
 *   service runs; `'off'`: Chrome as on a machine without a usable GPU
 *   (`--disable-gpu`: CPU compositing and 2D canvases), the closest this GPU-less machine gets to
 *   a user's browser (the e2e tests by default, the editor benchmark; docs/performance.md
 *   "Editor").
 */
export async function launchTestBrowser(
  options: { gpu?: 'emulated' | 'off' } = {},
): Promise<Browser> {
  const gpuOff = options.gpu === 'off';
  return puppeteer.launch({
    executablePath: await chromiumExecutable(process.env.CHROMIUM_PATH),
    // Without the render lockdown: this browser is a user's, and must reach the local stack.
    args: [
      ...chromiumArgs().filter(
        (a) =>
          a !== '--single-process' &&
          !CHROMIUM_LOCKDOWN_ARGS.includes(a) &&
          !(gpuOff && EMULATED_GPU_FLAGS.includes(a)),
      ),
      ...(gpuOff ? ['--disable-gpu'] : []),
    ],
    headless: true,
    // DevTools over the process's pipes: when this process dies, however (a worker killed by a
    // signal or a timeout), the pipe closes and Chromium exits with it (docs/testing.md).
    pipe: true,
  });
}

/** What an e2e file uses of its browser: pages in its own context, and more contexts. */
export type TestBrowser = Pick<
  Browser,
  'newPage' | 'createBrowserContext' | 'defaultBrowserContext'
>;

const BROWSER_KEY = Symbol.for('picsnippets.test.browsers');
type BrowserHolder = { [BROWSER_KEY]?: Map<string, Promise<Browser>> };

/**
 * The worker's test browser of a GPU mode: launched on first use, kept for the worker's life
 * (it exits with the worker: its DevTools pipe closes), relaunched if it crashed or was closed.
 */
async function workerBrowser(gpu: 'emulated' | 'off'): Promise<Browser> {
  const browsers = ((globalThis as BrowserHolder)[BROWSER_KEY] ??= new Map());
  const current = await browsers.get(gpu)?.catch(() => undefined);
  if (current?.connected) return current;
  const launched = launchTestBrowser({ gpu });
  browsers.set(gpu, launched);
  return launched;
}

/**
 * A test browser for one e2e file: the worker's one browser (launched once per worker, not per
 * file), seen through a browser context of the file's own, so no cookie, storage or cache of one
 * file reaches another. `newPage()` and `defaultBrowserContext()` are the file's context;
 * `createBrowserContext()` makes another (a second user). Contexts and their pages close in
 * `afterAll`. test-results/ is made ready for screenshots. Returns a getter.
 * @param options.gpu `'off'` (default): Chrome as on a machine without a usable GPU, CPU
 *   compositing and 2D canvases, as most users' browsers draw an SPA, and at half the CPU of
 *   the emulated GPU on this machine (docs/testing.md "Time"); `'emulated'`: the software GPU of
 *   @sparticuz/chromium, as the render service draws.
 */
export function useTestBrowser(options: { gpu?: 'emulated' | 'off' } = {}): () => TestBrowser {
  let facade: TestBrowser | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    const browser = await workerBrowser(options.gpu ?? 'off');
    const context = await browser.createBrowserContext();
    contexts.push(context);
    facade = {
      newPage: () => context.newPage(),
      defaultBrowserContext: () => context,
      createBrowserContext: async (options) => {
        const more = await browser.createBrowserContext(options);
        contexts.push(more);
        return more;
      },
    };
    await mkdir('test-results', { recursive: true });
  });
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
  });
  return () => {
    if (!facade) throw new Error('the test browser did not start');
    return facade;
  };
}
