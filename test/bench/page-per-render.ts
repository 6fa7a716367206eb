/**
 * The page-per-render comparison (docs/performance.md "Method"): the common way of rendering images
 * with a headless browser. A Chromium is already running (warm, like ours), but every render opens
 * a new page, sets an HTML document with the base photo as an `<img>`, the three texts placed with
 * CSS and the QR code as an `<img>` (data URLs, so nothing goes to the network), waits for the load
 * and the fonts, takes a JPEG screenshot and closes the page.
 *
 * It runs in its own Chromium, launched with the renderer's flags (functions/render/browser.ts
 * `chromiumArgs`), so the stack's warm render page is not disturbed.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import puppeteer, { type Browser } from 'puppeteer-core';
import { chromiumArgs, chromiumEnv } from '#functions/render/browser.ts';
import { chromiumExecutable } from '#functions/render/chromium-binary.ts';
import { config } from '#lib/config.ts';
import { qrDataUrl } from './satori.ts';
import {
  CANVAS,
  JPEG_QUALITY,
  QR_SIDE_PX,
  REFERENCE_QR,
  REFERENCE_TEXTS,
  layerText,
  type ReferenceValues,
} from './reference.ts';

const require = createRequire(import.meta.url);

/** A font file of @fontsource/noto-sans as a data URL (woff2, what a browser page would use). */
async function fontUrl(weight: 400 | 700): Promise<string> {
  const file = require.resolve(
    `@fontsource/noto-sans/files/noto-sans-latin-${weight}-normal.woff2`,
  );
  return `data:font/woff2;base64,${(await readFile(file)).toString('base64')}`;
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface PagePerRenderer {
  /** One render in a fresh page. @returns JPEG bytes, quality 86. */
  render(values: ReferenceValues): Promise<Buffer>;
  close(): Promise<void>;
}

/**
 * Launches a separate Chromium (the binary @sparticuz/chromium unpacked, or CHROMIUM_PATH) and
 * prepares the page-per-render comparison.
 * @param photo the base photo already fitted to the canvas (JPEG).
 */
export async function createPagePerRenderer(photo: Buffer): Promise<PagePerRenderer> {
  const photoUrl = `data:image/jpeg;base64,${photo.toString('base64')}`;
  const [regular, bold] = await Promise.all([fontUrl(400), fontUrl(700)]);
  const browser: Browser = await puppeteer.launch({
    executablePath: await chromiumExecutable(config().CHROMIUM_PATH),
    env: chromiumEnv(),
    args: chromiumArgs(),
    headless: true,
    defaultViewport: { width: CANVAS.width, height: CANVAS.height },
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });

  const html = (values: ReferenceValues, qr: string): string => {
    const texts = REFERENCE_TEXTS.map(
      (t) =>
        `<div style="left:${t.left}px;top:${t.top}px;width:${t.width}px;font-size:${t.fontSize}px;` +
        `font-weight:${t.fontWeight};text-align:${t.textAlign};color:${t.fill};` +
        `-webkit-text-stroke:${t.strokeWidth}px ${t.stroke}">${escapeHtml(layerText(t, values))}</div>`,
    ).join('');
    return `<!doctype html><html><head><meta charset="utf-8"><style>
@font-face{font-family:"Noto Sans";font-weight:400;src:url(${regular}) format("woff2")}
@font-face{font-family:"Noto Sans";font-weight:700;src:url(${bold}) format("woff2")}
html,body{margin:0;width:${CANVAS.width}px;height:${CANVAS.height}px;overflow:hidden}
body{position:relative;font-family:"Noto Sans",sans-serif}
div{position:absolute;line-height:1.16;paint-order:stroke fill}
img{position:absolute;display:block}
</style></head><body>
<img src="${photoUrl}" style="left:0;top:0;width:${CANVAS.width}px;height:${CANVAS.height}px">
<img src="${qr}" style="left:${REFERENCE_QR.left}px;top:${REFERENCE_QR.top}px;width:${QR_SIDE_PX}px;height:${QR_SIDE_PX}px">
${texts}</body></html>`;
  };

  return {
    async render(values) {
      const qr = await qrDataUrl(values.qr_url);
      const page = await browser.newPage();
      try {
        await page.setContent(html(values, qr), { waitUntil: 'load', timeout: 15_000 });
        await page.evaluate('document.fonts.ready.then(() => true)');
        const jpeg = await page.screenshot({ type: 'jpeg', quality: JPEG_QUALITY });
        return Buffer.from(jpeg);
      } finally {
        await page.close();
      }
    },
    close: () => browser.close(),
  };
}
