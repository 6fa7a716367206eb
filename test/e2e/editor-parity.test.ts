/// <reference lib="dom" />
/**
 * Editor–render parity (docs/editor.md "Architecture"): for the same design and values, the
 * editor's canvas and the render URL's image differ by no more than a small pixel threshold. Both
 * draw through `shared/scene`; this test catches the day one of them stops doing so (a font that
 * only one side loads, a wrap or fit rule applied on one side, a sticker placed differently).
 *
 * The design: the seeded autumn photo with four text snippets (a merge field with its fallback,
 * bold, centred and right-aligned text, a rotated one, an outlined one, a long one that wraps
 * and shrinks to its minimum size) and a sticker from a seeded pack. The editor shows
 * fallbacks, so the render URL is asked without values. The browser window is large enough for
 * the editor to draw the canvas at 1:1, and the two canvas layers (photo; snippets and
 * stickers) are composed in the page exactly as the render page composes them. A second case
 * draws the same design with Pixelate 12 px (docs/editor.md "Editing rules"; docs/editor.md
 * "Filters and enhancements"), whose blocks must fall in the same places on both sides. A legacy
 * design (`legacy_base_image_width: 500`: the photo 500 px wide at the top left, the rest white;
 * docs/adr/0050-pixelate-and-legacy-base-image-scaling.md "Pixelate and legacy base-image scaling")
 * is drawn alike, and a crop of it across the photo's edge keeps in the render what the editor
 * showed. A long hyphenated name in a narrow box (docs/editor.md "Text fitting") draws the same
 * lines on both sides, read back by OCR, and widening its box by the right handle joins them again.
 * On a screen of density 2 the editor's canvas matches the `@2x` render (docs/export.md
 * "Density"), where the 1× render scaled up (a faked density) does not.
 */
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { ownTeam, createDesign } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import { press, signIn, snap } from '../support/aria.ts';
import { productMarkBox } from '#shared/scene/watermark.ts';
import type { Page } from 'puppeteer-core';
import type { TestClient } from '../support/client.ts';
import { blockReader, readWhiteLines } from '../support/ocr.ts';
import { editorLayers, waitForSaved } from '../support/editor-page.ts';

const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();

const PASSWORD = 'design-walnut-27';

/**
 * Share of pixels allowed to differ by more than {@link PIXEL_TOLERANCE} levels in some channel:
 * the parity signal. Text and sticker edges are high-contrast, so a snippet on another line, in
 * another face or a few px off moves thousands of pixels past the tolerance; anti-aliasing moves
 * almost none (measured on this design: 0.001 % when the two agree, about 5 % against the bare
 * photo).
 */
const MAX_DIFFERING_SHARE = 0.002;
/**
 * Largest mean absolute difference allowed over the whole canvas, in 0–255 levels per RGB
 * channel. The photo is resampled by the browser in the editor and by the render page's own
 * path, which alone gives about 1.6 on this photo; the bound catches a wrong filter or a
 * shifted photo.
 */
const MAX_MEAN_DIFFERENCE = 2.5;
/**
 * The same bound at 2× and 3×: the 1,056 px canvas at 2× is wider than the 1,600 px photo, so
 * both sides scale the photo up, the browser and sharp with different kernels (measured 3.5 on
 * this photo, its textured right half 4–9; the pixels past the tolerance stay as few as at 1×).
 */
const MAX_MEAN_DIFFERENCE_DENSE = 4.5;
const PIXEL_TOLERANCE = 64;

