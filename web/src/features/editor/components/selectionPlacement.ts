/**
 * Where the selection overlay (docs/editor.md "Commands": "Selection overlay": clone, delete, wrap)
 * floats over the canvas: just above the object as the user sees it, that is above the axis-aligned
 * box of its rotated corners, below it when there is no room above, and always inside the canvas.
 * Pure geometry, no DOM; rotation as shared/scene/geometry.ts describes it.
 */
import { rotatedBounds, type RotatedBox } from '#shared/scene/geometry.ts';

/** The space between the overlay and the object's box, screen px (clear of the corner handles). */
export const OVERLAY_GAP_PX = 12;

const clamp = (value: number, low: number, high: number) =>
  Math.max(low, Math.min(value, Math.max(low, high)));

/**
 * The overlay's top-left corner, screen px from the canvas's top-left corner: left-aligned with
 * the object's visible (rotated) bounds, `gap` above them when the overlay fits there, else
 * `gap` below them, and in every case clamped inside the canvas on screen (an object that fills
 * the canvas gets the overlay over its top edge rather than outside the canvas).
 * @param box the object, canvas px.
 * @param scale screen px per canvas px (the canvas is zoomed to fit).
 * @param stage the canvas's size on screen, px.
 * @param overlay the overlay's size, px.
 * @param prefer the side tried first; the other one when the overlay does not fit there.
 */
export function overlayPosition(
  box: RotatedBox,
  scale: number,
  stage: { width: number; height: number },
  overlay: { width: number; height: number },
  gap = OVERLAY_GAP_PX,
  prefer: 'above' | 'below' = 'above',
): { left: number; top: number } {
  const bounds = rotatedBounds(box);
  const top = bounds.top * scale;
  const bottom = bounds.bottom * scale;
  const above = top - gap - overlay.height;
  const below = bottom + gap;
  const fitsAbove = above >= 0;
  const fitsBelow = below + overlay.height <= stage.height;
  const wanted =
    prefer === 'above'
      ? fitsAbove || !fitsBelow
        ? above
        : below
      : fitsBelow || !fitsAbove
        ? below
        : above;
  return {
    left: clamp(bounds.left * scale, 0, stage.width - overlay.width),
    top: clamp(wanted, 0, stage.height - overlay.height),
  };
}

/**
 * The side of a sticker its rotation handle is on: fabric draws it 40 px beyond the middle of
 * the box's top edge, which turns with the sticker (canvas/view.ts keeps a sticker's `mtr`
 * control; text snippets have none). The overlay goes on the other side so it never covers the
 * handle.
 * @param angle degrees, clockwise.
 * @returns 'above' while the handle points up (−90° < angle < 90°), else 'below'.
 */
export function rotationHandleSide(angle: number): 'above' | 'below' {
  return Math.cos((angle * Math.PI) / 180) > 0 ? 'above' : 'below';
}
