/// <reference lib="dom" />
/**
 * e2e steps for the editor page (docs/editor.md): open a design's editor as the demo user in a
 * fresh tab, with the page's uncaught errors collected for the test to check at the end.
 */
import type { Page } from 'puppeteer-core';
import type { TestBrowser } from './browser.ts';
import { TIMEOUT_MS, signIn } from './aria.ts';

/** The seeded demo user (infra/local/seed.ts). */
export const DEMO_USER = { email: 'demo@example.com', password: 'demo-password' };

/**
 * Signs the demo user in on a new tab of `viewport` size, opens `/pic-snippet/{designId}/edit`
 * and waits until the canvas is drawn.
 * @returns the tab and the list its uncaught errors are pushed to.
 */
export async function openEditorPage(
  browser: TestBrowser,
  base: string,
  designId: string,
  viewport: { width: number; height: number },
): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  await page.setViewport(viewport);
  page.setDefaultTimeout(TIMEOUT_MS);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await signIn(page, base, DEMO_USER.email, DEMO_USER.password);
  await page.goto(`${base}/pic-snippet/${designId}/edit`, { waitUntil: 'networkidle0' });
  await page.waitForSelector('[data-testid="editor-canvas"] .canvas-container');
  return { page, errors };
}

/** Waits until the editor's save state reads "Saved" (docs/editor.md "Server sync"). */
export const waitForSaved = (page: Page) =>
  page.waitForFunction(
    () => document.querySelector('[data-testid="save-state"]')?.textContent?.includes('Saved'),
    { timeout: TIMEOUT_MS },
  );

/**
 * The editor's canvas layers composed in the page as the render page composes them (photo,
 * objects, watermarks), and the photo layer alone, as base64 PNGs, after two animation frames
 * (so a pending redraw, such as a countdown's tick, is on the canvas).
 */
export function editorLayers(page: Page): Promise<{ composed: string; photoOnly: string }> {
  return page.evaluate(async () => {
    for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(r));
    const host = document.querySelector('[data-testid="editor-canvas"]')!;
    const photo = host.querySelector<HTMLCanvasElement>('canvas.editor-stage__base')!;
    const objects = host.querySelector<HTMLCanvasElement>(
      '.canvas-container canvas.lower-canvas:not(.editor-stage__base)',
    )!;
    // The watermarks' overlay (docs/adr/0057-watermark.md "Watermark"): this free-plan team's
    // designs carry the product mark in both.
    const marks = host.querySelector<HTMLCanvasElement>('canvas.editor-stage__marks')!;
    const compose = (layers: HTMLCanvasElement[]) => {
      const out = document.createElement('canvas');
      out.width = photo.width;
      out.height = photo.height;
      const ctx = out.getContext('2d')!;
      for (const layer of layers) ctx.drawImage(layer, 0, 0, out.width, out.height);
      return out.toDataURL('image/png').split(',')[1]!;
    };
    return { composed: compose([photo, objects, marks]), photoOnly: compose([photo]) };
  });
}
