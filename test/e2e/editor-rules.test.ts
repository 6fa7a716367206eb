/// <reference lib="dom" />
/**
 * Rules built in the editor's rules panel (docs/rules.md "Editor"): a country rule with its own
 * text and click-through link, added with labelled controls, undone and redone with the editor's
 * history, saved; the panel's preview draws the design as the picked rule; the render URL shows
 * the rule to a viewer in France and the rule link sends them to the rule's page. Then a
 * two-rule design built in the panel: a parameter rule with another base photo that shows a
 * sticker hidden by default, a country rule with another text that hides a sticker; the preview
 * follows unsaved changes; the render and the link follow each rule and the default.
 * Screenshots: test-results/e2e-rules-*.png.
 */
import { mkdir } from 'node:fs/promises';
import type { ElementHandle, HTTPRequest, Page } from 'puppeteer-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { POLL, TIMEOUT_MS, byRole, fillField, findByRole, press, snap } from '../support/aria.ts';
import { lineReader, readWhiteText } from '../support/ocr.ts';
import { useTestBrowser } from '../support/browser.ts';
import { createDesign, signedIn } from '../support/designs.ts';
import { DEMO_USER, openEditorPage } from '../support/editor-page.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();
const FR_LINK = 'https://shop.example.com/fr';

const waitForSaved = (page: Page) =>
  page.waitForFunction(
    () => document.querySelector('[data-testid="save-state"]')?.textContent?.includes('Saved'),
    { timeout: TIMEOUT_MS },
  );

/** Types into the field labelled `label` and presses Enter, which applies it. */
async function enter(page: Page, label: string, value: string): Promise<void> {
  await fillField(page, label, value);
  await page.keyboard.press('Enter');
}

interface RuleJson {
  id: string;
  conditions: Array<Record<string, unknown>>;
  variant: { texts: Record<string, string> };
  link_url: string | null;
}

describe('rules panel', () => {
  it(
    'builds a country rule with its text and link, undoes and redoes it, previews it, and the render and link follow it',
    { timeout: 180_000 },
    async () => {
      const base = stack().url;
      const client = await signedIn(base, DEMO_USER.email);
      const design = await createDesign(client, { title: 'Rules' });
      const setUp = await client.request('PUT', `/api/pic-snippet/${design.id}`, {
        version: design.version,
        html_link_url: 'https://shop.example.com/',
        text_snippets: [
          {
            id: 'hello',
            text: 'Hello {{name}}',
            left: 20,
            top: 20,
            width: 500,
            fontSize: 60,
            fill: '#ffffff',
            parameters: [{ id: 'p-name', param_name: 'name', param_default_value: 'there' }],
          },
        ],
      });
      expect(setUp.status).toBe(200);
      const stored = async () =>
        (await client.request('GET', `/api/pic-snippet/${design.id}`)).json.rules as RuleJson[];

      const { page, errors } = await openEditorPage(browser(), base, design.id, {
        width: 1400,
        height: 1000,
      });

      await press(page, 'Rules');
      await findByRole(page, 'button', 'Add rule');
      await snap(page, 'e2e-rules-1-empty');

      await press(page, 'Add rule');
      await findByRole(page, 'heading', '1. Rule 1');
      await enter(page, 'Name', 'France');
      await findByRole(page, 'heading', '1. France');
      // Country is the first kind offered.
      await press(page, 'Add condition');
      await enter(page, 'Countries', 'fr');
      await enter(page, 'Text 1 (empty: as designed)', 'Bonjour {{name}}');
      await enter(page, 'Click-through link', FR_LINK);
      await waitForSaved(page);
      let rules = await stored();
      expect(rules).toHaveLength(1);
      expect(rules[0]).toMatchObject({
        name: 'France',
        conditions: [{ kind: 'country', countries: ['FR'] }],
        variant: { texts: { hello: 'Bonjour {{name}}' } },
        link_url: FR_LINK,
      });

      // A bad link is refused where it was typed, and nothing changes.
      await enter(page, 'Click-through link', 'javascript:alert(1)');
      await page.waitForSelector('.field__error');
      await snap(page, 'e2e-rules-2-refused');
      await enter(page, 'Click-through link', FR_LINK);

      // Undo takes the link away, redo puts it back; both are saved.
      await press(page, 'Undo');
      await page.waitForFunction(
        (l) =>
          Array.from(document.querySelectorAll('label')).some(
            (x) =>
              x.textContent === l &&
              (document.getElementById(x.htmlFor) as HTMLInputElement).value === '',
          ),
        {},
        'Click-through link',
      );
      await waitForSaved(page);
      await expect.poll(async () => (await stored())[0]!.link_url).toBeNull();
      await press(page, 'Redo');
      await waitForSaved(page);
      await expect.poll(async () => (await stored())[0]!.link_url).toBe(FR_LINK);
      rules = await stored();

      // The preview draws the design as the picked rule.
      const pick = await findByRole(page, 'combobox', 'Show the design as');
      await pick.select(rules[0]!.id);
      await findByRole(page, 'image', 'The design as France shows it, unsaved changes included');
      await page.waitForSelector('.rules-panel__preview[data-state="drawn"]:not([hidden])');
      const panel = await page.$('.editor-panel');
      await panel!.screenshot({ path: 'test-results/e2e-rules-3-panel.png' });
      const preview = await page.$('.rules-panel__preview');
      await preview!.screenshot({ path: 'test-results/e2e-rules-5-preview-image.png' });
      await snap(page, 'e2e-rules-4-preview');

      // A viewer in France sees the rule and clicks through to its page; others get the design's.
      const france = await fetch(`${base}/r/${design.public_id}?name=Ana`, {
        headers: { 'cloudfront-viewer-country': 'FR' },
      });
      expect(france.headers.get('x-render-rule')).toBe(`rule:${rules[0]!.id}`);
      const click = await fetch(`${base}/l/${design.public_id}?name=Ana`, {
        headers: { 'cloudfront-viewer-country': 'FR' },
        redirect: 'manual',
      });
      expect(click.headers.get('location')).toBe(FR_LINK);
      const elsewhere = await fetch(`${base}/l/${design.public_id}?name=Ana`, {
        headers: { 'cloudfront-viewer-country': 'DE' },
        redirect: 'manual',
      });
      expect(elsewhere.headers.get('location')).toBe('https://shop.example.com/');
      expect(page.locator(byRole('button', 'Delete France'))).toBeTruthy();
      expect(errors).toEqual([]);
      await page.close();
    },
  );
});

