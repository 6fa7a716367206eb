/**
 * What the selection overlay offers (docs/editor.md "Commands": "Selection overlay: Text snippets:
 * clone, delete, wrap toggle. Regular stickers: clone and delete. Dynamic stickers: delete only.")
 * and where it floats next to a sticker: beside the sticker as drawn (its scale and rotation), on
 * the side away from its rotation handle.
 */
import { describe, expect, it } from 'vitest';
import { StickerSchema, type Sticker } from '../../shared/design.ts';
import {
  overlayActions,
  overlayBox,
  overlaySide,
} from '../../web/src/features/editor/components/selectionActions.ts';
import {
  OVERLAY_GAP_PX,
  overlayPosition,
  rotationHandleSide,
} from '../../web/src/features/editor/components/selectionPlacement.ts';
import { demoDocument } from '../support/editor.ts';

const sticker = (fields: Partial<Sticker>): Sticker =>
  StickerSchema.parse({ uuid: 's-1', left: 300, top: 200, ...fields });

describe('the overlay’s controls', () => {
  it('a text snippet: Clone, Wrap, Delete', () => {
    const snippet = demoDocument().text_snippets[0]!;
    expect(overlayActions({ kind: 'snippet', snippet })).toEqual(['clone', 'wrap', 'delete']);
  });

  it.each(['plain', 'upload'] as const)('a regular (%s) sticker: Clone and Delete', (type) => {
    expect(overlayActions({ kind: 'sticker', sticker: sticker({ stickerType: type }) })).toEqual([
      'clone',
      'delete',
    ]);
  });

  it.each(['qrCode', 'gravatar', 'hostedImage', 'screenShot'] as const)(
    'a dynamic sticker (%s): Delete only',
    (kind) => {
      const dynamic = sticker({ stickerType: 'dynamicSticker', dynamicStickerType: kind });
      expect(overlayActions({ kind: 'sticker', sticker: dynamic })).toEqual(['delete']);
    },
  );
});

describe('the overlay next to a sticker', () => {
  it('measures the sticker as drawn: its size times its scale', () => {
    const box = overlayBox({
      kind: 'sticker',
      sticker: sticker({ width: 512, height: 256, scaleX: 0.5, scaleY: 0.25, angle: 30 }),
    });
    expect(box).toEqual({ left: 300, top: 200, width: 256, height: 64, angle: 30 });
  });

  it('goes on the side away from the rotation handle', () => {
    expect(rotationHandleSide(0)).toBe('above');
    expect(rotationHandleSide(45)).toBe('above');
    expect(rotationHandleSide(180)).toBe('below');
    expect(rotationHandleSide(300)).toBe('above');
    const upright = sticker({ angle: 0 });
    const upsideDown = sticker({ angle: 180 });
    expect(overlaySide({ kind: 'sticker', sticker: upright })).toBe('below');
    expect(overlaySide({ kind: 'sticker', sticker: upsideDown })).toBe('above');
    const snippet = demoDocument().text_snippets[0]!;
    expect(overlaySide({ kind: 'snippet', snippet })).toBe('above');
  });

  it('below an upright sticker, above it when the canvas ends below', () => {
    const stage = { width: 1000, height: 750 };
    const overlay = { width: 160, height: 42 };
    const small = sticker({ width: 512, height: 512, scaleX: 0.2, scaleY: 0.2 }); // 102.4 px
    /** Where the overlay goes next to `s`, tried below first (an upright sticker), zoom 1. */
    const placed = (s: Sticker) =>
      overlayPosition(
        overlayBox({ kind: 'sticker', sticker: s }),
        1,
        stage,
        overlay,
        OVERLAY_GAP_PX,
        'below',
      );
    const at = placed(small);
    expect(at).toEqual({ left: 300, top: 200 + 102.4 + OVERLAY_GAP_PX });
    const low = sticker({ top: 700, scaleX: 0.05, scaleY: 0.05 });
    const lowAt = placed(low);
    expect(lowAt.top).toBe(700 - OVERLAY_GAP_PX - 42);
  });
});
