/**
 * What the stickers drawn from settings share (polls, shared/scene/poll.ts; weather,
 * shared/scene/weather-sticker.ts): the drawn box of a sticker with its text scale, a text layer
 * in the design's text shape for `fitTextLayer`, and attribute escaping for their SVG images.
 * Pure; geometry in canvas px.
 */
import type { ResolvedTextLayer } from './resolve.ts';

/** The geometry of a sticker (shared/design.ts `Sticker`), without importing the schema. */
export interface StickerGeometry {
  uuid: string;
  left: number;
  top: number;
  width: number;
  height: number;
  scaleX: number;
  scaleY: number;
}

/** A sticker's drawn box, canvas px, and the scale of its intrinsic px (fonts, paddings). */
export interface LayerBox {
  id: string;
  left: number;
  top: number;
  width: number;
  height: number;
  scale: number;
}

/**
 * The drawn box of `sticker` (intrinsic size × scale) and its text scale against the kind's
 * intrinsic size: the smaller of the two axes, so text never outgrows a squeezed box.
 */
export const layerBox = (
  sticker: StickerGeometry,
  intrinsic: { width: number; height: number },
): LayerBox => ({
  id: sticker.uuid,
  left: sticker.left,
  top: sticker.top,
  width: sticker.width * sticker.scaleX,
  height: sticker.height * sticker.scaleY,
  scale: Math.min(
    sticker.scaleX * (sticker.width / intrinsic.width),
    sticker.scaleY * (sticker.height / intrinsic.height),
  ),
});

/** Escapes a colour or text for an SVG attribute. */
export const svgAttr = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A number rounded to 0.01 px for SVG text. */
export const svgNumber = (value: number): number => Math.round(value * 100) / 100;

/**
 * A text layer of a sticker, `{box id}:{id}`, unrotated, no stroke, shrinking to 60 % (or
 * `minScale`) of its size before it wraps (shared/scene/draw.ts `fitTextLayer`).
 */
export function stickerTextLayer(
  box: Pick<LayerBox, 'id'>,
  style: { fontFamily: string; fill: string },
  layer: {
    id: string;
    text: string;
    left: number;
    top: number;
    width: number;
    fontSize: number;
    textAlign: 'left' | 'center' | 'right';
    fontWeight?: 'normal' | 'bold';
    minScale?: number;
  },
): ResolvedTextLayer {
  return {
    id: `${box.id}:${layer.id}`,
    text: layer.text,
    left: layer.left,
    top: layer.top,
    width: Math.max(1, layer.width),
    fontFamily: style.fontFamily,
    fontWeight: layer.fontWeight ?? 'normal',
    fontStyle: 'normal',
    underline: false,
    textAlign: layer.textAlign,
    angle: 0,
    fill: style.fill,
    stroke: null,
    strokeWidth: 0,
    fontSize: layer.fontSize,
    minFontSize: Math.max(1, Math.round(layer.fontSize * (layer.minScale ?? 0.6))),
  };
}
