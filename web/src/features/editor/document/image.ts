/**
 * Pure base-image operations of the image toolbar (docs/editor.md "Architecture": "Image toolbar",
 * docs/editor.md "Commands": "Crop", docs/editor.md "Editing rules": "Canvas/image size", "Canvas"
 * crop rules, docs/editor.md "Constants" constants): the size counters' clamps and the aspect lock,
 * the quarter-turn rotation, the crop rectangle and its too-small rule, the crop's new document,
 * and a new base photo. No fabric, no DOM; the commands (commands/image.ts) call these and the unit
 * tests run them in node.
 *
 * Units: canvas px (the design's own pixels).
 */
import { MAX_CANVAS_WIDTH, type DesignDocument, type Sticker } from '#shared/design.ts';
import { EDGE_MARGIN_PX } from '#shared/scene/resolve.ts';
import { clampBox, snippetHeight, type Box, type CanvasSize } from './snippets.ts';

/** The smallest a size counter goes, px (docs/editor.md "Editing rules": "counters minimum 1"). */
export const MIN_SIZE_PX = 1;

/** Where crop mode's rectangle starts, px (docs/editor.md "Editing rules": "starts at 20,20 with size 120x120"). */
export const CROP_START: Box = { left: 20, top: 20, width: 120, height: 120 };

/** How far the crop rectangle may pass the canvas edge, px (docs/editor.md "Editing rules": "about 5 px"). */
export const CROP_TOLERANCE_PX = 5;

/** The smallest crop rectangle, px (a rectangle must keep a handle's room). */
export const MIN_CROP_PX = 10;

/** The spec's crop warning (docs/editor.md "Messages"). */
export const CROP_TOO_SMALL_MESSAGE =
  'Your new image size is too small to fit your current text snippets. If you crop the image, some or all of your text snippets may be deleted. Would you like to continue to crop the image?';

/** The base photo's aspect ratio (height / width): the photo's own, else the canvas's. */
export function imageAspect(design: DesignDocument): number {
  if (design.image_width && design.image_height) return design.image_height / design.image_width;
  return design.canvas_height / design.canvas_width;
}

/**
 * The largest width and height the counters allow, px (docs/editor.md "Editing rules": "maximum the
 * image's maximum; canvas width max 1056 px"): the width is capped at 1056; the height at what the
 * photo's aspect gives at that width (the photo covers the canvas), and never below the current
 * height.
 */
