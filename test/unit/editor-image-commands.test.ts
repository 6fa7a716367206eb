/**
 * The image toolbar's and stickers' commands (docs/editor.md; docs/editor.md "Commands": "Editor
 * changes", "History event types", "Enhance change: undo snapshot after 400 ms"): exact undo and
 * redo counts for each command, the event types recorded, a whole burst of enhance changes undone
 * in one step once 400 ms pass, and the sticker commands' rules.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCommand } from '../../web/src/features/editor/commands.ts';
import { ENHANCE_SNAPSHOT_MS } from '../../web/src/features/editor/commands/image.ts';
import { FallbackError } from '../../web/src/features/editor/commands/stickers.ts';
import { counts, openEditor } from '../support/editor.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

type Editor = ReturnType<typeof openEditor>;
const design = (e: Editor) => e.store.getState().design!;
const lastEvent = (e: Editor) => e.store.getState().history.undo.at(-1)?.eventType;

/** Undoes then redoes everything, checking the document returns each way. */
function roundTrip(e: Editor, steps: number) {
  const after = design(e);
  for (let i = 0; i < steps; i++) expect(e.store.getState().undo()).not.toBeNull();
  expect(counts(e.store)).toEqual({ undo: 0, redo: steps });
  const before = design(e);
  for (let i = 0; i < steps; i++) expect(e.store.getState().redo()).not.toBeNull();
  expect(design(e)).toEqual(after);
  return before;
}

describe('image commands: one undo step each, with their event types', () => {
  it('filters toggle on and off, each a filter.event step', () => {
    const e = openEditor();
    runCommand(e.store, 'toggleFilter', { name: 'Sepia' });
    runCommand(e.store, 'toggleFilter', { name: 'Grayscale' });
    runCommand(e.store, 'toggleFilter', { name: 'Sepia' });
    expect(design(e).filters).toEqual({ Grayscale: true });
    expect(counts(e.store)).toEqual({ undo: 3, redo: 0 });
    expect(lastEvent(e)).toBe('filter.event');
    expect(roundTrip(e, 3).filters).toEqual({});
  });

  it('rotate and flips are rotate.event steps; two rotates undo one at a time', () => {
    const e = openEditor();
    runCommand(e.store, 'rotateImage');
    runCommand(e.store, 'rotateImage');
    runCommand(e.store, 'flipImage', { axis: 'x' });
    runCommand(e.store, 'flipImage', { axis: 'y' });
    expect([design(e).image_angle, design(e).flip_x, design(e).flip_y]).toEqual([180, true, true]);
    expect(counts(e.store)).toEqual({ undo: 4, redo: 0 });
    expect(e.store.getState().history.undo.map((h) => h.eventType)).toEqual(
      Array(4).fill('rotate.event'),
    );
    e.store.getState().undo();
    e.store.getState().undo();
    e.store.getState().undo();
    expect([design(e).image_angle, design(e).canvas_width]).toEqual([90, 750]);
    e.store.getState().undo();
    expect([design(e).image_angle, design(e).canvas_width]).toEqual([0, 1000]);
    expect(counts(e.store)).toEqual({ undo: 0, redo: 4 });
  });

  it('size counters merge while typing (imageSize.event); the unit is its own step', () => {
    const e = openEditor();
    runCommand(e.store, 'resizeCanvas', { changed: 'width', value: 900, locked: true });
    e.wait(200);
    runCommand(e.store, 'resizeCanvas', { changed: 'width', value: 800, locked: true });
    expect([design(e).canvas_width, design(e).canvas_height]).toEqual([800, 600]);
    expect(counts(e.store)).toEqual({ undo: 1, redo: 0 });
    expect(lastEvent(e)).toBe('imageSize.event');
    e.wait(1500);
    runCommand(e.store, 'resizeCanvas', { changed: 'height', value: 500, locked: false });
    runCommand(e.store, 'setSizeOption', { unit: 'mm' });
    expect(lastEvent(e)).toBe('sizeOption.event');
    expect(counts(e.store)).toEqual({ undo: 3, redo: 0 });
    const start = roundTrip(e, 3);
    expect([start.canvas_width, start.canvas_height, start.size_option]).toEqual([1000, 750, 'px']);
  });

  it('a crop and a new base image are one step each (crop.event, image.event)', () => {
    const e = openEditor();
    const image = { id: 'crop-1', key: 'files/crops/t/c.png', width: 940, height: 300 };
    runCommand(e.store, 'cropImage', {
      rect: { left: 30, top: 250, width: 940, height: 300 },
      image,
    });
    expect([design(e).canvas_width, design(e).image_id]).toEqual([940, 'crop-1']);
    expect(lastEvent(e)).toBe('crop.event');
    runCommand(e.store, 'replaceBaseImage', {
      image: { id: 'library-x', key: 'files/library/global/x.jpg', width: 2000, height: 1000 },
    });
    expect([design(e).canvas_width, design(e).canvas_height, design(e).image_id]).toEqual([
      940,
      470,
      'library-x',
    ]);
    expect(lastEvent(e)).toBe('image.event');
    expect(counts(e.store)).toEqual({ undo: 2, redo: 0 });
    const start = roundTrip(e, 2);
    expect([start.image_id, start.canvas_width, start.canvas_height]).toEqual([
      'library-autumn',
      1000,
      750,
    ]);
  });
});

