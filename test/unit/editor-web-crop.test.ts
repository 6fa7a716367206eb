/**
 * The editor's live web crop on a screenshot sticker (docs/editor.md "Live web crop"): a crop
 * made from its selector, its template's fields counted as the design's parameters, refusals
 * with the schema's messages changing nothing, one undo step per field, and switched off.
 */
import { describe, expect, it } from 'vitest';
import { declaredParameters } from '#shared/scene/resolve.ts';
import { WEB_CROP_MESSAGES } from '#shared/scene/web-crop.ts';
import { runCommand } from '../../web/src/features/editor/commands.ts';
import type { WebCropError } from '../../web/src/features/editor/commands/stickers.ts';
import { cropParameters } from '../../web/src/features/editor/document/webCrop.ts';
import { openEditor } from '../support/editor.ts';

function withScreenshot() {
  const editor = openEditor();
  runCommand(editor.store, 'addSticker', {
    source: { kind: 'dynamic', dynamicType: 'screenShot' },
  });
  const id = editor.store.getState().design!.graphics_data.at(-1)!.uuid;
  return { ...editor, id };
}

const sticker = (store: ReturnType<typeof openEditor>['store']) =>
  store.getState().design!.graphics_data.find((s) => s.dynamicStickerType === 'screenShot')!;

/** The refusal of a change, or undefined when it was made. */
function refusal(run: () => void): WebCropError | undefined {
  try {
    run();
    return undefined;
  } catch (e) {
    return e as WebCropError;
  }
}

describe('a live crop in the editor', () => {
  it('starts with its selector, the defaults for the rest, and says so on the canvas', () => {
    const { store, id } = withScreenshot();
    expect(sticker(store).crop).toBeNull();
    runCommand(store, 'setWebCrop', { id, patch: { selector: '#price' } });
    expect(sticker(store).crop).toEqual({
      selector: '#price',
      url_template: null,
      refresh_s: 3600,
    });
    expect(atob(sticker(store).dynamicStickerNewUrl!.split(',')[1]!)).toContain(
      'Live crop (desktop)',
    );
  });

  it('refuses what the API refuses, with its messages, and changes nothing', () => {
    const { store, id } = withScreenshot();
    expect(
      refusal(() => runCommand(store, 'setWebCrop', { id, patch: { selector: ' ' } }))?.errors,
    ).toEqual({ selector: WEB_CROP_MESSAGES.selector });
    expect(sticker(store).crop).toBeNull();
    runCommand(store, 'setWebCrop', { id, patch: { selector: '.score' } });
    for (const url_template of ['https://{{host}}/p', 'https://shop.example{{x}}', 'ftp://a/{{b}}'])
      expect(
        refusal(() => runCommand(store, 'setWebCrop', { id, patch: { url_template } }))?.errors,
      ).toEqual({ url_template: WEB_CROP_MESSAGES.template });
    for (const refresh_s of [59, 86_401, 90.5])
      expect(
        refusal(() => runCommand(store, 'setWebCrop', { id, patch: { refresh_s } }))?.errors,
      ).toEqual({ refresh_s: WEB_CROP_MESSAGES.refresh });
    expect(sticker(store).crop).toEqual({
      selector: '.score',
      url_template: null,
      refresh_s: 3600,
    });
  });

  it('adds its template fields to the design parameters', () => {
    const { store, id } = withScreenshot();
    runCommand(store, 'setWebCrop', { id, patch: { selector: '#price' } });
    runCommand(store, 'setWebCrop', {
      id,
      patch: { url_template: 'https://shop.example/p/{{sku}}?lang={{ lang }}&again={{sku}}' },
    });
    expect(cropParameters(sticker(store).crop!.url_template)).toEqual(['sku', 'lang']);
    expect(declaredParameters(store.getState().design!)).toEqual(
      expect.arrayContaining(['sku', 'lang', 'first_name', 'screenIcon1']),
    );
  });

  it('undoes field by field and is switched off in one step', () => {
    const { store, id } = withScreenshot();
    runCommand(store, 'setWebCrop', { id, patch: { selector: '#price' } });
    runCommand(store, 'setWebCrop', { id, patch: { refresh_s: 600 } });
    runCommand(store, 'setWebCrop', { id, patch: null });
    expect(sticker(store).crop).toBeNull();
    runCommand(store, 'undo');
    expect(sticker(store).crop?.refresh_s).toBe(600);
    runCommand(store, 'undo');
    expect(sticker(store).crop?.refresh_s).toBe(3600);
    runCommand(store, 'undo');
    expect(sticker(store).crop).toBeNull();
  });
});
