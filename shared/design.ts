/**
 * The design document (a "PicSnippet", docs/decisions.md "The design document: versions and
 * restore") as zod schemas: the saved data of a design, never fabric's `toObject()` output
 * (docs/decisions.md "The design document: versions and restore", "the scene is data"). The render
 * service and the editor both draw from it through `shared/scene`.
 *
 * **Document versus record.** A design is one DynamoDB item (docs/decisions.md "Design API shapes",
 * `functions/lib/db/entities.ts` `Design`). Its identity and bookkeeping live on the item, not
 * here: `designId`, `teamId`, `title`, `status`, `isTemplate`, `counter` (views), `createdAt`,
 * `updatedAt`, `archivedAt`, `publicId` (from which `base_url`, `showurl`, `editurl`,
 * `archiveurl` and `unarchiveurl` are derived) and `version` (the optimistic lock). This
 * module describes the item's `document` attribute: what is drawn (base image, canvas, text
 * snippets with their parameters, stickers) and the export settings.
 *
 * **Versions.** The document carries `schemaVersion`; the ordered migrations live beside the
 * schemas in `shared/design-migrations.ts`. Every load goes through `restoreDesign`, which
 * migrates, validates and repairs (docs/decisions.md "The design document: versions and restore",
 * "One restore path for untrusted data").
 *
 * Units: geometry in canvas px, angles in degrees, font sizes in px.
 */
import { z } from 'zod';
import {
  CURRENT_SCHEMA_VERSION,
  isRecord,
  migrateDesignDocument,
  storedSchemaVersion,
  type RawDocument,
} from './design-migrations.ts';
import {
  baseImageScalingWidth,
  LEGACY_BASE_IMAGE_WIDTH,
  LEGACY_SCALING_BEFORE,
  MAX_VALUE_LENGTH,
  MERGE_FIELD,
} from './scene/resolve.ts';
import { CountdownSchema } from './scene/countdown.ts';
import { PollSchema } from './scene/poll.ts';
import { WeatherStickerSchema } from './scene/weather-sticker.ts';
import { WebCropSchema } from './scene/web-crop.ts';
import { RulesSchema, SplitOptimiserSchema } from './scene/rules.ts';
import { DataBindingsSchema } from './data-bindings.ts';
import { MAX_GIF_FRAMES } from './gif.ts';

export { CURRENT_SCHEMA_VERSION, DESIGN_MIGRATIONS } from './design-migrations.ts';

/** Default canvas, px (docs/editor.md "Constants"). */
export const DEFAULT_CANVAS = { width: 900, height: 600 } as const;
/** Longest alt-text template, characters (docs/export.md "Alt text": a sentence or two). */
export const MAX_ALT_TEXT_LENGTH = 500;

/** Widest canvas, px (docs/editor.md "Editing rules", docs/editor.md "Constants"). */
export const MAX_CANVAS_WIDTH = 1056;
/**
 * Design bounds (docs/security.md "Design bounds"): sizes and counts no real design reaches, so
 * that no design, however written, costs a render or the editor more than these. Enforced by
 * the schemas below on every write; `restoreDesign` clamps or cuts a stored design past them.
 * Units: px for sizes, characters (code points, as zod counts them) for text, items for counts.
 */
export const DESIGN_BOUNDS = {
  /** Canvas width, px (docs/editor.md "Editing rules", docs/editor.md "Constants"). */
  canvasWidth: MAX_CANVAS_WIDTH,
  /** Canvas height, px: four times the widest canvas. */
  canvasHeight: 4096,
  /** Text snippets in a design. */
  textSnippets: 50,
  /** A snippet's text (and first text) with its placeholders, characters. */
  textLength: 1000,
  /** Parameters (merge fields) of one text snippet. */
  parametersPerSnippet: 20,
  /** A snippet's box width, height and widths kept by the editor, px. */
  snippetSize: 4096,
  /** Stickers of every kind in a design. */
  stickers: 50,
  /** Dynamic stickers (QR, gravatar, hosted image, screenshot) in a design. */
  dynamicStickers: 10,
  /** A sticker's intrinsic width and height, px (512 and 910 in practice, docs/editor.md "Constants"). */
  stickerSize: 4096,
  /** A sticker's scaleX and scaleY. */
  stickerScale: 100,
  /** A sticker's drawn width and height (intrinsic size × scale), px. */
  stickerDrawnSize: 4096,
} as const;

/**
 * Messages of the bounds in Laravel's wording, as the spec's own use it ('The title may not be
 * greater than 255 characters', docs/editor.md "Editing rules").
 */
const tooLong = (field: string, max: number) =>
  `The ${field} may not be greater than ${max} characters.`;
const tooBig = (field: string, max: number) => `The ${field} may not be greater than ${max}.`;
const tooMany = (field: string, max: number) => `The ${field} may not have more than ${max} items.`;

/** Largest font size, px (docs/editor.md "Editing rules": "max font size value 80"). */
export const MAX_FONT_SIZE = 80;
/** A new snippet's font size, px (docs/editor.md "Constants"). */
export const DEFAULT_FONT_SIZE = 32;

/** The minimum font size a linked snippet gets: half the font size, rounded (docs/decisions.md "The design document: versions and restore"). */
export const halfFontSize = (fontSize: number): number => Math.max(1, Math.round(fontSize / 2));

/** A blank fallback is stored as one space (docs/decisions.md "The design document: versions and restore"). */
const blankAsSpace = (value: string): string => (value.trim() === '' ? ' ' : value);

/** Text transform options, name / key (docs/decisions.md "The design document: versions and restore"). */
export const TEXT_TRANSFORMS = {
  allCaps: 'All Caps',
  lowerCase: 'Lowercase',
  upperCase: 'UpperCase',
  noSpaces: 'No Spaces',
} as const;
export type TextTransformKey = keyof typeof TEXT_TRANSFORMS;

export const TextTransformSchema = z.object({
  checkFormating: z.boolean().default(false),
  formatOptionKey: z
    .enum(['allCaps', 'lowerCase', 'upperCase', 'noSpaces'])
    .nullable()
    .default(null),
  formatOptionName: z.string().nullable().default(null),
});