describe('enhance (spec 000 §4: undo snapshot after 400 ms)', () => {
  it('joins changes less than 400 ms apart into one step, clamped to the ranges', () => {
    const e = openEditor();
    for (const value of [0.1, 0.2, 0.3, 0.45]) {
      runCommand(e.store, 'setEnhance', { name: 'Brightness', value });
      vi.advanceTimersByTime(ENHANCE_SNAPSHOT_MS - 1);
      e.wait(ENHANCE_SNAPSHOT_MS - 1);
    }
    runCommand(e.store, 'setEnhance', { name: 'Hue', value: 9 });
    expect(design(e).enhance).toEqual({ Brightness: 0.45, Hue: 2 });
    expect(counts(e.store)).toEqual({ undo: 1, redo: 0 });
    vi.advanceTimersByTime(ENHANCE_SNAPSHOT_MS);
    e.wait(ENHANCE_SNAPSHOT_MS);
    // After 400 ms of quiet the snapshot is taken: the next change is a new step.
    runCommand(e.store, 'setEnhance', { name: 'Brightness', value: -0.2 });
    expect(counts(e.store)).toEqual({ undo: 2, redo: 0 });
    expect(lastEvent(e)).toBe('enhance.event');
    e.store.getState().undo();
    expect(design(e).enhance).toEqual({ Brightness: 0.45, Hue: 2 });
    e.store.getState().undo();
    expect(design(e).enhance).toEqual({});
    expect(counts(e.store)).toEqual({ undo: 0, redo: 2 });
  });
});

