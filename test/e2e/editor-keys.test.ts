/// <reference lib="dom" />
/**
 * Editor correctness in the built SPA (docs/editor.md "Commands": "Selection overlay",
 * docs/editor.md "Server sync" QR call): on a design of its own, the demo user types in the snippet
 * text field and undoes with Ctrl+Z there (one history: the typing burst goes in one step, the
 * document and the field agree, Ctrl+Shift+Z redoes; Esc leaves the field, a second Esc deselects);
 * turns the snippet upside down and finds the overlay above the text as drawn; moves the alignment
 * with the arrow keys without nudging the snippet; changes a QR code's colour, saved through `PUT
 * /api/pic-snippet/{id}/qrCode`, and undoes it, saved the same way; with an uploaded font, Ctrl+B
 * and Ctrl+I refuse as the Bold button does (docs/editor.md "Editing rules", message docs/editor.md
 * "Messages"), shown as a toast over the canvas that Esc dismisses; Ctrl+Z in a number field is the
 * editor's undo; the QR code's selection overlay offers Delete only and deletes it after 'Delete
 * Sticker?'. Screenshots: test-results/e2e-editor-keys-*.png.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KeyInput, Page } from 'puppeteer-core';
import { createDesign, signedIn } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import { POLL, TIMEOUT_MS, byRole, findByRole, press, snap, waitForText } from '../support/aria.ts';
import { DEMO_USER, openEditorPage } from '../support/editor-page.ts';
import { makeTtf } from '../support/fonts.ts';
import { shiftPageClock } from '../support/page-clock.ts';

const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();

/** The value of the field of `role` named `name`. */
const valueOf = (page: Page, role: string, name: string) =>
  page.$eval(byRole(role, name), (el) => (el as HTMLInputElement).value);

/** Presses `key` with Control held (the editor's Mod on Linux), Shift too when asked. */
async function withControl(page: Page, key: KeyInput, shift = false) {
  await page.keyboard.down('Control');
  if (shift) await page.keyboard.down('Shift');
  await page.keyboard.press(key);
  if (shift) await page.keyboard.up('Shift');
  await page.keyboard.up('Control');
}

/** Waits for the save state "Saved". */
const saved = (page: Page) =>
  page.waitForFunction(
    () => document.querySelector('[data-testid="save-state"]')?.textContent?.includes('Saved'),
    { timeout: TIMEOUT_MS },
  );

/** A rectangle of the page, CSS px. */
type Rect = { left: number; top: number; right: number; bottom: number };

const rectOf = (page: Page, selector: string): Promise<Rect> =>
  page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  });

