/**
 * Scene resolution: a design plus a recipient's parameter values → the text that is drawn
 * (docs/adr/0004-render-slice.md "Render slice"). Pure functions, shared by the render service and
 * the editor.
 */
import type {
  DesignDocument,
  DynamicStickerType,
  Parameter,
  Sticker,
  TextSnippet,
  TextTransformKey,
} from '../design.ts';
import type { WatermarkLayer } from './watermark.ts';
import { urlTemplateFields } from './url-template.ts';
import { stickerColour } from './sticker-filters.ts';
import { rotatedBounds } from './geometry.ts';

/** Values longer than this are cut (docs/adr/0004-render-slice.md "Render slice", docs/security.md "Render limits"). */
export const MAX_VALUE_LENGTH = 255;

/** `{{ name }}` in a text snippet's text; names are letters, digits, `_` and `-` (docs/editor.md "Editing rules"). */
export const MERGE_FIELD = /\{\{\s*([A-Za-z0-9_-]+)\s*\}\}/g;

/**
 * Placeholders e-mail platforms send literally when a field is empty: `{{cuf_123}}`,
 * `{{ first_name }}`, `~Contact.FirstName~` (Keap), `*|FNAME|*` (Mailchimp), `%FIRSTNAME%`,
 * `[first_name]`, `{first_name}`. Such a value counts as missing (test/unit/resolve.test.ts).
 */