describe('sticker commands (spec 000 §4, §5)', () => {
  const plain = {
    kind: 'image' as const,
    url: 'files/stickers/pack/a.png',
    stickerType: 'plain' as const,
    width: 512,
    height: 512,
  };

  it('add, transform, clone and delete are one stickers.event step each', () => {
    const e = openEditor();
    runCommand(e.store, 'addSticker', { source: plain });
    const id = design(e).graphics_data[0]!.uuid;
    expect(e.store.getState().selection).toEqual({ kind: 'sticker', id });
    runCommand(e.store, 'transformSticker', { id, left: 100, top: 50, scale: 0.3, angle: 45 });
    runCommand(e.store, 'cloneSticker', { id });
    const copy = design(e).graphics_data[1]!;
    expect([copy.left, copy.top, copy.scaleX, copy.angle]).toEqual([110, 60, 0.3, 45]);
    runCommand(e.store, 'deleteSticker', { id });
    expect(design(e).graphics_data.map((s) => s.uuid)).toEqual([copy.uuid]);
    expect(counts(e.store)).toEqual({ undo: 4, redo: 0 });
    expect(new Set(e.store.getState().history.undo.map((h) => h.eventType))).toEqual(
      new Set(['stickers.event']),
    );
    expect(roundTrip(e, 4).graphics_data).toEqual([]);
  });

  it('a canvas drag then scale of a sticker inside one gesture is one step', () => {
    const e = openEditor();
    runCommand(e.store, 'addSticker', { source: plain });
    const id = design(e).graphics_data[0]!.uuid;
    e.store.getState().beginGesture();
    for (let x = 0; x < 5; x++)
      runCommand(e.store, 'moveObject', {
        target: { kind: 'sticker', id },
        left: 100 + x,
        top: 40,
      });
    runCommand(e.store, 'transformSticker', { id, left: 104, top: 40, scale: 0.2, angle: 0 });
    e.store.getState().endGesture();
    expect(counts(e.store)).toEqual({ undo: 2, redo: 0 });
    e.store.getState().undo();
    expect(design(e).graphics_data[0]!.scaleX).toBe(0.1);
    expect(design(e).graphics_data[0]!.top).toBe(10);
  });

  it('dynamic stickers are not cloned; QR fields merge per field and redraw the code', () => {
    const e = openEditor();
    runCommand(e.store, 'addSticker', { source: { kind: 'dynamic', dynamicType: 'qrCode' } });
    const qr = design(e).graphics_data[0]!;
    expect(runCommand(e.store, 'cloneSticker', { id: qr.uuid })).toBe(true);
    expect(design(e).graphics_data).toHaveLength(1);
    runCommand(e.store, 'setStickerFallback', { id: qr.uuid, value: 'https://a.example' });
    e.wait(100);
    runCommand(e.store, 'setStickerFallback', { id: qr.uuid, value: 'https://ab.example' });
    runCommand(e.store, 'setQrColour', { id: qr.uuid, colour: '#FF0000' });
    runCommand(e.store, 'setQrMargin', { id: qr.uuid, margin: 35 });
    runCommand(e.store, 'setQrTransparent', { id: qr.uuid, transparent: true });
    const after = design(e).graphics_data[0]!;
    expect([
      after.dynamicStickerUrl,
      after.qrCodeColor,
      after.marginSize,
      after.isTransparent,
    ]).toEqual(['https://ab.example', '#ff0000', 20, true]);
    expect(after.newQrDataUrl).not.toBe(qr.newQrDataUrl);
    // add, fallback (typing merged), colour, margin, transparency
    expect(counts(e.store)).toEqual({ undo: 5, redo: 0 });
    expect(roundTrip(e, 5).graphics_data).toEqual([]);
  });

  it('refuses a bad fallback with the spec message and changes nothing', () => {
    const e = openEditor();
    runCommand(e.store, 'addSticker', { source: { kind: 'dynamic', dynamicType: 'gravatar' } });
    const g = design(e).graphics_data[0]!;
    expect(g.dynamicStickerParamName).toBe('Gravatar1');
    expect(() => runCommand(e.store, 'setStickerFallback', { id: g.uuid, value: 'nope' })).toThrow(
      new FallbackError('Invalid email'),
    );
    expect(counts(e.store)).toEqual({ undo: 1, redo: 0 });
    runCommand(e.store, 'addSticker', { source: { kind: 'dynamic', dynamicType: 'screenShot' } });
    const shot = design(e).graphics_data[1]!;
    runCommand(e.store, 'setScreenshotDevice', { id: shot.uuid, isMobile: true });
    expect(design(e).graphics_data[1]!.isMobile).toBe(true);
    expect(counts(e.store)).toEqual({ undo: 3, redo: 0 });
  });

  it('Delete asks "Delete Sticker?" for a selected sticker', () => {
    const e = openEditor();
    runCommand(e.store, 'addSticker', { source: plain });
    const id = design(e).graphics_data[0]!.uuid;
    expect(runCommand(e.store, 'requestDelete')).toBe(true);
    expect(e.store.getState().confirm).toEqual({ kind: 'deleteSticker', id });
  });
});
