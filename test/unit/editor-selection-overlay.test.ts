/**
 * Where the selection overlay (docs/editor.md "Commands": "Selection overlay") floats: just above
 * the object as drawn, rotated about its top-left corner
 * (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and
 * restore" geometry), below it when there is no room above, and never outside the canvas.
 */
import { describe, expect, it } from 'vitest';
import { rotatedBounds } from '#shared/scene/geometry.ts';
import {
  OVERLAY_GAP_PX,
  overlayPosition,
} from '../../web/src/features/editor/components/selectionPlacement.ts';

const STAGE = { width: 1000, height: 750 };
const OVERLAY = { width: 240, height: 42 };

/** The overlay's rectangle for a box at zoom 1 on the 1000x750 canvas. */
function overlayRect(box: Parameters<typeof overlayPosition>[0], scale = 1) {
  const at = overlayPosition(box, scale, STAGE, OVERLAY);
  return { ...at, right: at.left + OVERLAY.width, bottom: at.top + OVERLAY.height };
}

describe('rotatedBounds', () => {
  it('is the box itself without rotation', () => {
    expect(rotatedBounds({ left: 100, top: 200, width: 300, height: 60, angle: 0 })).toEqual({
      left: 100,
      top: 200,
      right: 400,
      bottom: 260,
    });
  });

  it('turns clockwise around the top-left corner', () => {
    const quarter = rotatedBounds({ left: 400, top: 100, width: 300, height: 60, angle: 90 });
    expect(quarter.left).toBeCloseTo(340);
    expect(quarter.top).toBeCloseTo(100);
    expect(quarter.right).toBeCloseTo(400);
    expect(quarter.bottom).toBeCloseTo(400);
    const half = rotatedBounds({ left: 500, top: 300, width: 200, height: 50, angle: 180 });
    expect(half.left).toBeCloseTo(300);
    expect(half.top).toBeCloseTo(250);
    expect(half.right).toBeCloseTo(500);
    expect(half.bottom).toBeCloseTo(300);
  });
});

describe('overlayPosition', () => {
  it('sits the gap above an unrotated object, left-aligned, at the canvas zoom', () => {
    const at = overlayPosition(
      { left: 100, top: 200, width: 300, height: 60, angle: 0 },
      0.5,
      { width: 500, height: 375 },
      OVERLAY,
    );
    expect(at).toEqual({ left: 50, top: 100 - OVERLAY_GAP_PX - OVERLAY.height });
  });

  it('a snippet turned upside down: above what the user sees, not over the text', () => {
    // Drawn from (300, 250) to (500, 300): its stored top-left (500, 300) is its lower right.
    const rect = overlayRect({ left: 500, top: 300, width: 200, height: 50, angle: 180 });
    expect(rect.bottom).toBeCloseTo(250 - OVERLAY_GAP_PX);
    expect(rect.left).toBeCloseTo(300);
  });

  it('a quarter turn: left-aligned with the visible text, which hangs left of its corner', () => {
    const rect = overlayRect({ left: 400, top: 100, width: 300, height: 60, angle: 90 });
    expect(rect.left).toBeCloseTo(340);
    expect(rect.top).toBeCloseTo(100 - OVERLAY_GAP_PX - OVERLAY.height);
  });

  it('never overlaps the visible object when there is room above, at any angle', () => {
    for (let angle = 0; angle < 360; angle += 15) {
      const box = { left: 500, top: 380, width: 260, height: 70, angle };
      const bounds = rotatedBounds(box);
      const rect = overlayRect(box);
      expect(rect.bottom, `angle ${angle}`).toBeLessThanOrEqual(bounds.top - OVERLAY_GAP_PX + 1e-9);
      expect(rect.left, `angle ${angle}`).toBeCloseTo(Math.min(bounds.left, 1000 - 240));
    }
  });

  it('goes below when the rotated object reaches the top', () => {
    // A 45° turn lifts nothing above the corner, but the corner is at 20 px: no room above.
    const box = { left: 200, top: 20, width: 200, height: 40, angle: 45 };
    const bounds = rotatedBounds(box);
    expect(overlayRect(box).top).toBeCloseTo(bounds.bottom + OVERLAY_GAP_PX);
    // Turned the other way, the text rises above its corner: still below, not off the canvas.
    const lifted = { left: 200, top: 150, width: 200, height: 40, angle: -45 };
    expect(rotatedBounds(lifted).top).toBeLessThan(20);
    expect(overlayRect(lifted).top).toBeCloseTo(rotatedBounds(lifted).bottom + OVERLAY_GAP_PX);
  });

  it('stays inside the canvas: at the right edge, and over an object that fills it', () => {
    const right = overlayRect({ left: 900, top: 300, width: 95, height: 40, angle: 0 });
    expect(right.right).toBe(1000);
    const full = overlayRect({ left: 5, top: 5, width: 990, height: 740, angle: 0 });
    expect(full.top).toBe(0);
    expect(full.left).toBe(5);
    // Rotated far past the left edge: the overlay starts at the canvas's edge.
    const past = overlayRect({ left: 20, top: 400, width: 300, height: 60, angle: 90 });
    expect(past.left).toBe(0);
  });
});