const UNFILLED_TAG =
  /^\s*(\{\{[^{}]*\}\}|\{[A-Za-z0-9_.\- |:'"]+\}|~[A-Za-z0-9_.]+~|\*\|[A-Za-z0-9_:]+\|\*|%[A-Za-z0-9_.]+%|\[[A-Za-z0-9_.]+\])\s*$/;

/** True when a value is an unfilled merge tag rather than a recipient's data. */
export function isUnfilledMergeTag(value: string): boolean {
  return UNFILLED_TAG.test(value);
}

/** Applies a text transform (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore"): All Caps, Lowercase, UpperCase (each word), No Spaces. */
export function applyTextTransform(
  value: string,
  key: TextTransformKey | null | undefined,
): string {
  switch (key) {
    case 'allCaps':
      return value.toLocaleUpperCase();
    case 'lowerCase':
      return value.toLocaleLowerCase();
    case 'upperCase':
      return value.replace(
        /(^|\s)(\S)/gu,
        (_m, space: string, first: string) => space + first.toLocaleUpperCase(),
      );
    case 'noSpaces':
      return value.replace(/\s+/gu, '');
    default:
      return value;
  }
}

/** Cuts a value at 255 characters (code points, so an emoji is never split in half). */
export function cutValue(value: string): string {
  if (value.length <= MAX_VALUE_LENGTH) return value;
  return Array.from(value).slice(0, MAX_VALUE_LENGTH).join('');
}

/**
 * Takes out of a text the characters a layer of `fontFamily` cannot draw (the "never tofu"
 * rule, shared/scene/glyphs.ts `glyphFilter`; docs/fonts.md). Resolution without one keeps
 * every character.
 */
export type GlyphFilter = (text: string, fontFamily: string) => string;

/** How a scene is resolved beyond the design and the values. */
export interface ResolveOptions {
  /** Leaves out what no shipped face draws; a value left empty by it shows the fallback. */
  glyphs?: GlyphFilter;
}

/**
 * The value drawn for one parameter: the recipient's value if present and not an unfilled tag,
 * else the fallback. A blank fallback (one space,
 * docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and
 * restore") draws nothing. The text transform applies to both.
 * @param drawable the layer's glyph filter (`ResolveOptions.glyphs` for its family): a value
 *   that has nothing drawable left counts as missing, so the fallback shows (docs/fonts.md
 *   "Never tofu").
 */
export function resolveParameter(
  parameter: Parameter,
  value: string | undefined,
  drawable: (text: string) => string = (text) => text,
): string {
  const given = value === undefined ? '' : drawable(cutValue(value));
  const usable = given.trim() !== '' && !isUnfilledMergeTag(given);
  const chosen = usable
    ? given
    : parameter.param_default_value.trim() === ''
      ? ''
      : drawable(parameter.param_default_value);
  const transform = parameter.text_transform.checkFormating
    ? parameter.text_transform.formatOptionKey
    : null;
  return applyTextTransform(chosen, transform);
}

/**
 * A text snippet's text with every `{{param}}` resolved. A placeholder naming no declared
 * parameter of the snippet draws nothing (only declared parameters count,
 * docs/adr/0004-render-slice.md "Render slice"). With a glyph filter, what the snippet's family
 * cannot draw is left out of the values (before the fallback rule) and of the text around them.
 */
export function resolveSnippetText(
  snippet: TextSnippet,
  values: Record<string, string>,
  glyphs?: GlyphFilter,
): string {
  const byName = new Map(snippet.parameters.map((p) => [p.param_name, p]));
  const drawable = glyphs
    ? (text: string) => glyphs(text, snippet.fontFamily)
    : (text: string) => text;
  const text = snippet.text.replace(MERGE_FIELD, (_m, name: string) => {
    const parameter = byName.get(name);
    return parameter ? resolveParameter(parameter, values[name], drawable) : '';
  });
  return glyphs ? drawable(text) : text;
}

/**
 * Every parameter name the design declares (text parameters, dynamic stickers' and the fields
 * of live web crops' URL templates), sorted.
 */
export function declaredParameters(design: DesignDocument): string[] {
  const names = new Set<string>();
  for (const s of design.text_snippets) for (const p of s.parameters) names.add(p.param_name);
  for (const s of design.graphics_data) {
    if (s.dynamicStickerParamName) names.add(s.dynamicStickerParamName);
    // A live web crop's URL template names parameters of its own (docs/web-crops.md).
    if (s.crop?.url_template) for (const f of urlTemplateFields(s.crop.url_template)) names.add(f);
  }
  return [...names].sort();
}

/** A text layer ready to draw: the snippet's style with its resolved text. */
export interface ResolvedTextLayer {
  id: string;
  text: string;
  left: number;
  top: number;
  width: number;
  fontFamily: string;
  fontWeight: 'normal' | 'bold';
  fontStyle: 'normal' | 'italic';
  underline: boolean;
  textAlign: 'left' | 'center' | 'right';
  angle: number;
  fill: string;
  stroke: string | null;
  strokeWidth: number;
  /** px */
  fontSize: number;
  /** px; the text shrinks down to this before it overflows (docs/editor.md "Editing rules"). */
  minFontSize: number;
  /**
   * The lowest the text may reach, px from the canvas top (docs/editor.md "Text fitting": the
   * box): its own stored box, or down to the first drawn object below it; absent: the canvas's
   * bottom margin (countdown, poll and weather labels).
   */
  maxBottom?: number;
}

/**
 * A sticker ready to draw: its box in canvas px (intrinsic size × scale), rotation in degrees
 * around the top-left corner, and either an image `src` (a data URL once the server has made
 * or fetched it) or nothing yet.
 */
export interface ResolvedImageLayer {
  id: string;
  left: number;
  top: number;
  /** Drawn size, px. */
  width: number;
  height: number;
  angle: number;
  src: string;
  /** The colour blended onto it in mode screen (shared/scene/sticker-filters.ts); absent: none. */
  colour?: string;
}

/** A dynamic sticker's input after resolution: what the server must make or fetch. */
export interface DynamicStickerInput {
  id: string;
  type: DynamicStickerType;
  /** The parameter's value if given and usable, else the fallback; may be empty. */
  value: string;
  sticker: Sticker;
}

/** What the render page draws: canvas size in px and the personalised layers, in z-order. */
export interface ResolvedScene {
  width: number;
  height: number;
  /** Stickers, beneath the texts. */
  images: ResolvedImageLayer[];
  texts: ResolvedTextLayer[];
  /** Watermarks, above everything (shared/scene/watermark.ts); absent: none. */
  watermarks?: WatermarkLayer[];
}

/** A sticker's drawn box in canvas px. */
export function stickerBox(sticker: Sticker): Omit<ResolvedImageLayer, 'src' | 'id'> {
  return {
    left: sticker.left,
    top: sticker.top,
    width: sticker.width * sticker.scaleX,
    height: sticker.height * sticker.scaleY,
    angle: sticker.angle,
  };
}

/**
 * The value of each dynamic sticker for one recipient: its parameter's value when present and not
 * an unfilled merge tag, else its fallback (`dynamicStickerUrl`).
 */
export function resolveDynamicStickers(
  design: DesignDocument,
  values: Record<string, string>,
): DynamicStickerInput[] {
  return design.graphics_data
    .filter((s) => s.stickerType === 'dynamicSticker' && s.dynamicStickerType !== null)
    .map((sticker) => {
      const given = sticker.dynamicStickerParamName
        ? values[sticker.dynamicStickerParamName]
        : undefined;
      const value =
        given !== undefined && given.trim() !== '' && !isUnfilledMergeTag(given)
          ? cutValue(given.trim())
          : sticker.dynamicStickerUrl.trim();
      return { id: sticker.uuid, type: sticker.dynamicStickerType!, value, sticker };
    });
}

/**
 * Resolves the whole design for one recipient's values (already filtered and decoded).
 * @param images the sticker images the server made or fetched, by sticker uuid (data URLs);
 *   a sticker without one is not drawn.
 * @param options.glyphs the render service and the editor pass the "never tofu" filter.
 */
export function resolveScene(
  design: DesignDocument,
  values: Record<string, string>,
  images: Record<string, string> = {},
  options: ResolveOptions = {},
): ResolvedScene {
  const scene = {
    width: design.canvas_width,
    height: design.canvas_height,
    images: design.graphics_data
      .filter((s) => images[s.uuid] !== undefined)
      .map((s) => {
        const colour = stickerColour(s.filters);
        return {
          id: s.uuid,
          ...stickerBox(s),
          src: images[s.uuid]!,
          ...(colour ? { colour } : {}),
        };
      }),
    texts: design.text_snippets.map((s) => ({
      id: s.id,
      text: resolveSnippetText(s, values, options.glyphs),
      left: s.left,
      top: s.top,
      width: s.width,
      fontFamily: s.fontFamily,
      fontWeight: s.fontWeight,
      fontStyle: s.fontStyle,
      underline: s.underline,
      textAlign: s.textAlign,
      angle: s.angle,
      fill: s.fill,
      stroke: s.stroke,
      strokeWidth: s.strokeWidth,
      fontSize: s.fontSize,
      minFontSize: s.minFontSize ?? Math.round(s.fontSize / 2),
    })),
  };
  const floors = textFloors(design, scene);
  return { ...scene, texts: scene.texts.map((t, i) => ({ ...t, maxBottom: floors[i]! })) };
}

/** Snippets stay at least this far inside the canvas edges, px (docs/editor.md "Editing rules"). */
export const EDGE_MARGIN_PX = 5;

/** A text's own height when the editor stored none: one line at its font size, px. */
const ONE_LINE = 1.2;

/**
 * The lowest each text layer of `scene` may reach (`ResolvedTextLayer.maxBottom`, px;
 * docs/editor.md "Text fitting": the box): the canvas's bottom margin, or, when a drawn sticker
 * or another non-empty text starts below the text's top and overlaps its width, that object's
 * top; never above the text's own stored box (its saved height, or one line when none), so a
 * box the designer placed over something keeps its room. A turned text keeps the canvas's
 * bottom margin. Objects count by their upright bounds. At most 50 texts × 100 objects.
 */
function textFloors(design: DesignDocument, scene: Omit<ResolvedScene, 'watermarks'>): number[] {
  const canvasFloor = design.canvas_height - EDGE_MARGIN_PX;
  const texts = design.text_snippets.map((t, index) => ({
    index,
    drawn: scene.texts[index]!.text.trim() !== '',
    bounds: rotatedBounds({ ...t, height: t.height ?? t.fontSize * ONE_LINE }),
  }));
  const objects = [
    ...scene.images.map((i) => ({ index: -1, bounds: rotatedBounds(i) })),
    ...texts.filter((t) => t.drawn),
  ];
  return design.text_snippets.map((s, index) => {
    if (s.angle % 360 !== 0) return canvasFloor;
    const own = s.top + Math.max(s.height ?? 0, s.fontSize * ONE_LINE);
    let floor = canvasFloor;
    for (const { index: other, bounds: o } of objects) {
      const below = other !== index && o.top > s.top;
      if (below && o.left < s.left + s.width && o.right > s.left)
        floor = Math.min(floor, Math.max(own, o.top));
    }
    return floor;
  });
}

// ---------------------------------------------------------------------------------------------
// Base image placement (docs/editor.md "Constants": "Base image scaling";
// docs/adr/0050-pixelate-and-legacy-base-image-scaling.md "Pixelate and legacy base-image scaling")

/** Designs last saved before this day scale the base photo to 500 px (docs/editor.md "Constants"). */
export const LEGACY_SCALING_BEFORE = '2018-02-24';
/** The base photo's width for designs saved before {@link LEGACY_SCALING_BEFORE}, px. */
export const LEGACY_BASE_IMAGE_WIDTH = 500;
/** The spec's width for later designs, px (here: the photo covers the canvas instead). */
export const BASE_IMAGE_WIDTH = 1000;

/**
 * The spec's base image scaling width for a design dated `date` (docs/editor.md "Constants": "width
 * 500 for designs updated before 2018-02-24, otherwise 1000";
 * test/unit/base-image-scaling.test.ts). A string is read by its calendar day, as written
 * (`2018-02-23`, `2018-02-23 23:59:59` and `2018-02-23T23:59:59+05:00` are all before the cut-off;
 * the old system's own clock decided the day); a Date by its UTC day.
 * @param date `YYYY-MM-DD…` or a Date; unknown or unreadable → 1000 (not legacy).
 * @returns 500 or 1000, px.
 */
export function baseImageScalingWidth(date: string | Date | null | undefined): 500 | 1000 {
  let day: string | undefined;
  if (date instanceof Date) {
    if (Number.isFinite(date.getTime())) day = date.toISOString().slice(0, 10);
  } else if (typeof date === 'string') {
    day = /^\s*(\d{4}-\d{2}-\d{2})/.exec(date)?.[1];
  }
  return day !== undefined && day < LEGACY_SCALING_BEFORE
    ? LEGACY_BASE_IMAGE_WIDTH
    : BASE_IMAGE_WIDTH;
}

/**
 * Where the base photo goes on the canvas, before filters (shared/scene/draw.ts and the render
 * service's pre-fit, functions/render/renderer.ts, both use it so the two draw the same).
 * - `fit`: the photo resampled to `width`x`height` px (before rotation), cropped to the centre
 *   `crop` rectangle of the photo's own px first (cover) or not cropped (legacy);
 * - `left`, `top`: the centre of the fitted photo on the canvas, px, after the quarter turns.
 */
export interface BaseImagePlacement {
  fit: {
    width: number;
    height: number;
    crop: { left: number; top: number; width: number; height: number };
  };
  left: number;
  top: number;
}

/**
 * Places a photo of `photo` px (its own size, before rotation) on a `canvas` px canvas:
 * - `legacyWidth` null (every design since 2018-02-24): the photo covers the canvas after
 *   `angle` (a multiple of 90° after rounding), centre-cropped;
 * - `legacyWidth` 500 (docs/editor.md "Constants"): the photo is scaled to 500 px wide, keeping its
 *   aspect ratio, uncropped, its top-left corner (after rotation) at the canvas's; what it leaves
 *   uncovered stays white.
 * Sizes are whole px, at least 1.
 */
export function placeBasePhoto(
  photo: { width: number; height: number },
  canvas: { width: number; height: number },
  angle: number,
  legacyWidth: number | null,
): BaseImagePlacement {
  const pw = Math.max(1, photo.width);
  const ph = Math.max(1, photo.height);
  const quarter = ((Math.round(angle / 90) % 4) + 4) % 4;
  const rotated = quarter % 2 === 1;
  if (legacyWidth !== null) {
    const width = Math.max(1, Math.round(legacyWidth));
    const height = Math.max(1, Math.round((ph * width) / pw));
    const [w, h] = rotated ? [height, width] : [width, height];
    return {
      fit: { width, height, crop: { left: 0, top: 0, width: pw, height: ph } },
      left: w / 2,
      top: h / 2,
    };
  }
  const [width, height] = rotated ? [canvas.height, canvas.width] : [canvas.width, canvas.height];
  const scale = Math.max(width / pw, height / ph);
  const cw = Math.min(pw, width / scale);
  const ch = Math.min(ph, height / scale);
  return {
    fit: {
      width,
      height,
      crop: { left: (pw - cw) / 2, top: (ph - ch) / 2, width: cw, height: ch },
    },
    left: canvas.width / 2,
    top: canvas.height / 2,
  };
}
