/**
 * QR code changes saved through the spec's call (docs/editor.md "Server sync" `PUT
 * /api/pic-snippet/{id}/qrCode`; docs/editor.md "Constants": "QR colour 300 ms; margin/transparency
 * 200 ms"): a change that touches only one QR code's colour, margin, transparency or value goes
 * through it, in the sync's one queue with the design's version, so the full save and the QR call
 * never race into 409s; the answer's version is the editor's next; an undo of a QR change is saved
 * the same way; anything else is a full save.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DesignDocument, Sticker } from '#shared/design.ts';
import { runCommand } from '../../web/src/features/editor/commands.ts';
import {
  qrCodeChange,
  startSync,
  type DesignServer,
  type SaveRequest,
} from '../../web/src/features/editor/sync.ts';
import { DEMO_META, openEditor } from '../support/editor.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** The demo design with a QR code sticker on it (as the Stickers panel adds one). */
function designWithQr(): { document: DesignDocument; qr: Sticker } {
  const { store } = openEditor();
  runCommand(store, 'addSticker', { source: { kind: 'dynamic', dynamicType: 'qrCode' } });
  const document = structuredClone(store.getState().design!);
  return { document, qr: document.graphics_data[0]! };
}

/**
 * A fake design API as functions/designs/handler.ts answers: a full save replaces the document,
 * the QR call sets the sticker's fields; both check and bump the version.
 */
function fakeServer(document: DesignDocument) {
  const stored = { version: 1, document: structuredClone(document) };
  const calls: string[] = [];
  const server: DesignServer = {
    save: async (_id, request: SaveRequest) => {
      const kind = request.qrCode ? 'qrCode' : 'full';
      calls.push(`${kind} v${request.version}`);
      if (request.version !== stored.version)
        throw Object.assign(new Error('This design was changed elsewhere.'), { status: 409 });
      if (request.qrCode) {
        const { stickerId, fields } = request.qrCode;
        const sticker = stored.document.graphics_data.find((s) => s.uuid === stickerId);
        if (!sticker) throw new Error('The selected sticker is invalid.');
        Object.assign(sticker, structuredClone(fields));
      } else stored.document = structuredClone(request.document);
      stored.version++;
      return { version: stored.version, title: request.title };
    },
    load: async () => ({
      meta: { ...DEMO_META, version: stored.version },
      document: structuredClone(stored.document),
    }),
  };
  return { server, stored, calls };
}

const settle = (ms = 0) => vi.advanceTimersByTimeAsync(ms);

describe('qrCodeChange', () => {
  it('is the changed QR fields when that is all that changed', () => {
    const { document, qr } = designWithQr();
    const { store } = openEditor(document);
    runCommand(store, 'setQrColour', { id: qr.uuid, colour: '#FF0000' });
    const change = qrCodeChange(document, store.getState().design!);
    expect(change?.stickerId).toBe(qr.uuid);
    expect(Object.keys(change!.fields).sort()).toEqual(['newQrDataUrl', 'qrCodeColor']);
    expect(change!.fields.qrCodeColor).toBe('#ff0000');
    expect(change!.fields.newQrDataUrl).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(change!.fields.newQrDataUrl).not.toBe(qr.newQrDataUrl);
  });

  it('is null when anything else changed too, or nothing did', () => {
    const { document, qr } = designWithQr();
    const { store } = openEditor(document);
    expect(qrCodeChange(document, store.getState().design!)).toBeNull();
    runCommand(store, 'setQrMargin', { id: qr.uuid, margin: 4 });
    const marginOnly = store.getState().design!;
    expect(qrCodeChange(document, marginOnly)?.fields.marginSize).toBe(4);
    runCommand(store, 'transformSticker', {
      id: qr.uuid,
      left: qr.left + 30,
      top: qr.top,
      scale: qr.scaleX,
      angle: 0,
    });
    expect(qrCodeChange(document, store.getState().design!)).toBeNull(); // moved as well
    runCommand(store, 'setSnippetText', { id: 'snippet-hello', text: 'Hi' });
    expect(qrCodeChange(marginOnly, store.getState().design!)).toBeNull();
    // A sticker that is not a QR code never goes through the QR call.
    const other = structuredClone(document);
    other.graphics_data[0] = { ...other.graphics_data[0]!, dynamicStickerType: 'gravatar' };
    const changed = structuredClone(other);
    changed.graphics_data[0]!.qrCodeColor = '#00ff00';
    expect(qrCodeChange(other, changed)).toBeNull();
  });
});