/** A sticker image from the first seeded pack: its assets-bucket key (`files/stickers/…`). */
async function packStickerKey(client: TestClient): Promise<string> {
  const res = await client.request('POST', '/getPacksStickers', { id: 'pack-celebration' });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  const text = JSON.stringify(res.json);
  const key = /files\/stickers\/[^"?]+\.png/.exec(text)?.[0];
  if (!key) throw new Error(`no sticker in pack-celebration: ${text.slice(0, 300)}`);
  return key;
}

/** The parity design's document (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore" shapes), on the seeded autumn photo. */
function parityDocument(stickerKey: string, canvas: { width: number; height: number }) {
  const snippet = (id: string, fields: Record<string, unknown>) => ({
    id,
    fontFamily: 'Noto Sans',
    fontSize: 48,
    fill: '#ffffff',
    parameters: [],
    ...fields,
  });
  return {
    canvas_width: canvas.width,
    canvas_height: canvas.height,
    text_snippets: [
      snippet('parity-hello', {
        text: 'Hello {{first_name}}!',
        original_text: 'Hello {{first_name}}!',
        fontSize: 72,
        fontWeight: 'bold',
        left: 60,
        top: 60,
        width: 700,
        parameters: [
          {
            id: '7c0a4f1e-9a57-4a0e-9d0b-2f7d3c1e5a01',
            param_name: 'first_name',
            original_param_name: 'first_name',
            param_default_value: 'friend',
            text_snippet_id: 'parity-hello',
          },
        ],
      }),
      snippet('parity-centre', {
        text: 'Autumn sale — 30% off',
        original_text: 'Autumn sale — 30% off',
        textAlign: 'center',
        fill: '#fde047',
        stroke: '#1f2937',
        strokeWidth: 2,
        left: 150,
        top: 250,
        width: 700,
      }),
      snippet('parity-rotated', {
        text: 'Just for you',
        original_text: 'Just for you',
        fontSize: 40,
        fontStyle: 'italic',
        angle: 12,
        left: 620,
        top: 420,
        width: 320,
      }),
      snippet('parity-long', {
        text: 'A much longer line of text that has to wrap inside its box and shrink towards its minimum size',
        original_text:
          'A much longer line of text that has to wrap inside its box and shrink towards its minimum size',
        fontSize: 44,
        minFontSize: 22,
        textAlign: 'right',
        left: 60,
        top: 430,
        width: 480,
        height: 120,
      }),
    ],
    graphics_data: [
      {
        uuid: '4f2b8f0e-1d2c-4b7a-9a55-0c1d2e3f4a5b',
        type: 'stickers',
        stickerType: 'plain',
        url: stickerKey,
        left: 860,
        top: 40,
        width: 512,
        height: 512,
        scaleX: 0.2,
        scaleY: 0.2,
        angle: 0,
      },
    ],
  };
}

/**
 * How far two same-sized RGB buffers are apart: the mean absolute difference per channel
 * (0–255 levels) and the share of pixels whose worst channel differs by more than
 * {@link PIXEL_TOLERANCE}.
 */
function compare(a: Buffer, b: Buffer): { mean: number; share: number } {
  let sum = 0;
  let differing = 0;
  for (let i = 0; i < a.length; i += 3) {
    let worst = 0;
    for (let c = 0; c < 3; c++) {
      const d = Math.abs(a[i + c]! - b[i + c]!);
      sum += d;
      worst = Math.max(worst, d);
    }
    if (worst > PIXEL_TOLERANCE) differing++;
  }
  return { mean: sum / a.length, share: differing / (a.length / 3) };
}

/** Decodes a PNG to raw RGB with its size. */
async function rgb(png: Buffer) {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * Draws the parity design (with `extra` document fields) in the editor and through the render
 * URL, and checks the two against the thresholds. `name` tells the users and screenshots apart.
 */
async function checkParity(
  name: string,
  /** Fields over the parity document's, or a function of that document giving them. */
  extra:
    Record<string, unknown> | ((doc: ReturnType<typeof parityDocument>) => Record<string, unknown>),
  prepare?: (client: TestClient) => Promise<void>,
  then?: (page: Page, client: TestClient, designId: string) => Promise<void>,
  /**
   * Device pixels per canvas px: the editor on a screen of that density against the render URL's
   * `@2x` / `@3x` image (docs/export.md "Density").
   */
  density: 1 | 2 | 3 = 1,
) {
  const EMAIL = `parity${name}@example.com`;
  const base = stack().url;
  const client = await ownTeam(base, EMAIL);
  await prepare?.(client);
  const created = await createDesign(client, { title: 'Parity' });
  const loaded = await client.request('GET', `/api/pic-snippet/${created.id}`);
  expect(loaded.status).toBe(200);
  const design = loaded.json as Record<string, unknown>;
  const canvas = {
    width: Number(design.canvas_width),
    height: Number(design.canvas_height),
  };
  expect(canvas.width).toBeGreaterThan(0);
  const doc = parityDocument(await packStickerKey(client), canvas);
  const saved = await client.request('PUT', `/api/pic-snippet/${created.id}`, {
    ...design,
    ...doc,
    ...(typeof extra === 'function' ? extra(doc) : extra),
    title: 'Parity',
    version: design.version,
  });
  expect(saved.status, JSON.stringify(saved.json)).toBe(200);

  // The render URL without values draws the fallbacks, as the editor does.
  const dense = density > 1 ? `@${density}x` : '';
  const render = await fetch(`${base}/r/${created.public_id}${dense}.png?__preview=1`);
  expect(render.status).toBe(200);
  const rendered = await rgb(Buffer.from(await render.arrayBuffer()));
  const size = [canvas.width * density, canvas.height * density];
  expect([rendered.width, rendered.height]).toEqual(size);

  // The editor at 1:1: room beside the panels and below the toolbars for the whole canvas.
  const page = await browser().newPage();
  await page.setViewport({
    width: canvas.width + 900,
    height: canvas.height + 400,
    deviceScaleFactor: density,
  });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await signIn(page, base, EMAIL, PASSWORD);
  await page.goto(`${base}/pic-snippet/${created.id}/edit`, { waitUntil: 'networkidle0' });
  await page.waitForSelector('[data-testid="editor-canvas"] .canvas-container', {
    timeout: 20_000,
  });
  await page.waitForFunction(
    (width) =>
      (
        document.querySelector('[data-testid="editor-canvas"]') as HTMLElement | null
      )?.getBoundingClientRect().width === width,
    { timeout: 20_000 },
    canvas.width,
  );
  // Fonts in, and two frames for fabric's pending renders.
  await page.evaluate(async () => {
    await document.fonts.ready;
    for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(r));
  });
  await snap(page, `e2e-editor-parity${name}-editor`);

  const { composed, photoOnly } = await editorLayers(page);
  const drawn = await rgb(Buffer.from(composed, 'base64'));
  expect([drawn.width, drawn.height]).toEqual(size);
  await sharp(drawn.data, { raw: { width: drawn.width, height: drawn.height, channels: 3 } })
    .png()
    .toFile(`test-results/e2e-editor-parity${name}-canvas.png`);
  await sharp(rendered.data, {
    raw: { width: rendered.width, height: rendered.height, channels: 3 },
  })
    .png()
    .toFile(`test-results/e2e-editor-parity${name}-render.png`);

  const { mean, share } = compare(drawn.data, rendered.data);
  console.info(
    `editor–render parity${name}: mean difference ${mean.toFixed(3)}, ${(share * 100).toFixed(3)}% of pixels beyond ${PIXEL_TOLERANCE}`,
  );
  expect(mean).toBeLessThan(density > 1 ? MAX_MEAN_DIFFERENCE_DENSE : MAX_MEAN_DIFFERENCE);
  expect(share).toBeLessThan(MAX_DIFFERING_SHARE);
  // The threshold is not met trivially: the render differs clearly from the bare photo.
  const bare = compare((await rgb(Buffer.from(photoOnly, 'base64'))).data, rendered.data);
  console.info(
    `bare photo against the render: mean ${bare.mean.toFixed(3)}, ${(bare.share * 100).toFixed(3)}% beyond ${PIXEL_TOLERANCE}`,
  );
  expect(bare.share).toBeGreaterThan(10 * MAX_DIFFERING_SHARE);
  if (density > 1) {
    // Not met by a faked density: the 1× render scaled up differs from the editor's dense canvas.
    const one = await fetch(`${base}/r/${created.public_id}.png?__preview=1`);
    const upscaled = await rgb(
      await sharp(Buffer.from(await one.arrayBuffer()))
        .resize(size[0], size[1], { kernel: 'lanczos3' })
        .png()
        .toBuffer(),
    );
    const faked = compare(drawn.data, upscaled.data);
    console.info(
      `1× scaled up against the editor at ${density}×: mean ${faked.mean.toFixed(3)}, ${(faked.share * 100).toFixed(3)}% beyond ${PIXEL_TOLERANCE}`,
    );
    expect(faked.share).toBeGreaterThan(MAX_DIFFERING_SHARE);
  }
  await then?.(page, client, created.id);
  expect(errors).toEqual([]);
  await page.close();
}

/** The render URL's image (fallbacks, preview: not counted) as raw RGB. */
async function renderOf(publicId: string) {
  const res = await fetch(`${stack().url}/r/${publicId}.png?__preview=1`);
  expect(res.status).toBe(200);
  return rgb(Buffer.from(await res.arrayBuffer()));
}

/** The RGB of one pixel of a raw RGB image. */
const pixelAt = (image: { data: Buffer; width: number }, x: number, y: number) => {
  const i = (y * image.width + x) * 3;
  return [image.data[i]!, image.data[i + 1]!, image.data[i + 2]!];
};
const isWhite = (px: number[]) => px.every((v) => v >= 250);

/** A copy of a raw RGB image `width` px wide with `box` painted black. */
function withoutBox(
  data: Buffer,
  width: number,
  box: { left: number; top: number; width: number; height: number },
): Buffer {
  const out = Buffer.from(data);
  for (let y = box.top; y < box.top + box.height; y++)
    out.fill(0, (y * width + box.left) * 3, (y * width + box.left + box.width) * 3);
  return out;
}

/** A long real name, the fallback of the wrapped-name case (docs/editor.md "Text fitting"). */
const LONG_NAME = 'Bartholomew-Alexandrina von Longname-Smythe';
/** The wrapped-name snippet's box, canvas px: narrower than "Bartholomew-Alexandrina". */
const NAME_BOX = { left: 60, top: 60, width: 360 };

/** Joins lines read back as a reader would: straight on after a hyphen, else with a space. */
const joined = (lines: string[]) =>
  lines.reduce(
    (text, line) => (text === '' || text.endsWith('-') ? text + line : `${text} ${line}`),
    '',
  );

/** The lines of white text the editor's canvas shows in the wrapped-name box's rows, by OCR. */
async function editorLines(page: Page): Promise<string[]> {
  const ocr = await blockReader();
  try {
    const png = Buffer.from((await editorLayers(page)).composed, 'base64');
    return await readWhiteLines(ocr, png, { left: 55, top: 55, width: 800, height: 260 });
  } finally {
    await ocr.terminate();
  }
}

/**
 * Where the selected text box's right side handle is, in page px, and how tall the selection
 * is, canvas px: from the selection border (the editor's #4338ca), which fabric draws on the
 * objects' canvas just right of the box, whose right edge is at `right` canvas px.
 */
async function selectionAt(page: Page, right: number) {
  const at = await page.$eval(
    '[data-testid="editor-canvas"]',
    (el, right) => {
      const rect = el.getBoundingClientRect();
      const scale = rect.width / Number((el as HTMLElement).dataset.canvasWidth);
      const objects = el.querySelector<HTMLCanvasElement>(
        '.canvas-container canvas.lower-canvas:not(.editor-stage__base)',
      )!;
      const k = objects.width / rect.width;
      const x = Math.round(right * scale * k);
      const span = 12;
      const column = objects.getContext('2d')!.getImageData(x, 0, span, objects.height).data;
      let first = -1;
      let last = -1;
      for (let y = 0; y < objects.height; y++) {
        let border = false;
        for (let i = 0; i < span; i++) {
          const p = (y * span + i) * 4;
          const [r, g, b] = [column[p]!, column[p + 1]!, column[p + 2]!];
          if (Math.abs(r - 0x43) < 24 && Math.abs(g - 0x38) < 24 && Math.abs(b - 0xca) < 24)
            border = true;
        }
        if (!border) continue;
        if (first < 0) first = y;
        last = y;
      }
      return {
        x: rect.left + right * scale + 4,
        y: rect.top + (first + last) / 2 / k,
        height: (last - first) / k / scale,
        first,
      };
    },
    right,
  );
  expect(at.first, 'the selection border right of the box').toBeGreaterThanOrEqual(0);
  return at;
}

describe('editor–render parity', () => {
  it(
    'draws the same image in the editor as the render URL, within a small pixel threshold',
    { timeout: 240_000 },
    () => checkParity('', {}),
  );

  // Pixelate (docs/editor.md "Editing rules"; docs/editor.md "Filters and enhancements"): 12 px
  // blocks of the photo's mean colours, the same size and place on both sides.
  it(
    'draws the same pixelated photo (Pixelate 12 px) in the editor as the render URL',
    { timeout: 240_000 },
    () => checkParity('-pixelate', { enhance: { Pixelate: 12 } }),
  );

  // A legacy design: the photo 500 px wide at the top left, the rest of the canvas white.
  it(
    'draws the same legacy design (photo 500 px wide, top left) in the editor as the render URL',
    { timeout: 240_000 },
    () => checkParity('-legacy', { legacy_base_image_width: 500 }),
  );

  // Crop on a legacy design cuts the picture as shown, white included, and the cropped design
  // then draws that picture over its whole canvas, in the editor and in the render.
  it(
    'crops a legacy design across the photo edge and renders what the editor showed',
    { timeout: 240_000 },
    async () => {
      const EMAIL = `parity-legacy-crop-${Date.now()}@example.com`;
      const base = stack().url;
      const client = await ownTeam(base, EMAIL);
      const created = await createDesign(client, { title: 'Legacy crop' });
      const design = (await client.request('GET', `/api/pic-snippet/${created.id}`)).json;
      const saved = await client.request('PUT', `/api/pic-snippet/${created.id}`, {
        version: design.version,
        legacy_base_image_width: 500,
        text_snippets: [],
        graphics_data: [],
        show_watermark: false,
      });
      expect(saved.status, JSON.stringify(saved.json)).toBe(200);
      const before = await renderOf(created.public_id);
      const photoHeight = Math.round(
        (500 * Number(design.image_height)) / Number(design.image_width),
      );
      expect(isWhite(pixelAt(before, 520, 40))).toBe(true);
      expect(isWhite(pixelAt(before, 100, 40))).toBe(false);

      const page = await browser().newPage();
      await page.setViewport({ width: before.width + 900, height: before.height + 400 });
      page.setDefaultNavigationTimeout(60_000);
      await signIn(page, base, EMAIL, PASSWORD);
      await page.goto(`${base}/pic-snippet/${created.id}/edit`, { waitUntil: 'domcontentloaded' });
      await page.waitForSelector('[data-testid="editor-canvas"] .canvas-container', {
        timeout: 30_000,
      });
      // Crop from 20,20 (the box's start) to 620 x 360: across the photo's right and bottom
      // edges into the white; by keyboard (Shift+Alt+arrows: 10 px).
      await press(page, 'Crop');
      const box = (await page.waitForSelector('[data-testid="crop-box"]'))!;
      await box.focus();
      await page.keyboard.down('Shift');
      await page.keyboard.down('Alt');
      for (let i = 0; i < 48; i++) await page.keyboard.press('ArrowRight');
      for (let i = 0; i < 22; i++) await page.keyboard.press('ArrowDown');
      await page.keyboard.up('Alt');
      await page.keyboard.up('Shift');
      expect(await box.evaluate((el) => el.getAttribute('aria-valuetext'))).toBe(
        '600 by 340 px at 20, 20',
      );
      await snap(page, 'e2e-editor-parity-legacy-crop-area');
      await press(page, 'Done');
      await page.waitForFunction(() => !document.querySelector('[data-testid="crop-box"]'), {
        timeout: 30_000,
      });
      await waitForSaved(page);
      await page.evaluate(async () => {
        for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(r));
      });
      await snap(page, 'e2e-editor-parity-legacy-cropped');
      const after = (await client.request('GET', `/api/pic-snippet/${created.id}`)).json;
      expect([after.canvas_width, after.canvas_height, after.legacy_base_image_width]).toEqual([
        600,
        340,
        null,
      ]);

      // The render of the cropped design is the part of the old render the crop covered.
      const rendered = await renderOf(created.public_id);
      expect([rendered.width, rendered.height]).toEqual([600, 340]);
      const { data: region } = await sharp(before.data, {
        raw: { width: before.width, height: before.height, channels: 3 },
      })
        .extract({ left: 20, top: 20, width: 600, height: 340 })
        .raw()
        .toBuffer({ resolveWithObject: true });
      // The free plan's product mark sits on the new canvas's corner: left out of this check.
      const mark = productMarkBox({ width: 600, height: 340 });
      const kept = compare(withoutBox(region, 600, mark), withoutBox(rendered.data, 600, mark));
      console.info(`legacy crop against the old render: mean ${kept.mean.toFixed(3)}`);
      expect(kept.mean).toBeLessThan(MAX_MEAN_DIFFERENCE);
      // White right of the photo's edge (500 px, now 480) and below it; photo left and above.
      expect(isWhite(pixelAt(rendered, 540, 40))).toBe(true);
      expect(isWhite(pixelAt(rendered, 100, photoHeight - 20 + 10))).toBe(true);
      expect(isWhite(pixelAt(rendered, 100, 40))).toBe(false);
      await sharp(rendered.data, { raw: { width: 600, height: 340, channels: 3 } })
        .png()
        .toFile('test-results/e2e-editor-parity-legacy-crop-render.png');

      // And the editor draws the same.
      const drawn = await rgb(Buffer.from((await editorLayers(page)).composed, 'base64'));
      expect([drawn.width, drawn.height]).toEqual([600, 340]);
      const same = compare(drawn.data, rendered.data);
      console.info(`legacy crop, editor against render: mean ${same.mean.toFixed(3)}`);
      expect(same.mean).toBeLessThan(MAX_MEAN_DIFFERENCE);
      expect(same.share).toBeLessThan(MAX_DIFFERING_SHARE);
      await page.close();
    },
  );

  // A long name in a narrow box (docs/editor.md "Text fitting"): the same lines, broken at a
  // space or after a hyphen, on both sides; widening the box in the editor joins them again.
  it(
    'draws a long name wrapped alike in the editor and the render, and joins its lines when the box widens',
    { timeout: 240_000 },
    () =>
      checkParity(
        '-wrapped-name',
        {
          text_snippets: [
            {
              id: 'parity-name',
              text: 'Hi {{name}}',
              original_text: 'Hi {{name}}',
              fontFamily: 'Noto Sans',
              fontSize: 40,
              // Too big for "Bartholomew-Alexandrina" in the box: fabric's own wrap broke it
              // inside words at this size.
              minFontSize: 34,
              fill: '#ffffff',
              stroke: '#000000',
              strokeWidth: 2,
              ...NAME_BOX,
              parameters: [
                {
                  id: '2d6f1b3a-5c4e-4f8a-9b7d-1e0c2a3b4c5d',
                  param_name: 'name',
                  original_param_name: 'name',
                  param_default_value: LONG_NAME,
                  text_snippet_id: 'parity-name',
                },
              ],
            },
          ],
          graphics_data: [],
        },
        undefined,
        async (page, client, designId) => {
          const narrow = await editorLines(page);
          expect(narrow.length, narrow.join(' / ')).toBeGreaterThan(2);
          expect(joined(narrow), narrow.join(' / ')).toBe(`Hi ${LONG_NAME}`);

          // Selected by a click on its first line (the canvas is drawn at 1:1).
          const canvasAt = await page.$eval('[data-testid="editor-canvas"]', (el) => {
            const rect = el.getBoundingClientRect();
            return { x: rect.left, y: rect.top };
          });
          await page.mouse.click(canvasAt.x + NAME_BOX.left + 30, canvasAt.y + NAME_BOX.top + 20);
          // Dragged 350 px wider: while the handle is held the box is already shorter, its
          // lines laid out again for the new width.
          const handle = await selectionAt(page, NAME_BOX.left + NAME_BOX.width);
          await page.mouse.move(handle.x, handle.y);
          await page.mouse.down();
          await page.mouse.move(handle.x + 350, handle.y, { steps: 12 });
          await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
          const held = await selectionAt(page, NAME_BOX.left + NAME_BOX.width + 350);
          expect(held.height).toBeLessThan(handle.height - 30);
          await snap(page, 'e2e-editor-parity-wrapped-name-dragging');
          await page.mouse.up();
          await waitForSaved(page);
          // Deselected by a click below it, so no handle is in the picture read.
          await page.mouse.click(canvasAt.x + NAME_BOX.left + 30, canvasAt.y + 500);
          const stored = (await client.request('GET', `/api/pic-snippet/${designId}`)).json as {
            text_snippets: { width: number; text: string }[];
          };
          expect(stored.text_snippets[0]!.width).toBeGreaterThan(NAME_BOX.width + 300);
          expect(stored.text_snippets[0]!.text).toBe('Hi {{name}}');
          await snap(page, 'e2e-editor-parity-wrapped-name-widened');
          const wide = await editorLines(page);
          expect(wide.length, wide.join(' / ')).toBeLessThan(narrow.length);
          expect(joined(wide), wide.join(' / ')).toBe(`Hi ${LONG_NAME}`);

          // Dragged down to 100 px wide: the box stops at its widest line, "Longname-Smythe"
          // (docs/editor.md "Editing rules"), so no word is cut.
          const widened = stored.text_snippets[0]!.width;
          const origin = await page.$eval('[data-testid="editor-canvas"]', (el) => {
            const rect = el.getBoundingClientRect();
            return { x: rect.left, y: rect.top };
          });
          await page.mouse.click(origin.x + NAME_BOX.left + 30, origin.y + NAME_BOX.top + 20);
          const right = await selectionAt(page, NAME_BOX.left + widened);
          await page.mouse.move(right.x, right.y);
          await page.mouse.down();
          await page.mouse.move(right.x - (widened - 100), right.y, { steps: 16 });
          await page.mouse.up();
          const widthNow = async () =>
            (
              (await client.request('GET', `/api/pic-snippet/${designId}`)).json as {
                text_snippets: { width: number }[];
              }
            ).text_snippets[0]!.width;
          await expect.poll(widthNow, { timeout: 20_000 }).toBeLessThan(widened);
          expect(await widthNow()).toBeGreaterThan(200);
          await waitForSaved(page);
          await page.mouse.click(origin.x + NAME_BOX.left + 30, origin.y + 500);
          await snap(page, 'e2e-editor-parity-wrapped-name-narrowed');
          const narrowed = await editorLines(page);
          expect(narrowed.length, narrowed.join(' / ')).toBeGreaterThan(2);
          expect(joined(narrowed), narrowed.join(' / ')).toBe(`Hi ${LONG_NAME}`);
        },
      ),
  );

  // A poll (docs/polls.md "Drawing"): bars and texts from the shared layout on both sides;
  // without live results, as the editor's sample results are the editor's own.
  it('draws the same poll in the editor as the render URL', { timeout: 240_000 }, () =>
    checkParity('-poll', {
      text_snippets: [],
      graphics_data: [
        {
          uuid: '0b6e2f8c-3f3a-4d0e-8a51-7c2d9e4b1a66',
          type: 'stickers',
          stickerType: 'dynamicSticker',
          dynamicStickerType: 'poll',
          dynamicStickerParamName: 'poll1',
          url: '',
          left: 180,
          top: 90,
          width: 600,
          height: 400,
          scaleX: 0.9,
          scaleY: 0.9,
          angle: 0,
          poll: {
            question: 'Tea or coffee?',
            options: [{ label: 'Tea' }, { label: 'Coffee' }, { label: 'Neither' }],
            show_results: false,
            font_family: 'Noto Sans',
          },
        },
      ],
    }),
  );

  // A weather sticker (docs/weather.md "The weather sticker"; docs/editor.md "Weather"): its panel,
  // icon and texts from the shared layout on both sides. The editor draws its sample, clear at
  // 24 °C at the fallback place; the render's recorded weather for Madrid (offline mode) is clear
  // at 24.1 °C, drawn as 24°C: the same report, so the two must draw alike.
  it('draws the same weather sticker in the editor as the render URL', { timeout: 240_000 }, () =>
    checkParity('-weather', {
      text_snippets: [],
      graphics_data: [
        {
          uuid: '5d1c7a2e-8b4f-4c3a-9e61-2f0b7d8c4a19',
          type: 'stickers',
          stickerType: 'dynamicSticker',
          dynamicStickerType: 'weather',
          dynamicStickerParamName: 'weather1',
          dynamicStickerUrl: 'Madrid',
          url: '',
          left: 200,
          top: 120,
          width: 400,
          height: 200,
          scaleX: 1.2,
          scaleY: 1.2,
          angle: 0,
          weather: { font_family: 'Noto Sans', panel_fill: '#1f2430cc', fill: '#ffffff' },
        },
      ],
    }),
  );

  // A sticker's colour (docs/editor.md "Sticker colour"): its first filter's colour blended on
  // in mode screen, the same on both sides; and drawn at all: blue screened onto the warm-coloured
  // sticker makes its pixels full blue, which neither it nor the photo beneath has uncoloured.
  it('draws the same coloured sticker in the editor as the render URL', { timeout: 240_000 }, () =>
    checkParity(
      '-sticker-colour',
      (doc) => ({
        graphics_data: doc.graphics_data.map((s) => ({
          ...s,
          filters: [{ type: 'BlendColor', color: '#0000ff', mode: 'screen', alpha: 1 }],
        })),
      }),
      undefined,
      async (_page, client, designId) => {
        const loaded = await client.request('GET', `/api/pic-snippet/${designId}`);
        const coloured = await renderOf(String(loaded.json.public_id));
        // The sticker's box: left 860, top 40, 512 px at scale 0.2 (parityDocument).
        let blue = 0;
        for (let y = 40; y < 142; y++)
          for (let x = 860; x < 962; x++) if (pixelAt(coloured, x, y)[2]! >= 250) blue++;
        const share = blue / (102 * 102);
        console.info(`sticker box full-blue share: ${share.toFixed(3)} (uncoloured: 0)`);
        expect(share).toBeGreaterThan(0.2);
      },
    ),
  );

  // A screen of density 2 (docs/export.md "Density"): the editor's canvas at 2 device px a canvas
  // px against the `@2x` render, text and stickers drawn at that density on both sides.
  it(
    'draws the same image in the editor on a 2× screen as the @2x render URL',
    { timeout: 240_000 },
    () => checkParity('-2x', {}, undefined, undefined, 2),
  );

  // The team's watermark (a half-transparent logo) and the free plan's product mark, placed by
  // shared/scene/watermark.ts on both sides (docs/adr/0057-watermark.md "Watermark").
  it(
    'draws the same team watermark and product mark in the editor as the render URL',
    { timeout: 240_000 },
    () =>
      checkParity('-watermark', { show_watermark: true }, async (client) => {
        const team = await client.request('GET', '/settings/companies/current');
        const logo = await sharp({
          create: {
            width: 480,
            height: 240,
            channels: 4,
            background: { r: 29, g: 78, b: 216, alpha: 0.75 },
          },
        })
          .composite([
            {
              input: Buffer.from(
                '<svg xmlns="http://www.w3.org/2000/svg" width="480" height="240"><circle cx="240" cy="120" r="90" fill="#facc15"/></svg>',
              ),
            },
          ])
          .png()
          .toBuffer();
        const form = new FormData();
        form.append(
          'watermark',
          new Blob([new Uint8Array(logo)], { type: 'image/png' }),
          'logo.png',
        );
        const res = await client.request(
          'POST',
          `/settings/companies/${String(team.json.id)}/watermark`,
          form,
        );
        expect(res.status, JSON.stringify(res.json)).toBe(200);
      }),
  );
});