/** Where things sit on the two-rule design's canvas, px of the canvas. */
const BACKDROP = { left: 20, top: 20, width: 560, height: 110 };
const BADGE = { left: 60, top: 300, width: 150, height: 150 };
const STAR = { left: 320, top: 300, width: 150, height: 150 };
const MAGENTA = [255, 0, 255];
const CYAN = [0, 255, 255];
const LINKS = {
  default: 'https://shop.example.com/',
  yuki: 'https://shop.example.com/winter',
  france: 'https://shop.example.com/fr',
};

type Box = typeof BADGE;
type Rgb = number[];

/** A 200 px square PNG of one colour. */
const solid = ([r, g, b]: Rgb) =>
  sharp({ create: { width: 200, height: 200, channels: 3, background: { r: r!, g: g!, b: b! } } })
    .png()
    .toBuffer();

/** Uploads a sticker of one colour to the team's stickers; its key and size. */
async function uploadSticker(
  client: Awaited<ReturnType<typeof signedIn>>,
  colour: Rgb,
): Promise<{ url: string; width: number; height: number }> {
  const form = new FormData();
  form.append('type', 'asIcon');
  form.append(
    'image',
    new Blob([new Uint8Array(await solid(colour))], { type: 'image/png' }),
    'c.png',
  );
  const uploaded = await client.request('POST', '/image', form);
  expect(uploaded.status, JSON.stringify(uploaded.json)).toBe(201);
  return uploaded.json.sticker as { url: string; width: number; height: number };
}

/** A placed sticker of `box` drawn from an uploaded square. */
const placed = (
  uuid: string,
  sticker: { url: string; width: number; height: number },
  box: Box,
) => ({
  uuid,
  stickerType: 'upload',
  url: sticker.url,
  left: box.left,
  top: box.top,
  width: sticker.width,
  height: sticker.height,
  scaleX: box.width / sticker.width,
  scaleY: box.height / sticker.height,
});

/** The inner 60 % of a canvas box, scaled to an image `scale` times the canvas. */
const inner = (box: Box, scale: number) => ({
  left: Math.round((box.left + box.width * 0.2) * scale),
  top: Math.round((box.top + box.height * 0.2) * scale),
  width: Math.round(box.width * 0.6 * scale),
  height: Math.round(box.height * 0.6 * scale),
});