describe('editor keys, overlay and QR saves', () => {
  it(
    'one undo history in the text field, the overlay of a rotated snippet, arrows on a radio, QR colour saved by its call',
    { timeout: 300_000 },
    async () => {
      const base = stack().url;
      const api = await signedIn(base, DEMO_USER.email);
      const design = await createDesign(api, { title: 'Keys and overlay' });
      const { page, errors } = await openEditorPage(browser(), base, design.id, {
        width: 1440,
        height: 960,
      });
      const requests: string[] = [];
      page.on('request', (r) => {
        if (r.method() === 'PUT') requests.push(new URL(r.url()).pathname);
      });

      // Type a word, pause, type more; Ctrl+Z in the field takes the last burst back in one step.
      await press(page, 'Add text snippet');
      const field = await findByRole(page, 'textbox', 'Text');
      const added = await valueOf(page, 'textbox', 'Text');
      await field.focus();
      await page.keyboard.press('End');
      await page.keyboard.type(' Hello', { delay: 20 });
      // A pause longer than the 1000 ms merge window, on the page's clock.
      await shiftPageClock(page, 1300);
      await page.keyboard.type(' world', { delay: 20 });
      expect(await valueOf(page, 'textbox', 'Text')).toBe(`${added} Hello world`);
      await withControl(page, 'z');
      expect(await valueOf(page, 'textbox', 'Text')).toBe(`${added} Hello`);
      // The document agrees: the snippet's entry in the panel shows the same text.
      await findByRole(page, 'button', `${added} Hello`);
      expect(
        await page.$eval(byRole('textbox', 'Text'), (el) => [
          (el as HTMLTextAreaElement).selectionStart,
          document.activeElement === el,
        ]),
      ).toEqual([`${added} Hello`.length, true]);
      await withControl(page, 'z');
      expect(await valueOf(page, 'textbox', 'Text')).toBe(added);
      await withControl(page, 'z', true);
      expect(await valueOf(page, 'textbox', 'Text')).toBe(`${added} Hello`);
      await withControl(page, 'y');
      expect(await valueOf(page, 'textbox', 'Text')).toBe(`${added} Hello world`);
      await findByRole(page, 'button', `${added} Hello world`);

      // Esc leaves the text field, the snippet still selected; a second Esc deselects it.
      await page.keyboard.press('Escape');
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.tagName), POLL)
        .not.toBe('TEXTAREA');
      expect(await page.$(byRole('group', 'Text tools'))).not.toBeNull();
      await page.keyboard.press('Escape');
      await page.waitForFunction(() => !document.querySelector('[aria-label="Text tools"]'));
      await press(page, `${added} Hello world`);
      await findByRole(page, 'group', 'Text tools');

      // Turned upside down, the text hangs above and left of its stored corner: the overlay
      // floats above the text as drawn, not over it.
      const angle = await findByRole(page, 'spinbutton', 'Angle');
      await angle.click({ count: 3 });
      await page.keyboard.type('180');
      await page.keyboard.press('Tab');
      await saved(page);
      const y = Number(await valueOf(page, 'spinbutton', 'Y'));
      const fontSize = Number(await valueOf(page, 'spinbutton', 'Font size'));
      const canvas = await page.$eval('[data-testid="editor-canvas"]', (el) => {
        const r = el.getBoundingClientRect();
        return { top: r.top, scale: r.width / Number((el as HTMLElement).dataset.canvasWidth) };
      });
      const overlay = await rectOf(page, byRole('toolbar', 'Selected text snippet'));
      await snap(page, 'e2e-editor-keys-1-rotated-overlay');
      // The drawn text's top: its corner's y less one line (1.5 × the font size, docs/editor.md
      // "Constants").
      const textTop = canvas.top + (y - 1.5 * fontSize) * canvas.scale;
      expect(overlay.bottom).toBeLessThanOrEqual(textTop);
      expect(overlay.top).toBeGreaterThanOrEqual(canvas.top);

      // Ctrl+Z in a number field is the editor's undo (one history): the angle goes back and
      // Redo is offered; the field's own undo would have added a step instead. Ctrl+Shift+Z
      // redoes it.
      const redoDisabled = () =>
        page.$eval(byRole('button', 'Redo'), (el) => (el as HTMLButtonElement).disabled);
      expect(await redoDisabled()).toBe(true);
      await angle.focus();
      await withControl(page, 'z');
      await page.waitForFunction(
        (el) => (el as HTMLInputElement).value === '0',
        {
          timeout: TIMEOUT_MS,
        },
        angle,
      );
      expect(await redoDisabled()).toBe(false);
      await withControl(page, 'z', true);
      expect(await valueOf(page, 'spinbutton', 'Angle')).toBe('180');
      expect(await redoDisabled()).toBe(true);

      // The arrow keys move the alignment radio group's choice and leave the snippet in place.
      const x = await valueOf(page, 'spinbutton', 'X');
      await press(page, 'Right', 'radio');
      await page.keyboard.press('ArrowLeft');
      expect(
        await page.$eval(byRole('radio', 'Center'), (el) => (el as HTMLInputElement).checked),
      ).toBe(true);
      await page.keyboard.press('ArrowUp');
      expect(await valueOf(page, 'spinbutton', 'X')).toBe(x);
      expect(Number(await valueOf(page, 'spinbutton', 'Y'))).toBe(y);

      // An uploaded font has no bold or italic (docs/editor.md "Editing rules"): Ctrl+B refuses
      // like the button, with the spec's message (docs/editor.md "Messages"), and the snippet stays
      // plain.
      const dir = await mkdtemp(join(tmpdir(), 'keys-e2e-'));
      const family = `Keys E2E ${Date.now() % 100_000}`;
      const ttf = join(dir, 'keys-e2e.ttf');
      await writeFile(ttf, makeTtf(family));
      await page.locator('.font-picker__button').setTimeout(TIMEOUT_MS).click();
      await findByRole(page, 'button', 'Upload font');
      await (await page.$('.font-picker input[type="file"]'))!.uploadFile(ttf);
      await press(page, family, 'option');
      await findByRole(page, 'button', `Font: ${family}`);
      await page.waitForSelector(`${byRole('button', 'Bold')}[aria-disabled="true"]`);
      // Focus on a button, outside the text fields, where the shortcuts apply.
      await (await findByRole(page, 'button', `Font: ${family}`)).focus();
      const canvasBefore = await rectOf(page, '[data-testid="editor-canvas"]');
      await withControl(page, 'b');
      await waitForText(page, 'This action is not supported for uploaded fonts!');
      // The message floats over the top of the canvas stage: the canvas does not move, and the
      // text tools (in the settings column beside it) stay uncovered. Esc dismisses it and keeps
      // the selection.
      const toast = await rectOf(page, '[data-testid="editor-notice"]');
      expect((await rectOf(page, '[data-testid="editor-canvas"]')).top).toBe(canvasBefore.top);
      expect(toast.top).toBeGreaterThanOrEqual((await rectOf(page, '.editor-stage')).top);
      const tools = await rectOf(page, byRole('group', 'Text tools'));
      const apart =
        toast.right <= tools.left ||
        toast.left >= tools.right ||
        toast.bottom <= tools.top ||
        toast.top >= tools.bottom;
      expect(apart).toBe(true);
      expect(await page.$('[data-testid="editor-notice"] [role="alert"]')).not.toBeNull();
      await page.keyboard.press('Escape');
      await page.waitForSelector('[data-testid="editor-notice"]', {
        hidden: true,
        timeout: TIMEOUT_MS,
      });
      expect(await page.$(byRole('group', 'Text tools'))).not.toBeNull();
      await withControl(page, 'i');
      await press(page, 'Bold');
      await snap(page, 'e2e-editor-keys-2-uploaded-font');
      expect(
        await page.$eval(byRole('button', 'Bold'), (el) => el.getAttribute('aria-pressed')),
      ).toBe('false');
      expect(
        await page.$eval(byRole('button', 'Italic'), (el) => el.getAttribute('aria-pressed')),
      ).toBe('false');
      await saved(page);
      const stored = (await api.request('GET', `/api/pic-snippet/${design.id}`)).json
        .text_snippets as Record<string, unknown>[];
      expect(stored[0]).toMatchObject({
        fontFamily: family,
        fontWeight: 'normal',
        fontStyle: 'normal',
      });

      // A QR code's colour: saved through the QR call (docs/editor.md "Server sync") with the
      // version; undo too.
      await saved(page);
      await press(page, 'Stickers');
      const qrButton = await page.waitForSelector('.library__pick[aria-label^="Add QR code"]');
      await qrButton!.click();
      await findByRole(page, 'toolbar', 'QR code tools');
      await saved(page);
      requests.length = 0;
      const qrCall = `/api/pic-snippet/${design.id}/qrCode`;
      /** The next answer of the QR call. */
      const qrAnswer = () =>
        page.waitForResponse(
          (r) => r.request().method() === 'PUT' && new URL(r.url()).pathname === qrCall,
        );
      const qrOf = async () => {
        const stickers = (await api.request('GET', `/api/pic-snippet/${design.id}`)).json
          .graphics_data as Record<string, unknown>[];
        return stickers.find((s) => s.dynamicStickerType === 'qrCode')!;
      };
      const coloured = qrAnswer();
      await page.$eval('input[type="color"]', (el) => {
        const input = el as HTMLInputElement;
        const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
        setter.call(input, '#c81e1e');
        input.dispatchEvent(new Event('input', { bubbles: true }));
      });
      expect((await coloured).status()).toBe(200);
      expect(requests).toEqual([qrCall]);
      expect((await qrOf()).qrCodeColor).toBe('#c81e1e');
      await snap(page, 'e2e-editor-keys-3-qr-colour');
      await page.$eval('input[type="color"]', (el) => (el as HTMLElement).blur());
      const undone = qrAnswer();
      await withControl(page, 'z');
      expect((await undone).status()).toBe(200);
      expect((await qrOf()).qrCodeColor).toBe('#111111');
      expect(requests).toEqual([qrCall, qrCall]);
      await saved(page);

      // The QR code's overlay on the canvas (docs/editor.md "Commands"): Delete only, not in the
      // toolbar too; Delete asks 'Delete Sticker?' (docs/editor.md "Messages") and removes it.
      const qrOverlay = await findByRole(page, 'toolbar', 'Selected QR code');
      expect(
        await qrOverlay.$$eval('button', (buttons) => buttons.map((b) => b.textContent)),
      ).toEqual(['Delete']);
      expect(
        await page.$$eval('[data-testid="sticker-tools"] button', (buttons) =>
          buttons.map((b) => b.textContent),
        ),
      ).not.toContain('Delete');
      await snap(page, 'e2e-editor-keys-4-qr-overlay');
      await press(page, 'Delete sticker');
      await findByRole(page, 'alertdialog', 'Delete Sticker?');
      await press(page, 'Delete');
      await page.waitForSelector(byRole('toolbar', 'Selected QR code'), {
        hidden: true,
        timeout: TIMEOUT_MS,
      });
      await expect
        .poll(
          async () =>
            (await api.request('GET', `/api/pic-snippet/${design.id}`)).json.graphics_data,
          POLL,
        )
        .toEqual([]);
      await snap(page, 'e2e-editor-keys-5-qr-deleted');
      expect(errors).toEqual([]);
    },
  );
});