export function maxCanvasSize(design: DesignDocument): CanvasSize {
  return {
    width: MAX_CANVAS_WIDTH,
    height: Math.max(design.canvas_height, Math.round(MAX_CANVAS_WIDTH * imageAspect(design))),
  };
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * The canvas size the counters set (docs/editor.md "Editing rules": "Counter inputs clamp to min
 * and max"; "height must stay above 0 when stepping with a locked aspect ratio").
 * @param changed which counter the user changed.
 * @param value its new value, px (any number; NaN keeps the current size).
 * @param locked the aspect lock: the other side follows at the current canvas aspect.
 * @returns whole px, each side 1..max.
 */
export function canvasSizeFor(
  design: DesignDocument,
  changed: 'width' | 'height',
  value: number,
  locked: boolean,
): CanvasSize {
  const max = maxCanvasSize(design);
  const current = { width: design.canvas_width, height: design.canvas_height };
  if (!Number.isFinite(value)) return current;
  const ratio = current.height / current.width;
  if (changed === 'width') {
    let width = clamp(Math.round(value), MIN_SIZE_PX, max.width);
    if (!locked) return { width, height: current.height };
    // The height follows; if it would pass its limits, the width is held back with it.
    let height = Math.round(width * ratio);
    if (height < MIN_SIZE_PX || height > max.height) {
      height = clamp(height, MIN_SIZE_PX, max.height);
      width = clamp(Math.round(height / ratio), MIN_SIZE_PX, max.width);
    }
    return { width, height };
  }
  let height = clamp(Math.round(value), MIN_SIZE_PX, max.height);
  if (!locked) return { width: current.width, height };
  let width = Math.round(height / ratio);
  if (width < MIN_SIZE_PX || width > max.width) {
    width = clamp(width, MIN_SIZE_PX, max.width);
    height = clamp(Math.round(width * ratio), MIN_SIZE_PX, max.height);
  }
  return { width, height };
}

/** A sticker's drawn box, px (its intrinsic size times its scale). */
export const stickerBoxOf = (s: Sticker): Box => ({
  left: s.left,
  top: s.top,
  width: s.width * s.scaleX,
  height: s.height * s.scaleY,
});

/**
 * The document at a new canvas size: snippets and stickers kept inside it by the docs/editor.md
 * "Editing rules" clamps (5 px from the edges; a snippet wider than the canvas is narrowed).
 */
export function withCanvasSize(design: DesignDocument, size: CanvasSize): DesignDocument {
  const canvas = { width: size.width, height: size.height };
  return {
    ...design,
    canvas_width: size.width,
    canvas_height: size.height,
    text_snippets: design.text_snippets.map((s) => {
      const width = Math.max(1, Math.min(s.width, canvas.width - 2 * EDGE_MARGIN_PX));
      const box = clampBox({ left: s.left, top: s.top, width, height: snippetHeight(s) }, canvas);
      return { ...s, width, left: box.left, top: box.top };
    }),
    graphics_data: design.graphics_data.map((s) => {
      const box = clampBox(stickerBoxOf(s), canvas);
      return { ...s, left: box.left, top: box.top };
    }),
  };
}

/**
 * The document with the photo turned a quarter clockwise (docs/editor.md "Architecture": "Rotate"):
 * the angle moves by 90° and the canvas turns with the photo (width and height swap; a width over
 * 1056 px is scaled down with the height), objects kept inside.
 */
export function rotatedQuarter(design: DesignDocument): DesignDocument {
  const angle = (design.image_angle + 90) % 360;
  let width = design.canvas_height;
  let height = design.canvas_width;
  if (width > MAX_CANVAS_WIDTH) {
    height = Math.max(1, Math.round((height * MAX_CANVAS_WIDTH) / width));
    width = MAX_CANVAS_WIDTH;
  }
  return withCanvasSize({ ...design, image_angle: angle }, { width, height });
}

/**
 * Keeps a crop rectangle inside the canvas (docs/editor.md "Editing rules": "stays inside the
 * canvas with about 5 px tolerance"), at least 10 px a side. Whole px.
 */
export function clampCropRect(rect: Box, canvas: CanvasSize): Box {
  const t = CROP_TOLERANCE_PX;
  const width = clamp(Math.round(rect.width), MIN_CROP_PX, canvas.width);
  const height = clamp(Math.round(rect.height), MIN_CROP_PX, canvas.height);
  return {
    width,
    height,
    left: clamp(Math.round(rect.left), -t, canvas.width - width + t),
    top: clamp(Math.round(rect.top), -t, canvas.height - height + t),
  };
}

/** A crop rectangle cut to the canvas itself (the tolerance never adds pixels). */
export function cropArea(rect: Box, canvas: CanvasSize): Box {
  const left = clamp(rect.left, 0, canvas.width);
  const top = clamp(rect.top, 0, canvas.height);
  return {
    left,
    top,
    width: Math.max(1, Math.min(rect.left + rect.width, canvas.width) - left),
    height: Math.max(1, Math.min(rect.top + rect.height, canvas.height) - top),
  };
}

/**
 * Whether the crop would be too small for the text snippets (docs/editor.md "Commands": "Done asks
 * for confirmation if the new size is too small for the text snippets", docs/editor.md "Messages"
 * crop warning): some snippet's box, with the 5 px margins, does not fit inside the crop area.
 */
export function cropTooSmall(design: DesignDocument, rect: Box): boolean {
  const area = cropArea(rect, { width: design.canvas_width, height: design.canvas_height });
  return design.text_snippets.some(
    (s) =>
      s.width + 2 * EDGE_MARGIN_PX > area.width ||
      snippetHeight(s) + 2 * EDGE_MARGIN_PX > area.height,
  );
}

/** The photo a crop made (`POST /saveCroppedImage`, then `GET /image/{id}`). */
export interface BaseImageRef {
  /** The image id (`image_id`). */
  id: string;
  /** Its assets-bucket key (`base_image_key`). */
  key: string;
  /** Its own size, px. */
  width: number;
  height: number;
}

/** Whether a box overlaps an area at all. */
const overlaps = (b: Box, a: Box) =>
  b.left < a.left + a.width &&
  b.left + b.width > a.left &&
  b.top < a.top + a.height &&
  b.top + b.height > a.top;

/**
 * The document after a crop (docs/editor.md "Commands": "Finish resizes the canvas, re-lays out
 * snippets and stickers, and drops objects left outside"): the cropped photo (already turned,
 * flipped and cut, so angle 0 and no flips; filters and enhancements stay on the data and apply to
 * it), the canvas at the crop's size (a width over 1056 px scaled down), each object moved by the
 * crop's corner; an object with no part inside the crop is dropped, the rest are kept inside by
 * docs/editor.md "Editing rules".
 */
export function croppedDocument(
  design: DesignDocument,
  rect: Box,
  image: BaseImageRef,
): DesignDocument {
  const area = cropArea(rect, { width: design.canvas_width, height: design.canvas_height });
  const inside = (b: Box) => overlaps(b, area);
  const moved: DesignDocument = {
    ...design,
    image_id: image.id,
    base_image_key: image.key,
    image_width: image.width > 0 ? Math.round(image.width) : null,
    image_height: image.height > 0 ? Math.round(image.height) : null,
    image_angle: 0,
    flip_x: false,
    flip_y: false,
    // The crop is the picture as drawn (a legacy photo's white included): it covers the canvas.
    legacy_base_image_width: null,
    text_snippets: design.text_snippets
      .filter((s) => inside({ left: s.left, top: s.top, width: s.width, height: snippetHeight(s) }))
      .map((s) => ({ ...s, left: s.left - area.left, top: s.top - area.top })),
    graphics_data: design.graphics_data
      .filter((s) => inside(stickerBoxOf(s)))
      .map((s) => ({ ...s, left: s.left - area.left, top: s.top - area.top })),
  };
  const width = Math.min(MAX_CANVAS_WIDTH, Math.round(area.width));
  const height = Math.max(1, Math.round((area.height * width) / Math.round(area.width)));
  return withCanvasSize(moved, { width, height });
}

/**
 * The document with another base photo (docs/editor.md "Architecture" Images panel; the `replace`
 * route's rule, functions/designs/handler.ts): the image id, key and size, and the canvas keeps its
 * width and takes the photo's aspect ratio as drawn (a quarter-turned photo's height over its
 * width; the design's rotation and flips stay); objects kept inside.
 */
export function withBaseImage(design: DesignDocument, image: BaseImageRef): DesignDocument {
  const next: DesignDocument = {
    ...design,
    image_id: image.id,
    base_image_key: image.key,
    image_width: image.width > 0 ? Math.round(image.width) : null,
    image_height: image.height > 0 ? Math.round(image.height) : null,
  };
  if (!(image.width > 0 && image.height > 0)) return next;
  const turned = Math.round(design.image_angle / 90) % 2 === 1;
  const aspect = turned ? image.width / image.height : image.height / image.width;
  const height = Math.max(1, Math.round(design.canvas_width * aspect));
  return withCanvasSize(next, { width: design.canvas_width, height });
}

/**
 * Where the browser loads a base photo from: its assets key under `files/` is served on this
 * origin at `/{key}` (functions/images/views.ts `servedUrl`), else null (a white canvas).
 */
export const baseImageUrlOf = (key: string): string | null =>
  key.startsWith('files/') ? `/${key}` : null;