/** The RGB pixels of a box of an image, scaled from canvas px. */
async function pixels(image: Buffer, box: Box, canvasWidth: number): Promise<Buffer> {
  const { width } = await sharp(image).metadata();
  return sharp(image)
    .extract(inner(box, width! / canvasWidth))
    .removeAlpha()
    .raw()
    .toBuffer();
}

/** The mean colour of raw RGB pixels. */
function meanOf(raw: Buffer | Uint8ClampedArray, channels = 3): Rgb {
  const sums = [0, 0, 0];
  const n = raw.length / channels;
  for (let i = 0; i < raw.length; i += channels)
    for (let c = 0; c < 3; c++) sums[c]! += raw[i + c]!;
  return sums.map((s) => Math.round(s / n));
}

/** Whether a mean colour is `colour`, within what JPEG and scaling move. */
const isColour = (mean: Rgb, colour: Rgb) => mean.every((v, i) => Math.abs(v - colour[i]!) <= 40);

/** The mean absolute difference of two equal-sized raw RGB buffers, 0–255. */
function difference(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

/** The field labelled `label` inside `scope`, replaced with `value` and applied with Enter. */
async function enterIn(scope: ElementHandle, label: string, value: string): Promise<void> {
  const field = await scope.waitForSelector(byRole('textbox', label), { timeout: TIMEOUT_MS });
  await field!.evaluate((el) => (el as HTMLInputElement).select());
  await field!.type(value);
  await field!.press('Enter');
}

/** Clicks the control of `role` named `name` inside `scope`. */
async function pressIn(scope: ElementHandle, name: string, role = 'button'): Promise<void> {
  const control = await scope.waitForSelector(byRole(role, name), { timeout: TIMEOUT_MS });
  await control!.click();
}

/** The mean colour of a canvas box in the panel's preview (drawn, shown). */
async function previewColour(page: Page, box: Box, canvasWidth: number): Promise<Rgb> {
  const data = await page.$eval(
    '.rules-panel__preview[data-state="drawn"]:not([hidden])',
    (el, b, w) => {
      const canvas = el as HTMLCanvasElement;
      const scale = canvas.width / w;
      const x = Math.round((b.left + b.width * 0.2) * scale);
      const y = Math.round((b.top + b.height * 0.2) * scale);
      const size = Math.max(1, Math.round(b.width * 0.6 * scale));
      return Array.from(canvas.getContext('2d')!.getImageData(x, y, size, size).data);
    },
    box,
    canvasWidth,
  );
  return meanOf(Uint8ClampedArray.from(data), 4);
}

describe('a two-rule design built in the rules panel', () => {
  it(
    'swaps the photo and shows a hidden sticker for a parameter, changes the text and hides a sticker for a country, and the render and link follow each rule and the default',
    { timeout: 300_000 },
    async () => {
      await mkdir('test-results', { recursive: true });
      const base = stack().url;
      const client = await signedIn(base, DEMO_USER.email);
      const [backdrop, magenta, cyan] = await Promise.all([
        uploadSticker(client, [20, 30, 60]),
        uploadSticker(client, MAGENTA),
        uploadSticker(client, CYAN),
      ]);
      const design = await createDesign(client, { title: 'Two rules' });
      const setUp = await client.request('PUT', `/api/pic-snippet/${design.id}`, {
        version: design.version,
        html_link_url: LINKS.default,
        text_snippets: [
          {
            id: 'hello',
            text: 'Hello {{name}}',
            left: 40,
            top: 35,
            width: 520,
            fontSize: 60,
            fontFamily: 'Lato',
            fill: '#ffffff',
            parameters: [{ id: 'p-name', param_name: 'name', param_default_value: 'there' }],
          },
        ],
        graphics_data: [
          placed('backdrop', backdrop, BACKDROP),
          placed('badge', magenta, BADGE),
          placed('star', cyan, STAR),
        ],
      });
      expect(setUp.status, JSON.stringify(setUp.json)).toBe(200);
      const stored = async () =>
        (await client.request('GET', `/api/pic-snippet/${design.id}`)).json;
      const canvasWidth = (await stored()).canvas_width as number;
      // A patch of photo that no sticker or text covers.
      const PHOTO = { left: canvasWidth - 200, top: 300, width: 150, height: 150 };

      const { page, errors } = await openEditorPage(browser(), base, design.id, {
        width: 1400,
        height: 1000,
      });
      await press(page, 'Rules');
      /** Ticks or unticks a sticker's checkbox in the group named `group`. */
      const tick = async (group: string, sticker: string) =>
        pressIn(await findByRole(page, 'group', group), sticker, 'checkbox');

      // The star is hidden unless a rule shows it.
      await tick('Stickers hidden unless a rule shows them', 'Sticker 3');

      // Rule 1: recipients named Yuki see the dune photo, with the star.
      await press(page, 'Add rule');
      let card = await findByRole(page, 'listitem', '1. Rule 1');
      await enterIn(card, 'Name', 'Yuki');
      card = await findByRole(page, 'listitem', '1. Yuki');
      const kind = await card.waitForSelector(byRole('combobox', 'New condition'));
      await kind!.select('parameter');
      await pressIn(card, 'Add condition');
      await enterIn(card, 'Value', 'Yuki');
      await pressIn(card, 'Choose base photo of Yuki');
      const dune = await page.waitForSelector(
        'dialog[open] .library__pick[aria-label^="Use Dune"]',
        {
          timeout: TIMEOUT_MS,
        },
      );
      await snap(page, 'e2e-rules-6-photo-picker');
      await dune!.click();
      await findByRole(page, 'image', 'What Yuki shows behind its texts');
      // The photo is one undoable step, like the rest of the document.
      await press(page, 'Undo');
      await findByRole(page, 'button', 'Choose base photo of Yuki');
      await press(page, 'Redo');
      await findByRole(page, 'image', 'What Yuki shows behind its texts');
      await tick('Stickers Yuki shows', 'Sticker 3');
      await enterIn(card, 'Click-through link', LINKS.yuki);
      const photoGroup = await card.$('.rules-panel__photo');
      await photoGroup!.scrollIntoView();
      await page.screenshot({ path: 'test-results/e2e-rules-6b-yuki-photo.png' });

      // Rule 2: viewers in France read "Bonjour" and see no badge.
      await press(page, 'Add rule');
      card = await findByRole(page, 'listitem', '2. Rule 2');
      await enterIn(card, 'Name', 'France');
      card = await findByRole(page, 'listitem', '2. France');
      await pressIn(card, 'Add condition');
      await enterIn(card, 'Countries', 'fr');
      await enterIn(card, 'Text 1 (empty: as designed)', 'Bonjour {{name}}');
      await tick('Stickers France shows', 'Sticker 2');
      await enterIn(card, 'Click-through link', LINKS.france);
      await waitForSaved(page);

      const expected = {
        hidden_stickers: ['star'],
        rules: [
          {
            name: 'Yuki',
            conditions: [
              { kind: 'parameter', param_name: 'name', operator: 'equals', value: 'Yuki' },
            ],
            variant: {
              base_image: { image_id: 'library-dune' },
              show_stickers: ['star'],
              hide_stickers: [],
            },
            link_url: LINKS.yuki,
          },
          {
            name: 'France',
            conditions: [{ kind: 'country', countries: ['FR'] }],
            variant: {
              texts: { hello: 'Bonjour {{name}}' },
              base_image: null,
              show_stickers: [],
              hide_stickers: ['badge'],
            },
            link_url: LINKS.france,
          },
        ],
      };
      await expect.poll(stored, POLL).toMatchObject(expected);
      const rules = (await stored()).rules as Array<{ id: string }>;
      const [yuki, france] = rules.map((r) => r.id);

      // The preview draws the picked rule from the editor's document.
      const pick = await findByRole(page, 'combobox', 'Show the design as');
      await pick.select(yuki!);
      await findByRole(page, 'image', 'The design as Yuki shows it, unsaved changes included');
      await expect
        .poll(() => previewColour(page, STAR, canvasWidth), POLL)
        .toSatisfy((c: Rgb) => isColour(c, CYAN));
      const panel = await page.$('.editor-panel');
      await panel!.screenshot({ path: 'test-results/e2e-rules-7-two-rules-panel.png' });
      await pick.select(france!);
      await expect
        .poll(() => previewColour(page, BADGE, canvasWidth), POLL)
        .toSatisfy((c: Rgb) => !isColour(c, MAGENTA));
      await expect
        .poll(() => previewColour(page, STAR, canvasWidth), POLL)
        .toSatisfy((c: Rgb) => !isColour(c, CYAN));

      // An unsaved change shows in the preview: the saves are held while France shows the badge.
      const held: HTTPRequest[] = [];
      const hold = (request: HTTPRequest) => {
        if (request.isInterceptResolutionHandled()) return;
        if (request.method() === 'PUT' && request.url().includes(`/api/pic-snippet/${design.id}`))
          held.push(request);
        else void request.continue();
      };
      await page.setRequestInterception(true);
      page.on('request', hold);
      await tick('Stickers France shows', 'Sticker 2');
      await expect
        .poll(() => previewColour(page, BADGE, canvasWidth), POLL)
        .toSatisfy((c: Rgb) => isColour(c, MAGENTA));
      expect(((await stored()).rules as typeof expected.rules)[1]!.variant.hide_stickers).toEqual([
        'badge',
      ]);
      await page
        .$('.rules-panel__preview')
        .then((el) => el!.screenshot({ path: 'test-results/e2e-rules-8-unsaved-preview.png' }));
      await press(page, 'Undo');
      await expect
        .poll(() => previewColour(page, BADGE, canvasWidth), POLL)
        .toSatisfy((c: Rgb) => !isColour(c, MAGENTA));
      page.off('request', hold);
      for (const request of held) await request.continue();
      await page.setRequestInterception(false);
      await waitForSaved(page);
      await expect.poll(stored, POLL).toMatchObject(expected);

      // The render and the link of each rule and of the default (the render caches designs 1 s).
      const query = { default: 'name=Ana', yuki: 'name=Yuki', france: 'name=Ana' };
      const headers = {
        default: {},
        yuki: {},
        france: { 'cloudfront-viewer-country': 'FR' },
      };
      const ruleOf = { default: 'default', yuki: `rule:${yuki}`, france: `rule:${france}` };
      const renders: Record<string, Buffer> = {};
      for (const which of ['default', 'yuki', 'france'] as const) {
        let image = Buffer.alloc(0);
        await expect
          .poll(
            async () => {
              const res = await fetch(`${base}/r/${design.public_id}?${query[which]}`, {
                headers: headers[which],
              });
              image = Buffer.from(await res.arrayBuffer());
              return res.status === 200 ? res.headers.get('x-render-rule') : res.status;
            },
            { timeout: 60_000, interval: 1000 },
          )
          .toBe(ruleOf[which]);
        renders[which] = image;
        await sharp(image).png().toFile(`test-results/e2e-rules-9-render-${which}.png`);
        const click = await fetch(`${base}/l/${design.public_id}?${query[which]}`, {
          headers: headers[which],
          redirect: 'manual',
        });
        expect(click.status).toBe(302);
        expect(click.headers.get('location')).toBe(LINKS[which]);
      }

      // The photo: Yuki's is another one; France keeps the design's.
      const photo = async (which: string) => pixels(renders[which]!, PHOTO, canvasWidth);
      expect(difference(await photo('yuki'), await photo('default'))).toBeGreaterThan(20);
      expect(difference(await photo('france'), await photo('default'))).toBeLessThan(8);
      // The stickers: the badge shows but in France; the star only for Yuki.
      const colour = async (which: string, box: Box) =>
        meanOf(await pixels(renders[which]!, box, canvasWidth));
      expect(isColour(await colour('default', BADGE), MAGENTA)).toBe(true);
      expect(isColour(await colour('yuki', BADGE), MAGENTA)).toBe(true);
      expect(isColour(await colour('france', BADGE), MAGENTA)).toBe(false);
      expect(isColour(await colour('default', STAR), CYAN)).toBe(false);
      expect(isColour(await colour('yuki', STAR), CYAN)).toBe(true);
      expect(isColour(await colour('france', STAR), CYAN)).toBe(false);
      // The text, read back: France's own greeting, the design's elsewhere.
      const ocr = await lineReader();
      try {
        const text = async (which: string) => {
          const { width } = await sharp(renders[which]!).metadata();
          const scale = width! / canvasWidth;
          return readWhiteText(ocr, renders[which]!, 0, {
            left: Math.round(BACKDROP.left * scale),
            top: Math.round(BACKDROP.top * scale),
            width: Math.round(BACKDROP.width * scale),
            height: Math.round(BACKDROP.height * scale),
          });
        };
        expect(await text('default')).toMatch(/Hello Ana/);
        expect(await text('yuki')).toMatch(/Hello Yuki/);
        expect(await text('france')).toMatch(/Bonjour Ana/);
      } finally {
        await ocr.terminate();
      }
      expect(errors).toEqual([]);
      await page.close();
    },
  );
});
