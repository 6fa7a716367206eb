/**
 * The live crops' captures of the open design (./cropCaptures.ts; docs/editor.md "Live web crop"):
 * asked on open for every crop with no panel open, each page, selector and device once, two at a
 * time; a changed crop once its typing paused; never again when kept (undo) or failed; the
 * failure kept for the panel; a 429 stops the waiting ones; one that does not answer in time
 * fails; at most 20 crops a design, and 20 captures kept, the design’s own last to go.
 */
import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { answer } from '../../test/api.ts';
import { GENERIC_ERROR_MESSAGE } from '../../api/client.ts';
import { openEditor } from '../../test/EditorTestProviders.tsx';
import { runCommand } from './commands.ts';
import { mountCropCaptures } from './cropCaptures.ts';
import { editorScene } from './document/preview.ts';
import type { EditorStore } from './store/index.ts';

const ROUTE = 'POST /api/pic-snippet/{id}/web-crop-preview';
const PNG = 'data:image/png;base64,iVBORw0KGgo=';
const NOTHING =
  'Nothing was captured: no element matched the selector in 6 seconds, or the page did not load.';

let stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops) stop();
  stops = [];
});

/** Adds a screenshot sticker of `page` with a crop of `selector`; returns its id. */
function addCrop(store: EditorStore, page: string, selector: string): string {
  runCommand(store, 'addSticker', { source: { kind: 'dynamic', dynamicType: 'screenShot' } });
  const id = store.getState().design!.graphics_data.at(-1)!.uuid;
  runCommand(store, 'setStickerFallback', { id, value: `https://shop.example/${page}` });
  runCommand(store, 'setWebCrop', { id, patch: { selector } });
  return id;
}

const mount = (store: EditorStore, delayMs = 40) => {
  stops.push(mountCropCaptures(store, { delayMs }));
};

