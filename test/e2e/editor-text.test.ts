/// <reference lib="dom" />
/**
 * The editor's text tools through the built SPA in headless Chromium (docs/editor.md "Text tools";
 * docs/editor.md "Architecture" text toolbar and panel, narrow layouts, selection overlay, Help,
 * custom-data modal, unload warning; docs/editor.md "Commands" linked sizes, parameter undo;
 * docs/editor.md "Editing rules" placeholders as whole units; docs/editor.md "Messages"
 * confirmations). The demo user opens the demo design, adds a snippet, types `Hi {{first_name}}`,
 * sets its fallback, changes font, size, colour, bold, underline and alignment, drags it, undoes
 * and redoes, reloads and finds everything as left; the render URL (`?first_name=Ana`) draws it.
 * Then the overlay's clone, a placeholder deleted whole and brought back by undo, the custom-data
 * intro, Help, and the layouts at 1280 and 900 px. Screenshots land in
 * test-results/e2e-editor-text-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { KeyInput, Page } from 'puppeteer-core';
import { signedIn, useDemoDesignCopy } from '../support/designs.ts';
import { fetchImage, meanDifference, useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import { TIMEOUT_MS, byRole, findByRole, press, snap } from '../support/aria.ts';
import { DEMO_USER, openEditorPage } from '../support/editor-page.ts';

const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();

/** This file's copy of the seeded demo design: it edits and saves it. */
const welcome = useDemoDesignCopy();
const TEXT = 'Hi {{first_name}}';

/** A property of the control of `role` named `name` (value, checked, aria-pressed…). */
function control(page: Page, role: string, name: string) {
  const selector = byRole(role, name);
  return {
    value: () => page.$eval(selector, (el) => (el as HTMLInputElement).value),
    pressed: () => page.$eval(selector, (el) => el.getAttribute('aria-pressed')),
    checked: () => page.$eval(selector, (el) => (el as HTMLInputElement).checked),
  };
}

/** The selected snippet's position, canvas px, as the panel's X and Y fields show it. */
const position = async (page: Page) => ({
  left: Number(await control(page, 'spinbutton', 'X').value()),
  top: Number(await control(page, 'spinbutton', 'Y').value()),
});

/** Types `text` into the field, replacing what it held (select all, Backspace, type). */
async function replaceText(page: Page, role: string, name: string, text: string) {
  const field = await findByRole(page, role, name);
  await field.focus();
  await page.keyboard.down('Control');
  await page.keyboard.press('a');
  await page.keyboard.up('Control');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(text, { delay: 10 });
}

/** Presses a key with Control held (the editor's Mod on Linux). */
async function withControl(page: Page, key: KeyInput) {
  await page.keyboard.down('Control');
  await page.keyboard.press(key);
  await page.keyboard.up('Control');
}

/** Waits for the save state "Saved". */
const saved = (page: Page) =>
  page.waitForFunction(
    () => document.querySelector('[data-testid="save-state"]')?.textContent?.includes('Saved'),
    { timeout: TIMEOUT_MS },
  );

/** Whether leaving the page now would ask first (a `beforeunload` the page cancels). */
const warnsOnLeave = (page: Page) =>
  page.evaluate(() => {
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    return event.defaultPrevented;
  });

/** The stored snippet with text `text` (the server's copy). */
async function storedSnippet(api: Awaited<ReturnType<typeof signedIn>>, text: string) {
  const design = await api.request('GET', `/api/pic-snippet/${welcome().designId}`);
  const snippets = design.json.text_snippets as Record<string, unknown>[];
  return snippets.find((s) => s.text === text);
}

