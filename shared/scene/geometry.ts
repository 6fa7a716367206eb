/**
 * Box geometry the editor and the render share. Objects rotate around their top-left corner
 * (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and
 * restore" geometry; shared/scene/draw.ts draws text and stickers with `originX: 'left'`,
 * `originY: 'top'`), clockwise for a positive angle in degrees, as fabric does on a canvas whose
 * y axis points down. Pure: no fabric, no DOM.
 */

/** An object's box on the canvas: canvas px, `angle` in degrees around the top-left corner. */
export interface RotatedBox {
  left: number;
  top: number;
  width: number;
  height: number;
  angle: number;
}

/** An axis-aligned rectangle, px. */
export interface Bounds {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * The axis-aligned bounding box of a box rotated by `angle` around its top-left corner
 * (test/unit/editor-selection-overlay.test.ts).
 * @returns canvas px.
 */
export function rotatedBounds(box: RotatedBox): Bounds {
  const radians = (box.angle * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  const corners = [
    [0, 0],
    [box.width, 0],
    [0, box.height],
    [box.width, box.height],
  ].map(([x, y]) => [box.left + x! * cos - y! * sin, box.top + x! * sin + y! * cos] as const);
  const xs = corners.map(([x]) => x);
  const ys = corners.map(([, y]) => y);
  return {
    left: Math.min(...xs),
    top: Math.min(...ys),
    right: Math.max(...xs),
    bottom: Math.max(...ys),
  };
}
