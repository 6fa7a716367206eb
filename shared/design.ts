/**
 * The design document (a "PicSnippet", spec 000 §3) as zod schemas: the saved data of a design,
 * never fabric's `toObject()` output (STYLE.md "the scene is data"). The render service and the
 * editor both draw from it through `shared/scene`.
 *
 * This is the foundation's slice: the fields the renderer draws today. The designs issue adds
 * the remaining spec 000 §3 fields, `restoreDesign` repairs and the migration list.
 */
import { z } from 'zod';

/** Text transform options, name / key (spec 000 §3). */
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

/** A parameter (merge field) of a text snippet; a blank default is stored as one space (spec 000 §3). */
export const ParameterSchema = z.object({
  id: z.string().min(1),
  param_name: z.string().min(1),
  param_default_value: z.string().max(255).default(' '),
  text_transform: TextTransformSchema.default({
    checkFormating: false,
    formatOptionKey: null,
    formatOptionName: null,
  }),
});
export type Parameter = z.infer<typeof ParameterSchema>;

/** A text snippet: geometry in canvas px, font size in px (spec 000 §3, defaults from there). */
export const TextSnippetSchema = z.object({
  id: z.string().min(1),
  /** Text with `{{param}}` placeholders. */
  text: z.string(),
  fontFamily: z.string().default('Journal'),
  fontStyle: z.enum(['normal', 'italic']).default('normal'),
  fontWeight: z.enum(['normal', 'bold']).default('normal'),
  underline: z.boolean().default(false),
  textAlign: z.enum(['left', 'center', 'right']).default('left'),
  angle: z.number().min(0).max(360).default(0),
  fill: z.string().default('black'),
  stroke: z.string().nullable().default(null),
  strokeWidth: z.number().min(0).max(5).default(0),
  fontSize: z.number().positive().max(80).default(32),
  /** Shrink-until size; half the font size by default (spec 000 §3). */
  minFontSize: z.number().positive().optional(),
  linked: z.boolean().default(true),
  left: z.number(),
  top: z.number(),
  /** Box width the text wraps in, px. */
  width: z.number().positive(),
  parameters: z.array(ParameterSchema).default([]),
});
export type TextSnippet = z.infer<typeof TextSnippetSchema>;

/** Dynamic sticker kinds (spec 000 §3) and their parameter-name prefixes (spec 000 §5). */
export const DYNAMIC_STICKER_PREFIX = {
  qrCode: 'qrCode',
  gravatar: 'Gravatar',
  hostedImage: 'hostedIcon',
  screenShot: 'screenIcon',
} as const;
export type DynamicStickerType = keyof typeof DYNAMIC_STICKER_PREFIX;

/**
 * A sticker on the canvas (spec 000 §3 `graphics_data`). Geometry in canvas px with a top-left
 * origin: the intrinsic size (512 by default; 910x512 for screenshots, spec 000 §9) times the
 * scale, rotated by `angle` degrees around the top-left corner (fabric's origin).
 *
 * Dynamic stickers take their value from the parameter `dynamicStickerParamName`, else from the
 * fallback `dynamicStickerUrl` (a URL, an e-mail for gravatar, any text for QR).
 */
export const StickerSchema = z.object({
  uuid: z.string().min(1),
  type: z.literal('stickers').default('stickers'),
  stickerType: z.enum(['plain', 'upload', 'dynamicSticker']).default('plain'),
  /** Image of a plain or uploaded sticker: an assets-bucket key or an https URL. */
  url: z.string().default(''),
  dynamicStickerType: z
    .enum(['qrCode', 'hostedImage', 'screenShot', 'gravatar'])
    .nullable()
    .default(null),
  dynamicStickerParamName: z.string().nullable().default(null),
  /** The dynamic sticker's fallback value (spec 000 §5 validations). */
  dynamicStickerUrl: z.string().max(255).default(''),
  /** Screenshot device: mobile 910x512, else desktop. */
  isMobile: z.boolean().default(false),
  /** QR colour; #111111 (spec 000 §9, the reading that serves users: near-black scans well). */
  qrCodeColor: z.string().default('#111111'),
  /** QR quiet zone in modules, 0–20 (spec 000 §5), default 0. */
  marginSize: z.number().int().min(0).max(20).default(0),
  isTransparent: z.boolean().default(false),
  left: z.number(),
  top: z.number(),
  width: z.number().positive().default(512),
  height: z.number().positive().default(512),
  scaleX: z.number().positive().default(0.1),
  scaleY: z.number().positive().default(0.1),
  angle: z.number().min(0).max(360).default(0),
});
export type Sticker = z.infer<typeof StickerSchema>;

export const DesignDocumentSchema = z.object({
  schemaVersion: z.literal(1).default(1),
  /** Library or upload image id of the base photo. */
  image_id: z.string().min(1),
  /** S3 key of the base photo in the assets bucket. */
  base_image_key: z.string().min(1),
  /** Canvas size, px; default 900x600, width at most 1056 (spec 000 §9). */
  canvas_width: z.number().int().positive().max(1056).default(900),
  canvas_height: z.number().int().positive().default(600),
  size_option: z.enum(['px', 'in', 'mm', 'cm']).default('px'),
  flip_x: z.boolean().default(false),
  flip_y: z.boolean().default(false),
  image_angle: z.number().default(0),
  /**
   * Filters switched on (spec 000 §3: Grayscale, Invert, Sepia, BlackWhite, Brownie, Vintage,
   * Kodachrome, Technicolor, Polaroid), name → on. Saved by `PUT …/effects`.
   */
  filters: z.record(z.string(), z.boolean()).default({}),
  /**
   * Enhancements, name → value (spec 000 §3): Brightness, Contrast, Saturation (-1..1), Hue
   * (-2..2), Blur (0..1); Sharpen and Emboss on/off as 1/0.
   */
  enhance: z.record(z.string(), z.number()).default({}),
  /** Output format of the render URL without an extension: JPEG for photos (issue: render §6). */
  render_format: z.enum(['jpeg', 'png']).default('jpeg'),
  text_snippets: z.array(TextSnippetSchema).default([]),
  /** Stickers, drawn beneath the text snippets, in order. */
  graphics_data: z.array(StickerSchema).default([]),
});
export type DesignDocument = z.infer<typeof DesignDocumentSchema>;
export type DesignDocumentInput = z.input<typeof DesignDocumentSchema>;

const parsed = new WeakMap<object, DesignDocument>();

/**
 * Validates a stored design document (applying defaults), once per document object: the render
 * service's design cache hands the same object to every request for a second, so cache hits
 * and the draw that follows do not re-run zod on the hot path.
 * @throws ZodError when the document is invalid.
 */
export function parseDesignDocument(raw: unknown): DesignDocument {
  if (typeof raw !== 'object' || raw === null) return DesignDocumentSchema.parse(raw);
  let doc = parsed.get(raw);
  if (!doc) {
    doc = DesignDocumentSchema.parse(raw);
    parsed.set(raw, doc);
  }
  return doc;
}
