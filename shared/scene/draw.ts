/**
 * Draws resolved text layers with fabric.js: the one drawing path for the render page and the
 * editor (docs/decisions.md "Render slice", "Scene model shared with the editor"). Browser-only
 * (needs a canvas).
 */
import { FabricImage, Textbox, type StaticCanvas } from 'fabric';
import {
  EDGE_MARGIN_PX,
  placeBasePhoto,
  type BaseImagePlacement,
  type ResolvedImageLayer,
  type ResolvedScene,
  type ResolvedTextLayer,
} from './resolve.ts';
import { pixelateBlockSize, pixelateBlocks } from '../effects.ts';
import { fontFamilyList } from './fonts.ts';
import { breakLines, type LineLayout } from './line-break.ts';
import { fabricFilters, stickerColourFilters } from './filters.ts';
import type { WatermarkLayer } from './watermark.ts';

/**
 * The base photo of a design as drawn (docs/editor.md "Architecture" image tools): the image (a URL
 * or data URL), rotated by a multiple of 90°, flipped, filtered and enhanced, covering the canvas
 * (or, for a legacy design, 500 px wide at the top left: docs/editor.md "Constants",
 * `placeBasePhoto`).
 */
export interface BaseImageLayer {
  src: string;
  /** Canvas size, px. */
  width: number;
  height: number;
  angle: number;
  flipX: boolean;
  flipY: boolean;
  filters: Record<string, boolean>;
  enhance: Record<string, number>;
  /** The document's `legacy_base_image_width` (500 px) or null/absent: covers the canvas. */
  legacyWidth?: number | null;
}

/**
 * Draws the base photo: placed by `placeBasePhoto` (shared/scene/resolve.ts) after rotation,
 * flipped, with the filter chain applied (shared/scene/filters.ts).
 */
export async function drawBaseImage(canvas: StaticCanvas, base: BaseImageLayer): Promise<void> {
  canvas.clear();
  canvas.backgroundColor = '#ffffff';
  placeBaseImage(canvas, base, await FabricImage.fromURL(base.src));
}

/**
 * The photo resampled to its placement's fitted size (centre crop for cover), as a canvas
 * element: filters that work in px (Pixelate) then act in canvas px, the same in the editor
 * (full-size photo) and in the render page (photo pre-fitted by sharp to that size, so this is
 * a 1:1 copy there). docs/decisions.md "Pixelate and legacy base-image scaling".
 */
function fittedPhoto(image: FabricImage, placement: BaseImagePlacement): HTMLCanvasElement {
  const { width, height, crop } = placement.fit;
  const out = document.createElement('canvas');
  out.width = width;
  out.height = height;
  const ctx = out.getContext('2d')!;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(
    image.getElement(),
    crop.left,
    crop.top,
    crop.width,
    crop.height,
    0,
    0,
    width,
    height,
  );
  return out;
}

/**
 * Pixelates a filtered photo in place (`pixelateBlocks`): the canvas element fabric draws (our
 * fitted copy, or fabric's filter result canvas), after every other filter.
 */
function pixelateElement(element: HTMLCanvasElement, block: number): void {
  const ctx = element.getContext('2d', { willReadFrequently: true })!;
  const pixels = ctx.getImageData(0, 0, element.width, element.height);
  pixelateBlocks(pixels.data, pixels.width, pixels.height, block);
  ctx.putImageData(pixels, 0, 0);
}

/**
 * {@link drawBaseImage} with the photo already loaded (`image`, e.g. from an element the editor
 * decoded while the design loaded): draws at once, without waiting for a load. `base.src` is
 * not read. With a pixelate block size (docs/editor.md "Editing rules") the photo is first
 * resampled to its fitted size so that blocks are `enhance.Pixelate` canvas px on both sides.
 */
export function placeBaseImage(canvas: StaticCanvas, base: BaseImageLayer, image: FabricImage) {
  canvas.clear();
  canvas.backgroundColor = '#ffffff';
  const quarter = ((Math.round(base.angle / 90) % 4) + 4) % 4;
  const placement = placeBasePhoto(
    { width: image.width || 1, height: image.height || 1 },
    { width: base.width, height: base.height },
    base.angle,
    base.legacyWidth ?? null,
  );
  const block = pixelateBlockSize(base.enhance.Pixelate);
  let drawn = image;
  let scale = placement.fit.width / placement.fit.crop.width;
  if (block !== null) {
    drawn = new FabricImage(fittedPhoto(image, placement));
    scale = 1;
  }
  drawn.filters = fabricFilters(base.filters, base.enhance);
  drawn.applyFilters();
  if (block !== null) pixelateElement(drawn.getElement() as HTMLCanvasElement, block);
  drawn.set({
    originX: 'center',
    originY: 'center',
    left: placement.left,
    top: placement.top,
    angle: quarter * 90,
    flipX: base.flipX,
    flipY: base.flipY,
    scaleX: scale,
    scaleY: scale,
    objectCaching: false,
  });
  canvas.add(drawn);
  canvas.renderAll();
}

