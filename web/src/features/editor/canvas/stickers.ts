/**
 * The sticker side of the fabric view (canvas/view.ts): the controls a sticker gets and the
 * command a finished scale or rotate gesture runs (docs/editor.md "Editing rules": "moving or
 * scaling objects is clamped inside the canvas"; "a QR code cannot be scaled below 60 by 60").
 */
import type { FabricObject } from 'fabric';
import { runCommand } from '../commands.ts';
import type { EditorStore } from '../store/index.ts';

/** A sticker scales from its corners only (uniformly) and rotates by its top handle. */
export const STICKER_CONTROLS = {
  lockScalingFlip: true,
  lockSkewingX: true,
  lockSkewingY: true,
  lockUniScaling: true,
} as const;

/**
 * Records a finished scale or rotate gesture of a sticker: its new corner, scale (drawn width
 * over the sticker's intrinsic width) and angle go through `transformSticker`, which applies
 * the clamps; the view then redraws the sticker from the document.
 */
export function stickerModified(store: EditorStore, id: string, object: FabricObject): void {
  const sticker = store.getState().design?.graphics_data.find((s) => s.uuid === id);
  if (!sticker) return;
  runCommand(store, 'transformSticker', {
    id,
    left: object.left,
    top: object.top,
    scale: object.getScaledWidth() / sticker.width,
    angle: object.angle,
  });
}
