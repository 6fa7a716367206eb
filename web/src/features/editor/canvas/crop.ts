/**
 * The crop's image (docs/editor.md "Commands": "Crop", docs/editor.md "Server sync": "Cropped
 * image: POST saveCroppedImage, multipart with image (png)"): the base photo drawn as the canvas
 * shows it (turned, flipped, covering the canvas, or for a legacy design 500 px wide at the top
 * left on white, through shared/scene `drawBaseImage`), without filters and enhancements (they stay
 * on the design's data and apply to the cropped photo), cut to the crop area as a PNG. The cropped
 * photo then covers the new canvas (document/image.ts `croppedDocument`), so what the crop kept is
 * what the render draws.
 */
import { StaticCanvas } from 'fabric';
import type { DesignDocument } from '#shared/design.ts';
import { drawBaseImage } from '#shared/scene/draw.ts';
import { cropArea } from '../document/image.ts';
import type { Box } from '../document/snippets.ts';

/** The widest cropped PNG, px: keeps the upload small and under the server's pixel limit. */
const MAX_CROP_OUTPUT_PX = 2048;

/**
 * The PNG of a crop of the design's photo.
 * @param src where the browser loads the photo from (same origin, so the canvas is readable).
 * @param rect the crop rectangle, canvas px.
 * @returns the PNG; its size is the crop area's times the photo's own resolution (at most
 *   2048 px wide).
 * @throws Error when the photo cannot be loaded or read.
 */
export async function croppedPng(design: DesignDocument, src: string, rect: Box): Promise<Blob> {
  const canvas = { width: design.canvas_width, height: design.canvas_height };
  const area = cropArea(rect, canvas);
  const turned = Math.round(design.image_angle / 90) % 2 === 1;
  const legacyWidth = design.legacy_base_image_width;
  // The photo's own px per canvas px: a legacy photo is drawn `legacyWidth` px wide before it
  // turns (shared/scene/resolve.ts `placeBasePhoto`), a later one covers the canvas.
  const photoScale =
    legacyWidth !== null
      ? (design.image_width ?? legacyWidth) / legacyWidth
      : ((turned ? design.image_height : design.image_width) ?? canvas.width) / canvas.width;
  const multiplier = Math.max(1, Math.min(photoScale, MAX_CROP_OUTPUT_PX / area.width));
  const element = document.createElement('canvas');
  const staticCanvas = new StaticCanvas(element, { renderOnAddRemove: false });
  try {
    staticCanvas.setDimensions(canvas);
    await drawBaseImage(staticCanvas, {
      src,
      width: canvas.width,
      height: canvas.height,
      angle: design.image_angle,
      flipX: design.flip_x,
      flipY: design.flip_y,
      filters: {},
      enhance: {},
      legacyWidth,
    });
    // toBlob, not a data URL fetched back: the SPA's CSP keeps fetch to its own origin.
    const cut = staticCanvas.toCanvasElement(multiplier, area);
    return await new Promise<Blob>((resolve, reject) =>
      cut.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('No PNG'))), 'image/png'),
    );
  } finally {
    void staticCanvas.dispose();
  }
}