describe('saving a QR change through PUT /api/pic-snippet/{id}/qrCode', () => {
  it('saves at once through the QR call, takes the new version, and saves its undo the same way', async () => {
    const { document, qr } = designWithQr();
    const { store, wait } = openEditor(document);
    const api = fakeServer(document);
    startSync(store, api.server);

    // The toolbar has waited its 300 ms already: the save starts at once.
    runCommand(store, 'setQrColour', { id: qr.uuid, colour: '#ff0000' });
    await settle(0);
    expect(api.calls).toEqual(['qrCode v1']);
    expect(store.getState().meta!.version).toBe(2);
    expect(store.getState().saveStatus).toBe('saved');
    expect(api.stored.document).toEqual(store.getState().design);

    wait(2000);
    runCommand(store, 'setQrMargin', { id: qr.uuid, margin: 6 });
    await settle(0);
    wait(2000);
    runCommand(store, 'setQrTransparent', { id: qr.uuid, transparent: true });
    await settle(0);
    expect(api.calls).toEqual(['qrCode v1', 'qrCode v2', 'qrCode v3']);

    // Undo: the old transparency goes back through the same call, with the version it answered.
    runCommand(store, 'undo');
    await settle(0);
    runCommand(store, 'undo');
    await settle(0);
    expect(api.calls).toEqual(['qrCode v1', 'qrCode v2', 'qrCode v3', 'qrCode v4', 'qrCode v5']);
    expect(api.stored.document.graphics_data[0]).toMatchObject({
      qrCodeColor: '#ff0000',
      marginSize: 0,
      isTransparent: false,
    });
    expect(api.stored.document).toEqual(store.getState().design);
    expect(store.getState().meta!.version).toBe(api.stored.version);
    expect(store.getState().notice).toBeNull(); // no 409 on the way
  });

  it('a typed QR value waits the usual 1000 ms; other changes are full saves', async () => {
    const { document, qr } = designWithQr();
    const { store, wait } = openEditor(document);
    const api = fakeServer(document);
    startSync(store, api.server);
    runCommand(store, 'setStickerFallback', { id: qr.uuid, value: 'Scan' });
    wait(100);
    runCommand(store, 'setStickerFallback', { id: qr.uuid, value: 'Scan me' });
    await settle(999);
    expect(api.calls).toEqual([]);
    await settle(1);
    expect(api.calls).toEqual(['qrCode v1']);
    expect(api.stored.document.graphics_data[0]!.dynamicStickerUrl).toBe('Scan me');

    // A colour change together with a move: one full save after the pause.
    runCommand(store, 'setQrColour', { id: qr.uuid, colour: '#0000ff' });
    runCommand(store, 'nudge', { dx: 0, dy: 0 }); // nothing selected: no change
    runCommand(store, 'setSnippetText', { id: 'snippet-hello', text: 'Hi' });
    await settle(1000);
    expect(api.calls).toEqual(['qrCode v1', 'full v2']);
    expect(api.stored.document).toEqual(store.getState().design);
  });

  it('a QR change racing a change saved elsewhere: one 409, re-applied, then saved', async () => {
    const { document, qr } = designWithQr();
    const { store } = openEditor(document);
    const api = fakeServer(document);
    startSync(store, api.server);
    // Another editor changes the snippet's text meanwhile.
    api.stored.document.text_snippets[0]!.text = 'Changed elsewhere';
    api.stored.version++;
    runCommand(store, 'setQrColour', { id: qr.uuid, colour: '#ff0000' });
    await settle(0);
    await settle(0);
    // One refused QR call, then one save of the re-applied document with the newer version (a
    // full save: the merge passes the document through the restore path, which may normalise
    // more than the QR code).
    expect(api.calls).toHaveLength(2);
    expect(api.calls[0]).toBe('qrCode v1');
    expect(api.calls[1]).toMatch(/ v2$/);
    expect(api.stored.document.graphics_data[0]!.qrCodeColor).toBe('#ff0000');
    expect(api.stored.document.text_snippets[0]!.text).toBe('Changed elsewhere');
    expect(store.getState().design).toEqual(api.stored.document);
    expect(store.getState().meta!.version).toBe(3);
  });
});
