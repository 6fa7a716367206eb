/**
 * A test browser: the Chromium that @sparticuz/chromium ships (never a download), separate from
 * the render service's warm one, with the flags a closed network needs.
 */
import { mkdir } from 'node:fs/promises';
import { afterAll, beforeAll } from 'vitest';
import puppeteer, { type Browser } from 'puppeteer-core';
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
 * @param options.gpu `'emulated'` (default): @sparticuz/chromium's software GPU, as the e2e
 *   tests and the render service run; `'off'`: Chrome as on a machine without a usable GPU
 *   (`--disable-gpu`: CPU compositing and 2D canvases), the closest this GPU-less machine gets to
 *   a user's browser (the editor benchmark; docs/performance.md "Editor").
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