/**
 * A parameter's own fields (docs/decisions.md "The design document: versions and restore"), without
 * the defaults that depend on other fields; `ParameterSchema` adds those. Use this one for
 * `.shape`, `.pick` or `.partial`.
 */
export const ParameterFieldsSchema = z.object({
  /** A uuid. */
  id: z.string().min(1),
  /** The merge field's name, `{{param_name}}` in the snippet's text (docs/editor.md "Editing rules" rules). */
  param_name: z.string().min(1),
  /** The name before the last rename; defaults to `param_name`. */
  original_param_name: z.string().min(1).optional(),
  /** The fallback, at most 255 characters; a blank one is stored as `' '` (docs/decisions.md "The design document: versions and restore", docs/editor.md "Editing rules"). */
  param_default_value: z.string().max(MAX_VALUE_LENGTH).transform(blankAsSpace).default(' '),
  text_transform: TextTransformSchema.default({
    checkFormating: false,
    formatOptionKey: null,
    formatOptionName: null,
  }),
  /** The export platform's merge tag for this parameter (docs/export.md), if chosen. */
  merge_tag_value: z.string().nullable().default(null),
  /** The text snippet holding the parameter; filled from the owning snippet. */
  text_snippet_id: z.string().min(1).nullable().default(null),
  /** Set when the parameter feeds a dynamic sticker of that parameter name. */
  dynamicStickerParamName: z.string().nullable().default(null),
});

/** A parameter (merge field) of a text snippet (docs/decisions.md "The design document: versions and restore"); `original_param_name` defaults to the name. */
export const ParameterSchema = ParameterFieldsSchema.transform((p) => ({
  ...p,
  original_param_name: p.original_param_name ?? p.param_name,
}));
export type Parameter = z.output<typeof ParameterSchema>;

/** A snippet's display data as the editor saves it (docs/decisions.md "The design document: versions and restore" `display_info`); opaque here. */
export const DisplayInfoSchema = z.looseObject({
  width: z.number().optional(),
  uuid: z.string().optional(),
  fontFamily: z.string().optional(),
  parameters: z.array(z.unknown()).optional(),
});

/** A size in px within the design bounds. */
const snippetSize = (field: string) =>
  z.number().positive().max(DESIGN_BOUNDS.snippetSize, tooBig(field, DESIGN_BOUNDS.snippetSize));

/**
 * A text snippet's own fields (docs/decisions.md "The design document: versions and restore",
 * defaults from there); `TextSnippetSchema` adds the defaults that depend on other fields. Use this
 * one for `.shape`, `.pick` or `.partial`.
 */
export const TextSnippetFieldsSchema = z.object({
  id: z.string().min(1),
  /** Text with `{{param}}` placeholders, at most 1000 characters. */
  text: z.string().max(DESIGN_BOUNDS.textLength, tooLong('text', DESIGN_BOUNDS.textLength)),
  /** The text with placeholders as first written; defaults to `text`. */
  original_text: z
    .string()
    .max(DESIGN_BOUNDS.textLength, tooLong('original text', DESIGN_BOUNDS.textLength))
    .optional(),
  display_info: DisplayInfoSchema.nullable().default(null),
  fontFamily: z.string().min(1).default('Journal'),
  fontStyle: z.enum(['normal', 'italic']).default('normal'),
  fontWeight: z.enum(['normal', 'bold']).default('normal'),
  underline: z.boolean().default(false),
  textAlign: z.enum(['left', 'center', 'right']).default('left'),
  /** Degrees, 0–360 (docs/editor.md "Editing rules"). */
  angle: z.number().min(0).max(360).default(0),
  fill: z.string().min(1).default('black'),
  stroke: z.string().nullable().default(null),
  /** px, 0–5 (docs/editor.md "Editing rules"). */
  strokeWidth: z.number().min(0).max(5).default(0),
  /** px, at most 80 (docs/editor.md "Editing rules", docs/editor.md "Constants"). */
  fontSize: z.number().positive().max(MAX_FONT_SIZE).default(DEFAULT_FONT_SIZE),
  /**
   * Shrink-until size, px: the text shrinks down to it before it overflows. Half the font size
   * by default, never above the font size (docs/decisions.md "The design document: versions and
   * restore", docs/editor.md "Editing rules").
   */
  minFontSize: z.number().positive().max(MAX_FONT_SIZE).optional(),
  /** px; the widest the box may grow, if the editor set one. */
  maxWidth: snippetSize('max width').nullable().default(null),
  /** px; the width before the last resize, if the editor kept it. */
  originalWidth: snippetSize('original width').nullable().default(null),
  /** Box width the text wraps in, px. */
  width: snippetSize('width'),
  /** Box height, px, as the editor last laid it out (the renderer measures its own). */
  height: snippetSize('height').nullable().default(null),
  left: z.number(),
  top: z.number(),
  /** Wrap toggle of the selection overlay (docs/decisions.md "The design document: versions and restore"). */
  textWrap: z.boolean().default(true),
  /** Font size and minimum font size move together (docs/decisions.md "The design document: versions and restore": "Linked font sizes"). */
  linked: z.boolean().default(true),
  parameters: z
    .array(ParameterSchema)
    .max(
      DESIGN_BOUNDS.parametersPerSnippet,
      tooMany('parameters', DESIGN_BOUNDS.parametersPerSnippet),
    )
    .default([]),
});

/**
 * A text snippet: geometry in canvas px, font size in px (docs/decisions.md "The design document:
 * versions and restore"). `minFontSize` defaults to half the font size, `original_text` to the
 * text, and each parameter's `text_snippet_id` to the snippet's id.
 */
export const TextSnippetSchema = TextSnippetFieldsSchema.transform((s) => ({
  ...s,
  original_text: s.original_text ?? s.text,
  minFontSize: s.minFontSize ?? halfFontSize(s.fontSize),
  parameters: s.parameters.map((p): Parameter => ({
    ...p,
    text_snippet_id: p.text_snippet_id ?? s.id,
  })),
}));
export type TextSnippet = z.output<typeof TextSnippetSchema>;