describe('editor text tools', () => {
  it(
    'styles a snippet with the text toolbar, drags, undoes and redoes, persists, and the render URL draws it',
    { timeout: 300_000 },
    async () => {
      const base = stack().url;
      const api = await signedIn(base, DEMO_USER.email);
      const rendered = await fetchImage(`${base}${welcome().render}.png?first_name=Ana`);
      expect(rendered.res.status).toBe(200);
      const wide = { width: 1440, height: 960 };
      const { page, errors } = await openEditorPage(browser(), base, welcome().designId, wide);

      // No snippet selected: no text toolbar.
      expect(await page.$(byRole('group', 'Text tools'))).toBeNull();

      // Add a snippet, type a merge field, set its fallback.
      await press(page, 'Add text snippet');
      await findByRole(page, 'group', 'Text tools');
      await replaceText(page, 'textbox', 'Text', TEXT);
      const fallback = control(page, 'textbox', 'Fallback for {{first_name}}');
      expect(await fallback.value()).toBe('there'); // the design's other {{first_name}}
      await replaceText(page, 'textbox', 'Fallback for {{first_name}}', 'friend');
      expect(await fallback.value()).toBe('friend');

      // While the text field has focus, leaving asks first (docs/editor.md "Architecture" unload
      // warning).
      await (await findByRole(page, 'textbox', 'Text')).focus();
      expect(await warnsOnLeave(page)).toBe(true);

      // Font, size (the linked minimum follows), colour, bold, underline by shortcut, alignment.
      // A new text starts in bold white Noto Sans (docs/editor.md "Deliberate deviations").
      await press(page, 'Font: Noto Sans');
      await replaceText(page, 'combobox', 'Search fonts', 'Permanent');
      await press(page, 'Permanent Marker', 'option');
      // The font is applied once its faces have loaded (the canvas measures with the real face).
      await findByRole(page, 'button', 'Font: Permanent Marker');
      await replaceText(page, 'spinbutton', 'Font size', '40');
      expect(await control(page, 'spinbutton', 'Font size').value()).toBe('40');
      await press(page, 'Text colour: #ffffff');
      await replaceText(page, 'textbox', 'Hex', '#c81e1e');
      await snap(page, 'e2e-editor-text-1-colour');
      await press(page, 'Done');
      await findByRole(page, 'button', 'Text colour: #c81e1e');
      expect(await control(page, 'button', 'Bold').pressed()).toBe('true');
      await press(page, 'Bold');
      expect(await control(page, 'button', 'Bold').pressed()).toBe('false');
      await press(page, 'Bold');
      expect(await control(page, 'button', 'Bold').pressed()).toBe('true');
      await withControl(page, 'u'); // focus is on Bold, outside text fields
      expect(await control(page, 'button', 'Underline').pressed()).toBe('true');
      await press(page, 'Right', 'radio');
      expect(await control(page, 'radio', 'Right').checked()).toBe(true);
      // Out of the text field, leaving asks only while the styling is not saved yet: once the
      // save queue has stored it, it does not.
      await expect.poll(() => warnsOnLeave(page), { timeout: 20_000, interval: 100 }).toBe(false);
      await snap(page, 'e2e-editor-text-2-styled');

      // Drag it on the canvas; undo takes the drag back in one step, redo brings it again.
      const start = await position(page);
      const view = await page.$eval('[data-testid="editor-canvas"]', (el) => {
        const rect = el.getBoundingClientRect();
        return {
          x: rect.left,
          y: rect.top,
          scale: rect.width / Number((el as HTMLElement).dataset.canvasWidth),
        };
      });
      const from = {
        x: view.x + (start.left + 200) * view.scale,
        y: view.y + (start.top + 20) * view.scale,
      };
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      await page.mouse.move(from.x - 150, from.y - 120, { steps: 12 });
      await page.mouse.up();
      const dragged = await position(page);
      expect(dragged).not.toEqual(start);
      await press(page, 'Undo');
      expect(await position(page)).toEqual(start);
      expect(await control(page, 'button', 'Underline').pressed()).toBe('true');
      await press(page, 'Redo');
      expect(await position(page)).toEqual(dragged);
      await saved(page);
      await snap(page, 'e2e-editor-text-3-dragged');

      // The server has every change.
      expect(await storedSnippet(api, TEXT)).toMatchObject({
        ...dragged,
        fontFamily: 'Permanent Marker',
        fontSize: 40,
        minFontSize: 20,
        fill: '#c81e1e',
        fontWeight: 'bold',
        underline: true,
        textAlign: 'right',
        linked: true,
        parameters: [{ param_name: 'first_name', param_default_value: 'friend' }],
      });

      // Reload: the toolbar shows it all again.
      await page.reload({ waitUntil: 'networkidle0' });
      await press(page, TEXT);
      await findByRole(page, 'button', 'Font: Permanent Marker');
      expect(await control(page, 'spinbutton', 'Font size').value()).toBe('40');
      expect(await control(page, 'button', 'Bold').pressed()).toBe('true');
      expect(await control(page, 'radio', 'Right').checked()).toBe(true);
      expect(await position(page)).toEqual(dragged);
      expect(await control(page, 'textbox', 'Fallback for {{first_name}}').value()).toBe('friend');

      // The render URL draws the snippet where it was left; the rest of the photo is unchanged.
      const after = await fetchImage(`${base}${welcome().render}.png?first_name=Ana`);
      expect([after.width, after.height]).toEqual([rendered.width, rendered.height]);
      const area = { left: dragged.left, top: dragged.top, width: 320, height: 60 };
      expect(meanDifference(after.pixels, rendered.pixels, after.width, area)).toBeGreaterThan(4);
      const corner = { left: 0, top: after.height - 100, width: 150, height: 100 };
      expect(meanDifference(after.pixels, rendered.pixels, after.width, corner)).toBeLessThan(1);

      // The selection overlay clones it (renamed merge field, 'Copy of - ' title); undo removes it.
      await press(page, 'Clone snippet');
      await findByRole(page, 'button', `Copy of - ${TEXT}`);
      await findByRole(page, 'textbox', 'Fallback for {{first_name_copy1}}');
      await snap(page, 'e2e-editor-text-4-clone');
      await press(page, 'Undo');
      await expect
        .poll(async () => (await page.$(byRole('button', `Copy of - ${TEXT}`))) === null)
        .toBe(true);
      await press(page, TEXT);

      // Backspace after the merge field removes it whole, and its parameter; Undo brings both.
      const text = await findByRole(page, 'textbox', 'Text');
      await text.focus();
      await page.keyboard.press('End');
      await page.keyboard.press('Backspace');
      expect(await control(page, 'textbox', 'Text').value()).toBe('Hi ');
      expect(await page.$(byRole('textbox', 'Fallback for {{first_name}}'))).toBeNull();
      await press(page, 'Undo');
      expect(await control(page, 'textbox', 'Text').value()).toBe(TEXT);
      expect(await control(page, 'textbox', 'Fallback for {{first_name}}').value()).toBe('friend');

      // Alt+← moves the merge field a word to the left (the keyboard way to drag it).
      await (await findByRole(page, 'textbox', 'Text')).focus();
      await page.keyboard.press('End');
      await page.keyboard.down('Alt');
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.up('Alt');
      expect(await control(page, 'textbox', 'Text').value()).toBe('{{first_name}} Hi');
      await press(page, 'Undo');
      expect(await control(page, 'textbox', 'Text').value()).toBe(TEXT);

      // Drag: a click inside the merge field selects it whole; dragged to the start, it moves
      // there in one step and keeps its parameter (docs/editor.md "Commands": "Dragging a
      // parameter").
      const field = await page.$eval(byRole('textbox', 'Text'), (el) => {
        const style = getComputedStyle(el);
        const measure = document.createElement('canvas').getContext('2d')!;
        measure.font = `${style.fontSize} ${style.fontFamily}`;
        const rect = el.getBoundingClientRect();
        const size = parseFloat(style.fontSize);
        return {
          x: rect.left + parseFloat(style.paddingLeft) + parseFloat(style.borderLeftWidth),
          y: rect.top + parseFloat(style.paddingTop) + parseFloat(style.borderTopWidth),
          char: measure.measureText('M').width,
          line: parseFloat(style.lineHeight) || size * 1.2,
        };
      });
      const inside = { x: field.x + 8.5 * field.char, y: field.y + field.line / 2 };
      await page.mouse.click(inside.x, inside.y);
      expect(
        await page.$eval(byRole('textbox', 'Text'), (el) => {
          const t = el as HTMLTextAreaElement;
          return [t.selectionStart, t.selectionEnd];
        }),
      ).toEqual([3, 17]);
      await page.mouse.move(inside.x, inside.y);
      await page.mouse.down();
      await page.mouse.move(inside.x - 2 * field.char, inside.y + 2, { steps: 5 });
      await page.mouse.move(field.x + 1, inside.y, { steps: 10 });
      await page.mouse.up();
      expect(await control(page, 'textbox', 'Text').value()).toBe('{{first_name}}Hi ');
      expect(await control(page, 'textbox', 'Fallback for {{first_name}}').value()).toBe('friend');
      await press(page, 'Undo');
      expect(await control(page, 'textbox', 'Text').value()).toBe(TEXT);

      // Add custom data: the intro shows until "Don't show it again".
      await press(page, 'Add custom data');
      await findByRole(page, 'dialog', 'Custom data');
      await snap(page, 'e2e-editor-text-5-custom-data');
      await press(page, "Don't show it again");
      expect(await page.evaluate(() => localStorage.getItem('customDataModal'))).toBe('0');
      expect(await control(page, 'textbox', 'Text').value()).toBe(`${TEXT} {{param}}`);
      await press(page, 'Remove {{param}}');
      await press(page, 'Add custom data');
      expect(await page.$('dialog[open]')).toBeNull();
      await press(page, 'Undo');
      expect(await control(page, 'textbox', 'Text').value()).toBe(TEXT);

      // Help.
      await press(page, 'Help');
      await findByRole(page, 'dialog', 'Editor help');
      await press(page, 'Close');

      // Narrow layouts (docs/editor.md "Architecture"): outline and angle move into "More text
      // options" at 1400 px or less; alignment and colours join them at 991 px or less.
      await page.setViewport({ width: 1280, height: 900 });
      await press(page, 'More text options');
      await findByRole(page, 'spinbutton', 'Outline width');
      await snap(page, 'e2e-editor-text-6-1280');
      await page.setViewport({ width: 900, height: 1000 });
      await findByRole(page, 'radio', 'Right');
      await snap(page, 'e2e-editor-text-7-900');
      await page.setViewport(wide);
      await findByRole(page, 'spinbutton', 'Outline width');
      expect(await page.$(byRole('button', 'More text options'))).toBeNull();
      expect(errors).toEqual([]);
    },
  );
});
