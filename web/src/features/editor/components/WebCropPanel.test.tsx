/**
 * A screenshot sticker's live crop (./WebCropPanel.tsx; docs/editor.md "Live web crop"): the
 * switch shows labelled fields, a selector the browser cannot read and a template or refresh the
 * schema refuses show their messages and save nothing, the template's fields are listed as the
 * parameters they add, and a change is undone; under them, the state of the element's capture
 * (asked for by ../cropCaptures.ts).
 */
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { WEB_CROP_MESSAGES } from '#shared/scene/web-crop.ts';
import { openEditor, renderInEditor } from '../../../test/EditorTestProviders.tsx';
import { runCommand } from '../commands.ts';
import { StickerToolbar } from './StickerTools.tsx';
import { UNREADABLE_SELECTOR } from './WebCropPanel.tsx';
import { answer } from '../../../test/api.ts';
import { editorScene } from '../document/preview.ts';
import { mountCropCaptures } from '../cropCaptures.ts';

function withScreenshot() {
  const store = openEditor();
  runCommand(store, 'addSticker', { source: { kind: 'dynamic', dynamicType: 'screenShot' } });
  return store;
}

const cropOf = (store: ReturnType<typeof openEditor>) =>
  store.getState().design!.graphics_data.find((s) => s.dynamicStickerType === 'screenShot')!.crop;

describe('the live crop of a screenshot', () => {
  it('is off until switched on, then asks for a selector before anything is saved', async () => {
    const store = withScreenshot();
    const { user } = renderInEditor(<StickerToolbar />, { store });
    expect(screen.getByRole('toolbar', { name: 'Screenshot tools' })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'CSS selector' })).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: 'Show one element of the page' }));
    const selector = screen.getByRole('textbox', { name: 'CSS selector' });
    expect(cropOf(store)).toBeNull();
    expect(screen.queryByRole('textbox', { name: /URL template/ })).toBeNull();

    await user.type(selector, 'div[[');
    expect(screen.getByText(UNREADABLE_SELECTOR)).toBeTruthy();
    expect(selector.getAttribute('aria-invalid')).toBe('true');
    expect(cropOf(store)?.selector).toBe('div');
    await user.type(selector, 'data-price]');
    expect(screen.queryByText(UNREADABLE_SELECTOR)).toBeNull();
    expect(cropOf(store)).toEqual({
      selector: 'div[data-price]',
      url_template: null,
      refresh_s: 3600,
    });
  });

  it('refuses a template whose fields name the site, and a refresh out of range', async () => {
    const store = withScreenshot();
    const { user } = renderInEditor(<StickerToolbar />, { store });
    await user.click(screen.getByRole('checkbox', { name: 'Show one element of the page' }));
    await user.type(screen.getByRole('textbox', { name: 'CSS selector' }), '#price');
    const template = screen.getByRole('textbox', { name: /URL template/ });
    await user.type(template, 'https://{{{{host}}/p');
    expect(screen.getByText(WEB_CROP_MESSAGES.template)).toBeTruthy();
    expect(cropOf(store)?.url_template).toBeNull();

    await user.clear(template);
    await user.type(template, 'https://shop.example/p/{{{{sku}}?lang={{{{lang}}');
    expect(cropOf(store)?.url_template).toBe('https://shop.example/p/{{sku}}?lang={{lang}}');
    expect(screen.getByText(/Parameters this adds to the design: sku, lang\./)).toBeTruthy();

    const refresh = screen.getByRole('spinbutton', { name: /Refresh \(seconds/ });
    await user.clear(refresh);
    await user.type(refresh, '30');
    expect(screen.getByText(WEB_CROP_MESSAGES.refresh)).toBeTruthy();
    expect(cropOf(store)?.refresh_s).toBe(3600);
    await user.type(refresh, '0');
    expect(cropOf(store)?.refresh_s).toBe(300);
    act(() => runCommand(store, 'undo'));
    expect(cropOf(store)?.refresh_s).toBe(3600);
  });

  it('is switched off, undoably', async () => {
    const store = withScreenshot();
    const { user } = renderInEditor(<StickerToolbar />, { store });
    const on = screen.getByRole('checkbox', { name: 'Show one element of the page' });
    await user.click(on);
    await user.type(screen.getByRole('textbox', { name: 'CSS selector' }), 'main');
    await user.click(on);
    expect(cropOf(store)).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'CSS selector' })).toBeNull();
    act(() => runCommand(store, 'undo'));
    expect(cropOf(store)?.selector).toBe('main');
    expect(screen.getByRole('textbox', { name: 'CSS selector' })).toHaveProperty('value', 'main');
  });
});

describe("the crop's capture for the canvas", () => {
  const PNG = 'data:image/png;base64,iVBORw0KGgo=';
  const ROUTE = 'POST /api/pic-snippet/{id}/web-crop-preview';
  let stop = () => {};
  afterEach(() => stop());

  /**
   * A screenshot of https://shop.example/deal with a crop of `#deal`, its panel open, and the
   * editor's captures running as the editor page runs them (../cropCaptures.ts).
   */
  function withCrop() {
    const store = withScreenshot();
    const id = store.getState().design!.graphics_data[0]!.uuid;
    runCommand(store, 'setStickerFallback', { id, value: 'https://shop.example/deal' });
    runCommand(store, 'setWebCrop', { id, patch: { selector: '#deal' } });
    stop = mountCropCaptures(store);
    const drawn = () =>
      editorScene(store.getState().design!, 'sample', store.getState().cropPreviews).images.find(
        (l) => l.id === id,
      )?.src;
    return { drawn, ...renderInEditor(<StickerToolbar />, { store }) };
  }

  it('says it is capturing, then that the canvas draws the captured element', async () => {
    const capture = answer(ROUTE, 200, { image: PNG }, { held: true });
    const { drawn } = withCrop();
    expect(drawn()).not.toBe(PNG);
    await waitFor(() => expect(capture.requests).toHaveLength(1));
    expect(capture.requests[0]?.body).toEqual({
      url: 'https://shop.example/deal',
      selector: '#deal',
      is_mobile: false,
    });
    expect(screen.getByRole('status').textContent).toBe(
      'Capturing the element from the fallback page…',
    );
    capture.release();
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'The canvas shows the element as captured from the fallback page.',
      ),
    );
    expect(drawn()).toBe(PNG);
  });

  it("shows the server's reason when nothing was captured, and keeps the placeholder", async () => {
    const message =
      'Nothing was captured: no element matched the selector in 6 seconds, or the page did not load.';
    answer(ROUTE, 422, { message });
    const { drawn } = withCrop();
    const alert = await screen.findByRole('alert', {}, { timeout: 3000 });
    expect(alert.textContent).toBe(`${message} The canvas shows the placeholder.`);
    expect(drawn()).not.toBe(PNG);
  });
});