/** Dynamic sticker kinds (docs/decisions.md "The design document: versions and restore") and their parameter-name prefixes (docs/editor.md "Editing rules"). */
export const DYNAMIC_STICKER_PREFIX = {
  qrCode: 'qrCode',
  gravatar: 'Gravatar',
  hostedImage: 'hostedIcon',
  screenShot: 'screenIcon',
  countdown: 'countdown',
  poll: 'poll',
  weather: 'weather',
} as const;
export type DynamicStickerType = keyof typeof DYNAMIC_STICKER_PREFIX;

/** A fabric image filter saved on a sticker (docs/decisions.md "The design document: versions and restore": the first has a colour, mode screen). */
export const StickerFilterSchema = z.looseObject({
  type: z.string().optional(),
  color: z.string().optional(),
  mode: z.string().optional(),
  alpha: z.number().optional(),
});

/** A sticker's intrinsic size in px within the design bounds. */
const stickerSize = (field: string) =>
  z.number().positive().max(DESIGN_BOUNDS.stickerSize, tooBig(field, DESIGN_BOUNDS.stickerSize));
/** A sticker's scale within the design bounds. */
const stickerScale = (field: string) =>
  z.number().positive().max(DESIGN_BOUNDS.stickerScale, tooBig(field, DESIGN_BOUNDS.stickerScale));

/**
 * A sticker on the canvas (docs/decisions.md "The design document: versions and restore"
 * `graphics_data`). Geometry in canvas px with a top-left origin: the intrinsic size (512 by
 * default; 910x512 for screenshots, docs/editor.md "Constants") times the scale, rotated by `angle`
 * degrees around the top-left corner (fabric's origin). `restoreDesign` converts a sticker saved
 * with another origin to the top-left one.
 *
 * Dynamic stickers take their value from the parameter `dynamicStickerParamName`, else from the
 * fallback `dynamicStickerUrl` (a URL, an e-mail for gravatar, any text for QR).
 */
export const StickerSchema = z
  .object({
    uuid: z.string().min(1),
    type: z.literal('stickers').default('stickers'),
    stickerType: z.enum(['plain', 'upload', 'dynamicSticker']).default('plain'),
    /** Image of a plain or uploaded sticker: an assets-bucket key or an https URL. */
    url: z.string().default(''),
    dynamicStickerType: z
      .enum(['qrCode', 'hostedImage', 'screenShot', 'gravatar', 'countdown', 'poll', 'weather'])
      .nullable()
      .default(null),
    dynamicStickerParamName: z.string().nullable().default(null),
    /** The dynamic sticker's fallback value, at most 255 characters (docs/editor.md "Editing rules" validations). */
    dynamicStickerUrl: z.string().max(MAX_VALUE_LENGTH).default(''),
    /** The image the editor last generated for the dynamic sticker (a URL), if any. */
    dynamicStickerNewUrl: z.string().nullable().default(null),
    /** The QR code image the editor last generated, if any. */
    newQrDataUrl: z.string().nullable().default(null),
    /** Screenshot device: mobile 910x512, else desktop. */
    isMobile: z.boolean().default(false),
    /**
     * A screenshot sticker's live web crop (shared/scene/web-crop.ts; docs/web-crops.md): one
     * element of the page, from a URL template per recipient, refreshed at an interval; null:
     * the whole page's top, as before.
     */
    crop: WebCropSchema.nullable().default(null),
    /** QR colour; #111111 (docs/editor.md "Constants", the reading that serves users: near-black scans well). */
    qrCodeColor: z.string().default('#111111'),
    /** QR quiet zone in modules, 0–20 (docs/editor.md "Editing rules"), default 0. */
    marginSize: z.number().int().min(0).max(20).default(0),
    isTransparent: z.boolean().default(false),
    /**
     * The frame of an animated GIF sticker (a `.gif` url) the design shows and the render draws,
     * 0-based; absent = the first frame, so older documents need no migration (docs/decisions.md
     * "GIF stickers"). Ignored for other images; past the GIF's last frame the render draws its
     * last.
     */
    gif_frame: z
      .number()
      .int()
      .min(0)
      .max(MAX_GIF_FRAMES - 1)
      .optional(),
    /**
     * A countdown sticker's settings (shared/scene/countdown.ts `CountdownSchema`); null for
     * every other sticker. Its parameter, if any, is an evergreen timer's start moment.
     */
    countdown: CountdownSchema.nullable().default(null),
    /**
     * A poll sticker's settings (shared/scene/poll.ts `PollSchema`; docs/polls.md); null for
     * every other sticker. Its parameter, if any, is unused: the voter is named by
     * `poll.voter_parameter`.
     */
    poll: PollSchema.nullable().default(null),
    /**
     * A weather sticker's settings (shared/scene/weather-sticker.ts; docs/weather.md "The weather
     * sticker"); null for every other sticker. Its parameter's value is the recipient's place;
     * the fallback (`dynamicStickerUrl`) a place for everyone else.
     */
    weather: WeatherStickerSchema.nullable().default(null),
    /** Colour filters of the sticker image (docs/decisions.md "The design document: versions and restore"). */
    filters: z.array(StickerFilterSchema).default([]),
    left: z.number(),
    top: z.number(),
    /** Always the top-left corner once restored (see above). */
    originX: z.enum(['left', 'center', 'right']).default('left'),
    originY: z.enum(['top', 'center', 'bottom']).default('top'),
    /** Intrinsic size, px, at most 4096 (design bounds). */
    width: stickerSize('width').default(512),
    height: stickerSize('height').default(512),
    /** At most 100, and the drawn size (size × scale) at most 4096 px (design bounds). */
    scaleX: stickerScale('scale x').default(0.1),
    scaleY: stickerScale('scale y').default(0.1),
    /** Degrees, 0–360. */
    angle: z.number().min(0).max(360).default(0),
  })
  .superRefine((sticker, ctx) => {
    // Reported on the scale, as a maximum, so that restoreDesign clamps the scale.
    const max = DESIGN_BOUNDS.stickerDrawnSize;
    for (const [size, scale] of [
      ['width', 'scaleX'],
      ['height', 'scaleY'],
    ] as const) {
      const intrinsic = sticker[size];
      if (!(intrinsic > 0) || !(intrinsic * sticker[scale] > max)) continue;
      ctx.addIssue({
        code: 'too_big',
        origin: 'number',
        maximum: max / intrinsic,
        inclusive: true,
        path: [scale],
        input: sticker[scale],
        message: `The sticker may not be drawn ${size === 'width' ? 'wider' : 'taller'} than ${max} px.`,
      });
    }
  });
