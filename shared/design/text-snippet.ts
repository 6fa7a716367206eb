/**
 * Text snippets and their parameters (merge fields): text transforms, fallbacks, the snippet
 * geometry in canvas px and font sizes in px
 * (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and
 * restore").
 */
import { z } from 'zod';
import { MAX_VALUE_LENGTH } from '../scene/resolve.ts';
import {
  DEFAULT_FONT_SIZE,
  DESIGN_BOUNDS,
  MAX_FONT_SIZE,
  blankAsSpace,
  halfFontSize,
  tooBig,
  tooLong,
  tooMany,
} from './bounds.ts';

/** Text transform options, name / key (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore"). */
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
 * A parameter's own fields (docs/adr/0014-the-design-document-versions-and-restore.md "The design
 * document: versions and restore"), without the defaults that depend on other fields;
 * `ParameterSchema` adds those. Use this one for `.shape`, `.pick` or `.partial`.
 */
export const ParameterFieldsSchema = z.object({
  /** A uuid. */
  id: z.string().min(1),
  /** The merge field's name, `{{param_name}}` in the snippet's text (docs/editor.md "Editing rules" rules). */
  param_name: z.string().min(1),
  /** The name before the last rename; defaults to `param_name`. */
  original_param_name: z.string().min(1).optional(),
  /** The fallback, at most 255 characters; a blank one is stored as `' '` (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore", docs/editor.md "Editing rules"). */
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

/** A parameter (merge field) of a text snippet (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore"); `original_param_name` defaults to the name. */
export const ParameterSchema = ParameterFieldsSchema.transform((p) => ({
  ...p,
  original_param_name: p.original_param_name ?? p.param_name,
}));
export type Parameter = z.output<typeof ParameterSchema>;

/** A snippet's display data as the editor saves it (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore" `display_info`); opaque here. */
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
 * A text snippet's own fields (docs/adr/0014-the-design-document-versions-and-restore.md "The
 * design document: versions and restore", defaults from there); `TextSnippetSchema` adds the
 * defaults that depend on other fields. Use this one for `.shape`, `.pick` or `.partial`.
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
   * by default, never above the font size
   * (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and
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
  /** Wrap toggle of the selection overlay (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore"). */
  textWrap: z.boolean().default(true),
  /** Font size and minimum font size move together (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore": "Linked font sizes"). */
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
 * A text snippet: geometry in canvas px, font size in px
 * (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and
 * restore"). `minFontSize` defaults to half the font size, `original_text` to the text, and each
 * parameter's `text_snippet_id` to the snippet's id.
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
