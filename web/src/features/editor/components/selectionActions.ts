/**
 * What the selection overlay offers for the selected object (docs/editor.md "Commands": "Selection
 * overlay": "Text snippets: clone, delete, wrap toggle. Regular stickers: clone and delete. Dynamic
 * stickers: delete only."), and the box it floats next to. Pure: SelectionOverlay.tsx draws it.
 */
import type { Sticker, TextSnippet } from '#shared/design.ts';
import { stickerBox } from '#shared/scene/resolve.ts';
import { estimatedHeight } from '../document/clamps.ts';
import type { RotatedBox } from '#shared/scene/geometry.ts';
import { rotationHandleSide } from './selectionPlacement.ts';

/** A control of the overlay. */
export type OverlayAction = 'clone' | 'wrap' | 'delete';

/** The selected object the overlay is for. */
export type OverlayTarget =
  { kind: 'snippet'; snippet: TextSnippet } | { kind: 'sticker'; sticker: Sticker };

/** The overlay's controls for `target`, in their order on screen (docs/editor.md "Commands"). */
export function overlayActions(target: OverlayTarget): OverlayAction[] {
  if (target.kind === 'snippet') return ['clone', 'wrap', 'delete'];
  return target.sticker.stickerType === 'dynamicSticker' ? ['delete'] : ['clone', 'delete'];
}

/**
 * The object's box as drawn: a snippet's width and estimated height (its text's lines), a
 * sticker's intrinsic size times its scale; canvas px, angle in degrees
 * (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and
 * restore").
 */
export function overlayBox(target: OverlayTarget): RotatedBox {
  if (target.kind === 'snippet') {
    const { left, top, width, angle } = target.snippet;
    return { left, top, width, height: estimatedHeight(target.snippet), angle };
  }
  return stickerBox(target.sticker);
}

/**
 * The side the overlay is tried on first: above a snippet; for a sticker, the side away from
 * its rotation handle (`rotationHandleSide`), so the handle stays reachable.
 */
export function overlaySide(target: OverlayTarget): 'above' | 'below' {
  if (target.kind === 'snippet') return 'above';
  return rotationHandleSide(target.sticker.angle) === 'above' ? 'below' : 'above';
}