export type Sticker = z.output<typeof StickerSchema>;

/** How many of the stickers are dynamic (the design bounds count them apart). */
const dynamicStickerCount = (stickers: Array<{ stickerType: string }>): number =>
  stickers.filter((s) => s.stickerType === 'dynamicSticker').length;

/** A merge tag the user picked on the export screen (docs/export.md "What Generate writes": "merge tag choice", docs/export.md). */
export const MergeTagChoiceSchema = z.looseObject({
  merge_tag_name: z.string(),
  merge_tag_value: z.string(),
  key: z.string().optional(),
});

/**
 * The render's JPEG encoder settings today (functions/render/renderer.ts, sharp's `.jpeg()`
 * options): quality 86 with sharp's defaults, baseline and 4:2:0 chroma, libjpeg-turbo (not
 * mozjpeg). A design without its own `quality` renders with exactly these, so no existing
 * render changes (test/unit/design-quality.test.ts).
 */
export const DEFAULT_RENDER_QUALITY = {
  quality: 86,
  progressive: false,
  chromaSubsampling: '4:2:0',
} as const;

/**
 * A design's JPEG output settings (docs/performance.md "Output quality"): `quality` 1–100 (a
 * whole number, sharp's scale), `progressive` scan order, `chromaSubsampling` '4:2:0' (colour at
 * half resolution, smaller) or '4:4:4' (full-resolution colour, sharper small coloured text).
 * Used for JPEG and for the JPEG inside a PDF; PNG is lossless and ignores it.
 */
export const RenderQualitySchema = z.object({
  quality: z.number().int().min(1).max(100).default(DEFAULT_RENDER_QUALITY.quality),
  progressive: z.boolean().default(DEFAULT_RENDER_QUALITY.progressive),
  chromaSubsampling: z.enum(['4:2:0', '4:4:4']).default(DEFAULT_RENDER_QUALITY.chromaSubsampling),
});
export type RenderQuality = z.output<typeof RenderQualitySchema>;

/**
 * The current version's document fields (docs/decisions.md "The design document: versions and
 * restore" PicSnippet content). Validates a document that is already at `CURRENT_SCHEMA_VERSION`;
 * `DesignDocumentSchema` also migrates older ones.
 */