/** What the canvas draws for sticker `id` (the scene the view draws). */
const drawn = (store: EditorStore, id: string) =>
  editorScene(store.getState().design!, 'sample', store.getState().cropPreviews).images.find(
    (l) => l.id === id,
  )?.src;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the captures of a design’s live crops', () => {
  it('are asked on open for every crop, each once, two at a time, and drawn', async () => {
    const capture = answer(ROUTE, 200, { image: PNG }, { held: true });
    const store = openEditor();
    const a = addCrop(store, 'a', '#deal');
    addCrop(store, 'a', '#deal'); // the same page and element: one capture
    const b = addCrop(store, 'b', '#deal');
    const c = addCrop(store, 'c', '.score');
    mount(store, 60_000); // on open: no pause, whatever the delay
    await waitFor(() => expect(capture.requests).toHaveLength(2));
    await pause(50);
    expect(capture.requests).toHaveLength(2);
    expect(drawn(store, a)).not.toBe(PNG);
    capture.release();
    await waitFor(() => expect(capture.requests).toHaveLength(3));
    expect(capture.requests.map((r) => r.body)).toEqual([
      { url: 'https://shop.example/a', selector: '#deal', is_mobile: false },
      { url: 'https://shop.example/b', selector: '#deal', is_mobile: false },
      { url: 'https://shop.example/c', selector: '.score', is_mobile: false },
    ]);
    await waitFor(() => expect(Object.keys(store.getState().cropPreviews)).toHaveLength(3));
    for (const id of [a, b, c]) expect(drawn(store, id)).toBe(PNG);
  });

  it('asks for a changed crop once its typing paused, and not again after an undo', async () => {
    const capture = answer(ROUTE, 200, { image: PNG });
    const store = openEditor();
    const id = addCrop(store, 'a', '#p');
    mount(store);
    await waitFor(() => expect(capture.requests).toHaveLength(1));
    await waitFor(() => expect(drawn(store, id)).toBe(PNG));
    for (const selector of ['#pr', '#pri', '#price'])
      runCommand(store, 'setWebCrop', { id, patch: { selector } });
    await waitFor(() => expect(capture.requests).toHaveLength(2));
    expect(capture.requests[1]?.body.selector).toBe('#price');
    runCommand(store, 'setScreenshotDevice', { id, isMobile: true });
    await waitFor(() => expect(capture.requests).toHaveLength(3));
    expect(capture.requests[2]?.body).toMatchObject({ selector: '#price', is_mobile: true });
    await waitFor(() => expect(drawn(store, id)).toBe(PNG));
    runCommand(store, 'undo');
    expect(store.getState().design!.graphics_data[0]!.isMobile).toBe(false);
    expect(drawn(store, id)).toBe(PNG);
    await pause(150);
    expect(capture.requests).toHaveLength(3);
  });

  it('keeps a failure for the panel, the placeholder on the canvas, and does not ask again', async () => {
    const capture = answer(ROUTE, 422, { message: NOTHING });
    const store = openEditor();
    const id = addCrop(store, 'a', '#none');
    const placeholder = drawn(store, id);
    mount(store);
    await waitFor(() => expect(Object.values(store.getState().cropFailures)).toEqual([NOTHING]));
    expect(drawn(store, id)).toBe(placeholder);
    runCommand(store, 'moveObject', { target: { kind: 'sticker', id }, left: 10, top: 10 });
    await pause(150);
    expect(capture.requests).toHaveLength(1);
  });

  it('stops asking past the team’s allowance (429)', async () => {
    const message = 'Too many requests. Please wait a moment and try again.';
    const capture = answer(ROUTE, 429, { message });
    const store = openEditor();
    for (const page of ['a', 'b', 'c', 'd']) addCrop(store, page, '#deal');
    mount(store);
    await waitFor(() => expect(Object.keys(store.getState().cropFailures)).toHaveLength(4));
    await pause(150);
    expect(capture.requests).toHaveLength(2);
    expect(new Set(Object.values(store.getState().cropFailures))).toEqual(new Set([message]));
  });

  it('gives up on a capture that does not answer in time, and asks for the next', async () => {
    const capture = answer(ROUTE, 200, { image: PNG }, { held: true });
    const store = openEditor();
    for (const page of ['a', 'b', 'c']) addCrop(store, page, '#deal');
    stops.push(mountCropCaptures(store, { timeoutMs: 100 }));
    await waitFor(() => expect(Object.keys(store.getState().cropFailures)).toHaveLength(2));
    expect(Object.values(store.getState().cropFailures)[0]).toBe(GENERIC_ERROR_MESSAGE);
    await waitFor(() => expect(capture.requests).toHaveLength(3));
  });

  it('asks for the first 20 crops of a design only', async () => {
    const capture = answer(ROUTE, 200, { image: PNG });
    const store = openEditor();
    for (let i = 0; i < 22; i++) addCrop(store, `p${i}`, '#deal');
    mount(store);
    await waitFor(() => expect(Object.keys(store.getState().cropPreviews)).toHaveLength(20));
    await pause(150);
    expect(capture.requests).toHaveLength(20);
    expect(capture.requests.map((r) => r.body.url)).not.toContain('https://shop.example/p20');
  });

  it('are kept 20 at most, the design’s own before older ones', () => {
    const store = openEditor();
    const keys = Array.from({ length: 20 }, (_, i) => `desktop\n#deal\nhttps://shop.example/${i}`);
    for (const key of keys) store.getState().setCropPreview(key, PNG);
    // The design draws the oldest: the next capture pushes out the second oldest instead.
    store.getState().setCropPreview('new', PNG, new Set([keys[0]!, 'new']));
    const kept = Object.keys(store.getState().cropPreviews);
    expect(kept).toHaveLength(20);
    expect(kept).toContain(keys[0]);
    expect(kept).not.toContain(keys[1]);
    expect(kept.at(-1)).toBe('new');
  });
});
