/// <reference lib="dom" />
/**
 * A text snippet in the team's uploaded font is drawn in that font when the editor opens
 * (docs/fonts.md; docs/editor.mdwork on the editor's load): the face is registered and loaded
 * before the text is measured, or the text is measured again once it arrives (canvas/textFonts.ts).
 * Two designs differ only in the snippet's family: an uploaded font, and a family nobody has, which
 * the default font draws (docs/editor.md "Messages"). Their canvases must differ. Screenshot:
 * test-results/e2e-editor-fonts-load.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { createDesign, signedIn } from '../support/designs.ts';
import { pollUntil, useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import { POLL, snap } from '../support/aria.ts';
import { openEditorPage } from '../support/editor-page.ts';
import { makeTtf } from '../support/fonts.ts';
import type { TestClient } from '../support/client.ts';

const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();
const WIDE = { width: 1440, height: 960 };

/** A design of the demo team with one large text snippet in `family`. */
async function designWithText(demo: TestClient, family: string): Promise<string> {
  const design = await createDesign(demo, { title: `Font ${family}` });
  const id = 'load-font-snippet';
  const text = 'Hamburgefonstiv';
  const saved = await demo.request('PUT', `/api/pic-snippet/${design.id}`, {
    ...design,
    text_snippets: [
      {
        id,
        text,
        original_text: text,
        fontFamily: family,
        fontSize: 72,
        fill: '#111827',
        left: 40,
        top: 60,
        width: 700,
        parameters: [],
      },
    ],
    graphics_data: [],
    title: design.title,
    version: design.version,
  });
  expect(saved.status, JSON.stringify(saved.json)).toBe(200);
  return design.id;
}

/** Waits until the base photo is painted (the middle pixel of its canvas is opaque). */
const photoPainted = (page: Page) =>
  page.waitForFunction(() => {
    const photo = document.querySelector<HTMLCanvasElement>('canvas.editor-stage__base');
    if (!photo || photo.width === 0) return false;
    const ctx = photo.getContext('2d');
    return ctx?.getImageData(photo.width >> 1, photo.height >> 1, 1, 1).data[3] === 255;
  });

/** The editor's canvases as data URLs, once its fonts are loaded. */
const canvasPixels = (page: Page) =>
  page.evaluate(async () => {
    await document.fonts.ready;
    return Array.from(
      document.querySelectorAll<HTMLCanvasElement>('[data-testid="editor-canvas"] canvas'),
    )
      .map((c) => c.toDataURL())
      .join('|');
  });

describe('fonts at editor load', () => {
  it(
    'draws a snippet in the team’s uploaded font when the editor opens',
    { timeout: 300_000 },
    async () => {
      const base = stack().url;
      const demo = await signedIn(base, 'demo@example.com');
      const family = `Acme Load ${Date.now().toString(36).replace(/\d/g, '')}`;
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(makeTtf(family))]), 'acme-load.ttf');
      const stored = await demo.request('POST', '/storeFont', form);
      expect(stored.status, JSON.stringify(stored.json)).toBe(201);

      const fallback = await designWithText(demo, 'Nobody Has This Font');
      const uploaded = await designWithText(demo, family);

      const first = await openEditorPage(browser(), base, fallback, WIDE);
      await photoPainted(first.page);
      // Drawn with the default font: settled once the fonts are in and the canvases stay the
      // same over two frames.
      const { before: drawnByDefault } = await pollUntil(
        'the canvas settled',
        async () => {
          const before = await canvasPixels(first.page);
          await first.page.evaluate(
            () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
          );
          return { before, after: await canvasPixels(first.page) };
        },
        ({ before, after }) => before === after,
        { timeoutMs: 20_000, intervalMs: 100 },
      );
      expect(first.errors).toEqual([]);
      await first.page.close();

      const { page, errors } = await openEditorPage(browser(), base, uploaded, WIDE);
      await photoPainted(page);
      await expect.poll(() => canvasPixels(page), POLL).not.toBe(drawnByDefault);
      await snap(page, 'e2e-editor-fonts-load');
      expect(errors).toEqual([]);
      await page.close();
    },
  );
});