export const DesignDocumentFieldsSchema = z.object({
  schemaVersion: z.literal(CURRENT_SCHEMA_VERSION).default(CURRENT_SCHEMA_VERSION),
  /** Library or upload image id of the base photo. */
  image_id: z.string().min(1),
  /** S3 key of the base photo in the assets bucket. */
  base_image_key: z.string().min(1),
  /** The base photo's own size, px; null when unknown (documents of version 1). */
  image_width: z.number().int().positive().nullable().default(null),
  image_height: z.number().int().positive().nullable().default(null),
  /**
   * 500 for a design imported from the old system that was last saved (`updated_at`, else
   * `created_at`) before 2018-02-24: its photo is drawn 500 px wide at the top left instead of
   * covering the canvas (docs/editor.md "Constants": "Base image scaling"; shared/scene/resolve.ts
   * `placeBasePhoto`). null for every other design. Set once by `restoreDesign`, never by edits.
   */
  legacy_base_image_width: z.literal(LEGACY_BASE_IMAGE_WIDTH).nullable().default(null),
  /**
   * The frame of an animated GIF base photo the design shows and the render draws (0 = the
   * first, what every older document shows), saved when playback is paused or stopped in the
   * editor (docs/decisions.md "GIF playback"). Ignored for other images; past the GIF's last
   * frame the render draws its last.
   */
  base_image_gif_frame: z
    .number()
    .int()
    .min(0)
    .max(MAX_GIF_FRAMES - 1)
    .default(0),
  /** Rotation of the base photo, degrees, 0–360 (drawn in quarter turns). */
  image_angle: z.number().min(0).max(360).default(0),
  /** Canvas size, px; default 900x600, width at most 1056 (docs/editor.md "Constants"), height at most 4096. */
  canvas_width: z
    .number()
    .int()
    .positive()
    .max(MAX_CANVAS_WIDTH, tooBig('canvas width', MAX_CANVAS_WIDTH))
    .default(DEFAULT_CANVAS.width),
  canvas_height: z
    .number()
    .int()
    .positive()
    .max(DESIGN_BOUNDS.canvasHeight, tooBig('canvas height', DESIGN_BOUNDS.canvasHeight))
    .default(DEFAULT_CANVAS.height),
  /** The unit the editor shows sizes in (docs/decisions.md "The design document: versions and restore", docs/editor.md "Constants"); storage stays in px. */
  size_option: z.enum(['px', 'in', 'mm', 'cm']).default('px'),
  flip_x: z.boolean().default(false),
  flip_y: z.boolean().default(false),
  /**
   * Filters switched on (docs/decisions.md "The design document: versions and restore": Grayscale,
   * Invert, Sepia, BlackWhite, Brownie, Vintage, Kodachrome, Technicolor, Polaroid), name → on.
   * Saved by `PUT …/effects`.
   */
  filters: z.record(z.string(), z.boolean()).default({}),
  /**
   * Enhancements, name → value (docs/decisions.md "The design document: versions and restore"):
   * Brightness, Contrast, Saturation (-1..1), Hue (-2..2), Blur (0..1); Sharpen and Emboss on/off
   * as 1/0. The renderer clamps the ranges.
   */
  enhance: z.record(z.string(), z.number()).default({}),
  /** Template tags (docs/decisions.md "The design document: versions and restore" `image_tags`, docs/decisions.md "The design document: versions and restore": "Template status in the save modal"). */
  image_tags: z.array(z.string()).default([]),
  /** Output format of the render URL without an extension: JPEG for photos. */
  render_format: z.enum(['jpeg', 'png']).default('jpeg'),
  /**
   * JPEG encoder settings of the render (`RenderQualitySchema`); absent in older documents,
   * which get today's values (`DEFAULT_RENDER_QUALITY`). A change is a save, which bumps the
   * design version and so the render cache key (functions/render/service.ts `renderCacheKey`).
   */
  quality: RenderQualitySchema.default(() => ({ ...DEFAULT_RENDER_QUALITY })),
  /**
   * Shows the team's watermark (its logo, set in team settings) over the design, placed by
   * shared/scene/watermark.ts (docs/decisions.md "Watermark"). Absent in older documents: off,
   * so no existing design changes.
   */
  show_watermark: z.boolean().default(false),
  /**
   * Only signed render URLs draw the design (docs/developer-api.md "Signed render URLs"): an
   * unsigned, tampered or expired URL gets the fallback image. Absent in older documents: off.
   * Changed by `PUT /api/pic-snippet/{id}/signing` (the export screen) or the full save.
   */
  require_signed_urls: z.boolean().default(false),
  /** At most 50 (design bounds). */
  text_snippets: z
    .array(TextSnippetSchema)
    .max(DESIGN_BOUNDS.textSnippets, tooMany('text snippets', DESIGN_BOUNDS.textSnippets))
    .default([]),
  /** Stickers, drawn beneath the text snippets, in order; at most 50, 10 of them dynamic. */
  graphics_data: z
    .array(StickerSchema)
    .max(DESIGN_BOUNDS.stickers, tooMany('stickers', DESIGN_BOUNDS.stickers))
    .refine((stickers) => dynamicStickerCount(stickers) <= DESIGN_BOUNDS.dynamicStickers, {
      message: `The stickers may not have more than ${DESIGN_BOUNDS.dynamicStickers} dynamic stickers.`,
    })
    // One poll per design: its vote links name no sticker (docs/polls.md "One poll per design").
    .refine((stickers) => stickers.filter((s) => s.dynamicStickerType === 'poll').length <= 1, {
      message: 'A design may have one poll.',
    })
    .default([]),
  /** Export settings (docs/export.md, docs/export.md "Saves": "Export and merge tags"). */
  merge_tag_provider: z.string().nullable().default(null),
  merge_tag_storefront: z.string().nullable().default(null),
  merge_tag_choices: z.array(MergeTagChoiceSchema).default([]),
  html_link_url: z.string().nullable().default(null),
  /**
   * The alt-text template (docs/export.md "Alt text"): text with `{{param}}` merge fields, at
   * most 500 characters; null (the default, older documents too) reads the texts joined
   * (shared/alt-text.ts `altTemplate`).
   */
  alt_text: z
    .string()
    .max(
      MAX_ALT_TEXT_LENGTH,
      `The alt text may not be greater than ${MAX_ALT_TEXT_LENGTH} characters.`,
    )
    .nullable()
    .default(null),
  /**
   * Rule sets (docs/rules.md): ordered rules, first match wins; none (older documents) draws
   * the design exactly as before. Evaluated by shared/scene/rules.ts `matchRule`.
   */
  rules: RulesSchema,
  /**
   * "Optimise for clicks" on the rules' random split (docs/optimiser.md "In the product"); null
   * (the default, and every older document without a migration: nothing changes) keeps the
   * hand-set ranges.
   */
  split_optimiser: SplitOptimiserSchema.nullable().default(null),
  /** Sticker uuids hidden unless the matching rule shows them (docs/rules.md "Variants"). */
  hidden_stickers: z.array(z.string().min(1)).max(DESIGN_BOUNDS.stickers).default([]),
  /**
   * Data bindings (docs/data-sources.md "Binding a design"): parameters filled at render time
   * from a team's data store or web API; none (older documents) looks nothing up.
   */
  data_bindings: DataBindingsSchema,
});

/**
 * A design document of any known schema version, migrated to the current one and validated
 * (no repairs: loads go through `restoreDesign`). For building documents in code and tests.
 */
export const DesignDocumentSchema = z.preprocess((raw) => {
  if (!isRecord(raw)) return raw;
  const from = storedSchemaVersion(raw);
  return from !== undefined && from < CURRENT_SCHEMA_VERSION
    ? migrateDesignDocument(raw, from).doc
    : raw;
}, DesignDocumentFieldsSchema);

export type DesignDocument = z.output<typeof DesignDocumentFieldsSchema>;
/** What `DesignDocumentSchema` accepts: the current fields, or an older version's. */
export type DesignDocumentInput = Omit<
  z.input<typeof DesignDocumentFieldsSchema>,
  'schemaVersion'
> & {
  schemaVersion?: number;
};

/**
 * Thrown by `restoreDesign` when a document cannot be made usable (not an object, written by a
 * newer version, no base image); `issues` are zod's (or zod-shaped) and say where.
 */
export class DesignRestoreError extends Error {
  constructor(
    message: string,
    readonly issues: z.core.$ZodIssue[],
  ) {
    super(message);
    this.name = 'DesignRestoreError';
  }
}

/**
 * The one restore path (docs/decisions.md "The design document: versions and restore"): validates,
 * migrates and repairs a stored or submitted design document so that it can be drawn and edited.
 * Pure; never mutates `raw`.
 *
 * Repairs, each reported as one human-readable line in `repaired`:
 * - numbers out of range are clamped (font size ≤ 80, stroke width 0–5, QR margin 0–20, canvas
 *   width ≤ 1056, docs/editor.md "Editing rules"; canvas height, sizes and scales to the design
 *   bounds) and angles are brought into 0–360; whole-px fields are rounded;
 * - over-long fallbacks are cut at 255 characters, over-long texts at 1000, and lists past
 *   the design bounds (`DESIGN_BOUNDS`) keep their first items (dynamic stickers past 10 are
 *   dropped); a sticker drawn larger than 4096 px gets the largest scale that fits;
 * - an invalid field that has a default gets the default;
 * - text snippets and stickers that cannot be drawn (missing geometry, no image, no dynamic
 *   type) are dropped rather than failing the whole design; so are unusable parameters;
 * - duplicate snippet ids, sticker uuids and parameter ids are renamed `…-2`, `…-3`;
 * - a minimum font size above the font size is lowered to it (docs/editor.md "Editing rules");
 * - parameters are re-linked to their snippet (`text_snippet_id`) and to their placeholder
 *   (a `{{original_param_name}}` left in the text after a rename is renamed too); a second
 *   parameter of the same name in a snippet and a parameter with no placeholder are removed;
 * - stickers saved with a centre or right/bottom origin get the equivalent top-left position.
 *
 * Restoring a restored document changes nothing and reports nothing.
 * @throws DesignRestoreError when the document cannot be made usable.
 */
