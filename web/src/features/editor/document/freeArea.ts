/**
 * Where a new poll or weather sticker fits (docs/editor.md "Weather", its "Free space" item): the
 * biggest copy of its box, aspect kept, that lies inside the canvas's 5 px margins and overlaps
 * none of the design's texts and stickers. Pure; units: canvas px.
 */
import { EDGE_MARGIN_PX } from '#shared/scene/resolve.ts';
import type { Box, CanvasSize } from './snippets.ts';

/** The most texts and stickers looked at (a design holds far fewer; the search is cubic). */
const MAX_BOXES = 100;
/** The room kept between the new box and the objects around it, px. */
const FREE_AREA_GAP_PX = 8;

/**
 * The largest placement of a `size` box clear of `taken`, at most `maxScale` times its size.
 *
 * Every best placement can be slid up and left until it meets the canvas's margin or another
 * object, so only corners at the margin or just past an object's right or bottom edge are tried;
 * for each, the scale is limited by the canvas and by every object that lies ahead of it. Among
 * the corners that reach the best scale, the one nearest `preferred` (the usual new-sticker
 * spot) wins, and the box is centred in the room it was given along each axis.
 * @param taken the boxes of the design's texts and stickers (at most 100 are considered)
 * @param size the new sticker's intrinsic size, px
 * @param maxScale the scale it would start at on an empty canvas
 * @param preferred the top-left corner it would otherwise take, px
 * @returns the corner and scale, or null when no room is free (nothing fits at any size)
 */
export function largestFreePlacement(
  taken: readonly Box[],
  canvas: CanvasSize,
  size: { width: number; height: number },
  maxScale: number,
  preferred: { left: number; top: number },
): { left: number; top: number; scale: number } | null {
  const gap = FREE_AREA_GAP_PX;
  const boxes = taken
    .slice(0, MAX_BOXES)
    .filter((b) => b.width > 0 && b.height > 0)
    .map((b) => ({
      left: b.left - gap,
      top: b.top - gap,
      right: b.left + b.width + gap,
      bottom: b.top + b.height + gap,
    }));
  const right = canvas.width - EDGE_MARGIN_PX;
  const bottom = canvas.height - EDGE_MARGIN_PX;
  const lefts = [EDGE_MARGIN_PX, ...boxes.map((b) => b.right)].filter((x) => x < right);
  const tops = [EDGE_MARGIN_PX, ...boxes.map((b) => b.bottom)].filter((y) => y < bottom);
  const scaleAt = (left: number, top: number): number => {
    let scale = Math.min(maxScale, (right - left) / size.width, (bottom - top) / size.height);
    for (const b of boxes) {
      if (b.right <= left || b.bottom <= top) continue;
      // The box at `scale` meets b once it reaches past b's left and b's top edges.
      scale = Math.min(scale, Math.max((b.left - left) / size.width, (b.top - top) / size.height));
    }
    return Math.max(0, scale);
  };
  const corners = lefts.flatMap((left) => tops.map((top) => ({ left, top })));
  const scored = corners.map((c) => ({ ...c, scale: scaleAt(c.left, c.top) }));
  const best = Math.max(0, ...scored.map((c) => c.scale));
  if (best <= 0) return null;
  const distance = (c: { left: number; top: number }) =>
    Math.hypot(c.left - preferred.left, c.top - preferred.top);
  const chosen = scored
    .filter((c) => c.scale >= best - 1e-9)
    .reduce((a, b) => (distance(b) < distance(a) ? b : a));
  return { ...centred(chosen, boxes, { right, bottom }, size, best), scale: best };
}

/**
 * The corner moved right and down by half the room the box leaves free along each axis (up to
 * the next object or the canvas's margin), so it sits in the middle of its space.
 */
function centred(
  corner: { left: number; top: number },
  boxes: readonly { left: number; top: number; right: number; bottom: number }[],
  edge: { right: number; bottom: number },
  size: { width: number; height: number },
  scale: number,
): { left: number; top: number } {
  const width = size.width * scale;
  const height = size.height * scale;
  const rowBlockers = boxes.filter(
    (b) => b.top < corner.top + height && corner.top < b.bottom && b.left >= corner.left + width,
  );
  const roomX = Math.min(edge.right, ...rowBlockers.map((b) => b.left)) - corner.left - width;
  const left = corner.left + Math.max(0, roomX) / 2;
  const columnBlockers = boxes.filter(
    (b) => b.left < left + width && left < b.right && b.top >= corner.top + height,
  );
  const roomY = Math.min(edge.bottom, ...columnBlockers.map((b) => b.top)) - corner.top - height;
  return { left: Math.round(left), top: Math.round(corner.top + Math.max(0, roomY) / 2) };
}
