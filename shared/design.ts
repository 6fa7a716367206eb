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
  /** Output format of the render URL without an extension: JPEG for photos (issue: render §6). */
  render_format: z.enum(['jpeg', 'png']).default('jpeg'),
  text_snippets: z.array(TextSnippetSchema).default([]),
});
export type DesignDocument = z.infer<typeof DesignDocumentSchema>;
export type DesignDocumentInput = z.input<typeof DesignDocumentSchema>;