export function restoreDesign(raw: unknown): { document: DesignDocument; repaired: string[] } {
  if (!isRecord(raw)) throw unusable('The design document is not an object.', []);
  const repaired: string[] = [];
  let doc: RawDocument = structuredClone(raw);
  let from = storedSchemaVersion(doc);
  if (from === undefined) {
    repaired.push(`schemaVersion ${show(doc.schemaVersion)} is not a version; read as version 1`);
    from = 1;
  }
  if (from > CURRENT_SCHEMA_VERSION)
    throw unusable(
      `The design document has schema version ${from}; this code reads up to ${CURRENT_SCHEMA_VERSION}.`,
      [{ code: 'custom', path: ['schemaVersion'], message: 'newer than this code', input: from }],
    );
  doc = migrateDesignDocument(doc, from).doc;
  if (doc.legacy_base_image_width === undefined) {
    const dated = legacyDate(doc);
    if (dated && baseImageScalingWidth(dated) === LEGACY_BASE_IMAGE_WIDTH) {
      doc.legacy_base_image_width = LEGACY_BASE_IMAGE_WIDTH;
      repaired.push(
        `base photo drawn ${LEGACY_BASE_IMAGE_WIDTH} px wide: last saved ${dated}, before ${LEGACY_SCALING_BEFORE} (spec 000 §9)`,
      );
    }
  }

  const base = DesignDocumentFieldsSchema.pick({ image_id: true, base_image_key: true });
  const baseCheck = base.safeParse(doc);
  if (!baseCheck.success) throw unusable('The design has no base image.', baseCheck.error.issues);

  doc.text_snippets = repairList(doc, 'text_snippets', 'text snippet', repaired, repairSnippet);
  const stickers = repairList(doc, 'graphics_data', 'sticker', repaired, repairSticker);
  doc.graphics_data = stickers && capDynamicStickers(stickers, repaired);
  const top = repairFields(doc, DesignDocumentFieldsSchema, 'design', repaired);
  if (typeof top === 'string') throw unusable(`The design document is unusable: ${top}.`, []);
  const parsed = DesignDocumentFieldsSchema.safeParse(top);
  if (!parsed.success) throw unusable('The design document is unusable.', parsed.error.issues);
  const document = parsed.data;
  repairLinks(document, repaired);
  return { document, repaired };
}

const parsedDocuments = new WeakMap<object, DesignDocument>();

/**
 * `restoreDesign(raw).document`, once per document object: the render service's design cache
 * hands the same object to every request for a second, so cache hits and the draw that follows
 * do not re-run zod on the hot path, and the renderer draws the repaired design.
 * @throws DesignRestoreError when the document cannot be made usable.
 */
export function parseDesignDocument(raw: unknown): DesignDocument {
  if (typeof raw !== 'object' || raw === null) return restoreDesign(raw).document;
  let doc = parsedDocuments.get(raw);
  if (!doc) {
    doc = restoreDesign(raw).document;
    parsedDocuments.set(raw, doc);
  }
  return doc;
}

/**
 * The canvas for a base photo (docs/editor.md "Constants": "Base image scaling": the photo covers
 * the canvas): `width` px wide (at most 1056), the height keeping the photo's aspect ratio; a photo
 * too tall for the design bounds (4096 px high) narrows the canvas instead.
 * @param width the canvas width wanted, px.
 * @param image the photo's own size, px; both > 0.
 */
export function canvasForPhoto(
  width: number,
  image: { width: number; height: number },
): { canvas_width: number; canvas_height: number } {
  let canvasWidth = Math.max(1, Math.min(MAX_CANVAS_WIDTH, Math.round(width)));
  let canvasHeight = Math.max(1, Math.round((image.height * canvasWidth) / image.width));
  if (canvasHeight > DESIGN_BOUNDS.canvasHeight) {
    canvasHeight = DESIGN_BOUNDS.canvasHeight;
    canvasWidth = Math.max(1, Math.round((canvasHeight * image.width) / image.height));
  }
  return { canvas_width: canvasWidth, canvas_height: canvasHeight };
}

/**
 * A new design's document (docs/decisions.md "Design API shapes" "Creating a design"): the base
 * photo, the canvas sized from it (its width capped at 1056 px, the height keeping the aspect
 * ratio; 900x600 when the photo's size is unknown, docs/editor.md "Constants"), and every other
 * field at its default.
 * @param init the photo's image id, assets-bucket key and size in px (0 when unknown).
 * @throws ZodError when `image_id` or `base_image_key` is empty.
 */
export function createDesignDocument(init: {
  image_id: string;
  base_image_key: string;
  image_width: number;
  image_height: number;
}): DesignDocument {
  const known = isPositive(init.image_width) && isPositive(init.image_height);
  const canvas = known
    ? canvasForPhoto(init.image_width, { width: init.image_width, height: init.image_height })
    : { canvas_width: DEFAULT_CANVAS.width, canvas_height: DEFAULT_CANVAS.height };
  return DesignDocumentFieldsSchema.parse({
    schemaVersion: CURRENT_SCHEMA_VERSION,
    image_id: init.image_id,
    base_image_key: init.base_image_key,
    image_width: known ? Math.round(init.image_width) : null,
    image_height: known ? Math.round(init.image_height) : null,
    ...canvas,
  });
}

// ---------------------------------------------------------------------------------------------
// Repairs (restoreDesign's helpers)

const isPositive = (n: number) => Number.isFinite(n) && n > 0;