/**
 * Builds the fabric Textbox for a layer and fits it (docs/editor.md "Text fitting", "Editing
 * rules"; docs/decisions.md "Render slice"). The box is the snippet's width (at most the canvas
 * width less the margins) from its top down to `layer.maxBottom` (the first object below it,
 * shared/scene/resolve.ts) or the canvas's bottom margin, whichever is higher up:
 * - lines break at spaces, then after hyphens, then between CJK characters
 *   (shared/scene/line-break.ts `breakLines`), and the broken lines are what the Textbox draws;
 * - the size shrinks from the font size down to the minimum font size (binary search on whole
 *   px) until every word fits the width and every line the height;
 * - only at the minimum size, and only when it still does not fit, a word wider than the box
 *   is cut between graphemes and lines the box cannot hold are left out, the last one kept
 *   ending in `…`: nothing is drawn outside the box;
 * - the box stays at least 5 px inside every edge, moved up only when even one line at the
 *   minimum size would run off the bottom.
 */
export function fitTextLayer(
  layer: ResolvedTextLayer,
  canvasWidth: number,
  canvasHeight: number,
): Textbox {
  const maxWidth = Math.max(1, Math.min(layer.width, canvasWidth - 2 * EDGE_MARGIN_PX));
  const left = Math.min(
    Math.max(layer.left, EDGE_MARGIN_PX),
    canvasWidth - EDGE_MARGIN_PX - maxWidth,
  );
  const top = Math.max(layer.top, EDGE_MARGIN_PX);
  const floor = Math.min(layer.maxBottom ?? Infinity, canvasHeight - EDGE_MARGIN_PX);
  const availableHeight = floor - top;
  const box = new Textbox(layer.text, {
    left,
    top,
    originX: 'left',
    originY: 'top',
    width: maxWidth,
    fontFamily: fontFamilyList(layer.fontFamily),
    fontWeight: layer.fontWeight,
    fontStyle: layer.fontStyle,
    underline: layer.underline,
    textAlign: layer.textAlign,
    angle: layer.angle,
    fill: layer.fill,
    stroke: layer.stroke ?? undefined,
    strokeWidth: layer.stroke ? layer.strokeWidth : 0,
    paintFirst: 'stroke',
    fontSize: layer.fontSize,
    objectCaching: false,
  });
  // Measured with fabric's own glyph widths at the size being tried (set without re-wrapping).
  const measure = (text: string): number => box._measureWord(box.graphemeSplit(text), 0, 0);
  const layoutAt = (size: number, inWord: boolean): LineLayout => {
    box.fontSize = size;
    // n lines are (n - 1) line heights plus one font height tall (fabric's `calcTextHeight`).
    const line = size * box._fontSizeMult;
    const maxLines = 1 + Math.floor((availableHeight / line - 1) / box.lineHeight);
    return breakLines(layer.text, { width: maxWidth, maxLines, inWord }, measure);
  };
  const max = Math.max(1, Math.round(layer.fontSize));
  const min = Math.max(1, Math.min(max, Math.round(layer.minFontSize)));
  let size = max;
  let layout = layoutAt(max, false);
  if (!layout.fits) {
    let lo = min;
    let hi = max - 1;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (layoutAt(mid, false).fits) lo = mid;
      else hi = mid - 1;
    }
    size = lo;
    layout = layoutAt(lo, false);
    if (!layout.fits) {
      size = min;
      layout = layoutAt(min, true);
    }
  }
  box.set({ text: layout.lines.join('\n'), fontSize: size, width: maxWidth });
  box.initDimensions();
  const bottom = box.top + box.height;
  if (bottom > canvasHeight - EDGE_MARGIN_PX) {
    box.set({ top: Math.max(EDGE_MARGIN_PX, canvasHeight - EDGE_MARGIN_PX - box.height) });
  }
  box.setCoords();
  return box;
}

/**
 * Loads a sticker image and places it: scaled to its drawn size, rotated around its top-left
 * corner (docs/decisions.md "The design document: versions and restore" geometry), its colour
 * blended on in mode screen (docs/editor.md "Sticker colour").
 */
export async function imageLayer(layer: ResolvedImageLayer): Promise<FabricImage> {
  const image = await FabricImage.fromURL(layer.src);
  image.set({
    left: layer.left,
    top: layer.top,
    originX: 'left',
    originY: 'top',
    angle: layer.angle,
    scaleX: layer.width / (image.width || 1),
    scaleY: layer.height / (image.height || 1),
    objectCaching: false,
  });
  if (layer.colour !== undefined) {
    image.filters = stickerColourFilters(layer.colour);
    image.applyFilters();
  }
  image.setCoords();
  return image;
}

/**
 * A watermark (shared/scene/watermark.ts; docs/decisions.md "Watermark") placed as a sticker at
 * its box, px, unturned, at its opacity, not selectable: the render page and the editor's
 * overlay draw it with this.
 * @throws the image's load error.
 */
export async function watermarkObject(layer: WatermarkLayer): Promise<FabricImage> {
  const image = await imageLayer({ ...layer, id: layer.kind, angle: 0 });
  image.set({ opacity: layer.opacity, selectable: false, evented: false });
  return image;
}

/**
 * Clears the canvas to transparent and draws the stickers, then every non-empty text layer, then
 * the watermarks (`watermarkObject`, as the editor's overlay draws them).
 */
export async function drawScene(canvas: StaticCanvas, scene: ResolvedScene): Promise<void> {
  canvas.clear();
  canvas.backgroundColor = '';
  const [images, watermarks] = await Promise.all([
    Promise.all(scene.images.map(imageLayer)),
    Promise.all((scene.watermarks ?? []).map(watermarkObject)),
  ]);
  for (const image of images) canvas.add(image);
  for (const layer of scene.texts) {
    if (layer.text.trim() === '') continue;
    canvas.add(fitTextLayer(layer, scene.width, scene.height));
  }
  for (const mark of watermarks) canvas.add(mark);
  canvas.renderAll();
}