/**
 * The old system's date of a document being imported (docs/decisions.md "The design document:
 * versions and restore" `updated_at`, else `created_at`; docs/editor.md "Constants" dates the
 * scaling by the update), as stored; undefined without one.
 */
function legacyDate(doc: RawDocument): string | undefined {
  for (const key of ['updated_at', 'created_at'] as const) {
    const value = doc[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return undefined;
}

function unusable(message: string, issues: z.core.$ZodIssue[]): DesignRestoreError {
  return new DesignRestoreError(message, issues);
}

/** A value shortened for a note. */
function show(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

/** Fields holding an angle in degrees: brought into 0–360 rather than clamped. */
const ANGLE_FIELDS = new Set(['angle', 'image_angle']);

/** `value` modulo 360, in [0, 360). */
const normaliseAngle = (value: number) => ((value % 360) + 360) % 360;

/**
 * Repairs one field named by a zod issue, in place.
 * @returns a note when it repaired, `undefined` when the field cannot be repaired.
 */
function repairField(
  value: RawDocument,
  issue: z.core.$ZodIssue,
  schema: z.ZodObject,
): string | undefined {
  const key = issue.path[0];
  if (typeof key !== 'string') return undefined;
  const current = value[key];
  if (issue.path.length > 1) {
    // Inside a list, a map or an object: drop the bad entry (an object's field then takes its
    // default); a missing required entry resets the whole field below.
    const entry = issue.path[1];
    if (Array.isArray(current) && typeof entry === 'number') {
      current.splice(entry, 1);
      return `${key}: entry ${entry} was invalid (${issue.message}); removed`;
    }
    if (isRecord(current) && typeof entry === 'string' && entry in current) {
      const bad = current[entry];
      delete current[entry];
      return `${key}: entry ${entry} ${show(bad)} was invalid; removed`;
    }
  } else if (typeof current === 'number' && Number.isFinite(current)) {
    if ((issue.code === 'too_big' || issue.code === 'too_small') && ANGLE_FIELDS.has(key)) {
      value[key] = normaliseAngle(current);
      return `${key} ${current} brought into 0–360 as ${String(value[key])}`;
    }
    if (issue.code === 'too_big' && issue.inclusive) {
      value[key] = Number(issue.maximum);
      return `${key} ${current} clamped to ${String(value[key])}`;
    }
    if (issue.code === 'too_small' && issue.inclusive) {
      value[key] = Number(issue.minimum);
      return `${key} ${current} clamped to ${String(value[key])}`;
    }
    if (issue.code === 'invalid_type' && issue.expected === 'int') {
      value[key] = Math.round(current);
      return `${key} ${current} rounded to ${String(value[key])}`;
    }
  } else if (typeof current === 'string' && issue.code === 'too_big') {
    value[key] = Array.from(current).slice(0, Number(issue.maximum)).join('');
    return `${key} cut to ${String(issue.maximum)} characters`;
  } else if (Array.isArray(current) && issue.code === 'too_big') {
    value[key] = current.slice(0, Number(issue.maximum));
    return `${key}: ${current.length} items cut to the first ${String(issue.maximum)}`;
  }
  if (current !== undefined && schema.shape[key]?.safeParse(undefined).success) {
    delete value[key];
    return `${key} ${show(current)} was invalid; reset to its default`;
  }
  return undefined;
}

/**
 * Repairs `value`'s fields in place until `schema` accepts it (one fix per pass, so list
 * indices in later issues stay right), noting each fix as `${what}: …`.
 * @returns the repaired value, or the reason it cannot be repaired.
 */
function repairFields(
  value: RawDocument,
  schema: z.ZodObject,
  what: string,
  repaired: string[],
): RawDocument | string {
  for (let pass = 0; pass < 100; pass++) {
    const result = schema.safeParse(value);
    if (result.success) return value;
    const issue = result.error.issues[0]!;
    const note = repairField(value, issue, schema);
    if (note === undefined) {
      const field = issue.path.join('.');
      return value[String(issue.path[0])] === undefined
        ? `no ${field}`
        : `${field} is invalid (${issue.message})`;
    }
    repaired.push(`${what}: ${note}`);
  }
  return 'too many invalid fields';
}

/** Repairs each item of the list `doc[key]`, dropping the items that cannot be repaired. */
function repairList(
  doc: RawDocument,
  key: string,
  what: string,
  repaired: string[],
  repairItem: (item: RawDocument, label: string, repaired: string[]) => RawDocument | string,
): unknown[] | undefined {
  const list = doc[key];
  if (list === undefined) return undefined;
  if (!Array.isArray(list)) {
    repaired.push(`design: ${key} ${show(list)} was not a list; emptied`);
    return [];
  }
  const kept: unknown[] = [];
  list.forEach((item: unknown, index) => {
    const label = `${what} ${isRecord(item) ? show(item.id ?? item.uuid ?? index) : index}`;
    const result = isRecord(item) ? repairItem(item, label, repaired) : 'not an object';
    if (typeof result === 'string') repaired.push(`${label} dropped: ${result}`);
    else kept.push(result);
  });
  return kept;
}

/** Repairs a text snippet and its parameters; the reason when it cannot be drawn. */
function repairSnippet(item: RawDocument, label: string, repaired: string[]): RawDocument | string {
  if (item.id === undefined && typeof item.uuid === 'string') {
    item.id = item.uuid;
    repaired.push(`${label}: id taken from uuid`);
  }
  if (typeof item.fontWeight === 'number' || /^\d+$/.test(String(item.fontWeight))) {
    const weight = Number(item.fontWeight);
    item.fontWeight = weight >= 600 ? 'bold' : 'normal';
    repaired.push(`${label}: fontWeight ${weight} read as ${item.fontWeight}`);
  }
  const parameters = repairList(item, 'parameters', `${label} parameter`, repaired, (p, l, r) =>
    repairFields(p, ParameterFieldsSchema, l, r),
  );
  if (parameters !== undefined) item.parameters = parameters;
  return repairFields(item, TextSnippetFieldsSchema, label, repaired);
}

/** Repairs a sticker; the reason when it cannot be drawn. */
function repairSticker(item: RawDocument, label: string, repaired: string[]): RawDocument | string {
  const fixed = repairFields(item, StickerSchema, label, repaired);
  if (typeof fixed === 'string') return fixed;
  const sticker = StickerSchema.parse(fixed);
  if (sticker.stickerType === 'dynamicSticker' && sticker.dynamicStickerType === null)
    return 'a dynamic sticker without a dynamicStickerType';
  if (sticker.dynamicStickerType === 'countdown' && sticker.countdown === null)
    return 'a countdown sticker without its settings';
  if (sticker.dynamicStickerType === 'poll' && sticker.poll === null)
    return 'a poll sticker without its settings';
  if (sticker.dynamicStickerType === 'weather' && sticker.weather === null)
    return 'a weather sticker without its settings';
  if (sticker.stickerType !== 'dynamicSticker' && sticker.url.trim() === '') return 'no image url';
  if (sticker.originX !== 'left' || sticker.originY !== 'top') {
    const { left, top } = topLeftOf(sticker);
    repaired.push(
      `${label}: origin ${sticker.originX}/${sticker.originY} converted to left/top (${round2(left)}, ${round2(top)})`,
    );
    return { ...fixed, left, top, originX: 'left', originY: 'top' };
  }
  return fixed;
}

/**
 * The stickers with the dynamic ones past the design bound (10, `DESIGN_BOUNDS`) dropped, in
 * order, each noted.
 */
function capDynamicStickers(stickers: unknown[], repaired: string[]): unknown[] {
  let dynamic = 0;
  return stickers.filter((sticker) => {
    if (!isRecord(sticker) || sticker.stickerType !== 'dynamicSticker') return true;
    dynamic += 1;
    if (dynamic <= DESIGN_BOUNDS.dynamicStickers) return true;
    repaired.push(
      `sticker ${show(sticker.uuid)} dropped: over ${DESIGN_BOUNDS.dynamicStickers} dynamic stickers`,
    );
    return false;
  });
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * The top-left corner of a sticker placed by another origin: fabric puts the origin point at
 * (left, top) and rotates the box around it, so the corner is that point minus the rotated
 * offset from the corner to the origin.
 */
function topLeftOf(sticker: Sticker): { left: number; top: number } {
  const w = sticker.width * sticker.scaleX;
  const h = sticker.height * sticker.scaleY;
  const ox = { left: 0, center: w / 2, right: w }[sticker.originX];
  const oy = { top: 0, center: h / 2, bottom: h }[sticker.originY];
  const rad = (sticker.angle * Math.PI) / 180;
  return {
    left: sticker.left - (ox * Math.cos(rad) - oy * Math.sin(rad)),
    top: sticker.top - (ox * Math.sin(rad) + oy * Math.cos(rad)),
  };
}

/** Renames duplicates `id-2`, `id-3`, … so every id is unique; notes each rename. */
function uniqueIds<T>(
  items: T[],
  get: (item: T) => string,
  set: (item: T, id: string) => void,
  what: string,
  repaired: string[],
): void {
  const seen = new Set(items.map(get));
  const taken = new Set<string>();
  for (const item of items) {
    const id = get(item);
    if (!taken.has(id)) {
      taken.add(id);
      continue;
    }
    let n = 2;
    while (seen.has(`${id}-${n}`)) n++;
    const renamed = `${id}-${n}`;
    seen.add(renamed);
    taken.add(renamed);
    set(item, renamed);
    repaired.push(`${what} ${show(id)}: duplicate id renamed ${show(renamed)}`);
  }
}

/** Placeholder names in a text, `{{ name }}` → `name`. */
const placeholders = (text: string): Set<string> =>
  new Set(Array.from(text.matchAll(MERGE_FIELD), (m) => m[1]!));

/** Renames the placeholder `{{ from }}` to `{{to}}` in a text. */
const renamePlaceholder = (text: string, from: string, to: string): string =>
  text.replace(MERGE_FIELD, (whole, name: string) => (name === from ? `{{${to}}}` : whole));

/** The repairs across objects of a parsed document, in place: ids, sizes and parameter links. */
function repairLinks(document: DesignDocument, repaired: string[]): void {
  const snippets = document.text_snippets;
  uniqueIds(
    snippets,
    (s) => s.id,
    (s, id) => (s.id = id),
    'text snippet',
    repaired,
  );
  uniqueIds(
    document.graphics_data,
    (s) => s.uuid,
    (s, id) => (s.uuid = id),
    'sticker',
    repaired,
  );
  uniqueIds(
    snippets.flatMap((s) => s.parameters),
    (p) => p.id,
    (p, id) => (p.id = id),
    'parameter',
    repaired,
  );
  for (const snippet of snippets) {
    const label = `text snippet ${show(snippet.id)}`;
    if (snippet.minFontSize > snippet.fontSize) {
      repaired.push(
        `${label}: minFontSize ${snippet.minFontSize} lowered to the font size ${snippet.fontSize}`,
      );
      snippet.minFontSize = snippet.fontSize;
    }
    const names = new Set<string>();
    snippet.parameters = snippet.parameters.filter((parameter) => {
      const name = parameter.param_name;
      if (names.has(name)) {
        repaired.push(`${label}: second parameter named ${show(name)} removed`);
        return false;
      }
      names.add(name);
      if (parameter.text_snippet_id !== snippet.id) {
        repaired.push(`${label}: parameter ${show(name)} re-linked to its snippet`);
        parameter.text_snippet_id = snippet.id;
      }
      return true;
    });
    let inText = placeholders(snippet.text);
    snippet.parameters = snippet.parameters.filter((parameter) => {
      const name = parameter.param_name;
      if (inText.has(name) || parameter.dynamicStickerParamName !== null) return true;
      const old = parameter.original_param_name;
      if (old !== name && inText.has(old) && !names.has(old)) {
        snippet.text = renamePlaceholder(snippet.text, old, name);
        snippet.original_text = renamePlaceholder(snippet.original_text, old, name);
        inText = placeholders(snippet.text);
        repaired.push(`${label}: placeholder {{${old}}} re-linked to parameter ${show(name)}`);
        return true;
      }
      repaired.push(`${label}: parameter ${show(name)} has no {{${name}}} in the text; removed`);
      return false;
    });
  }
}
