/**
 * The contract of the `fonts` routes (shared/routes.ts; docs/fonts.md "Uploads": "Images, stickers,
 * fonts", docs/fonts.md "The catalogue" Fonts, docs/adr/0023-team-roles.md "Team roles"
 * `can_upload_custom_fonts`; docs/fonts.md): the picker's font list, the team's uploaded fonts and
 * the upload. `POST /storeFont` is multipart (the file in `file`), so it declares its answer only.
 * The font shapes are shared/fonts/types.ts's.
 */
import { z } from 'zod';
import type { FontCategory, FontGroup } from '../fonts/types.ts';
import { defineContract } from './core.ts';

/** A family's category (docs/fonts.md "The catalogue"). */
const FontCategorySchema = z.enum([
  'sans-serif',
  'serif',
  'display',
  'handwriting',
  'monospace',
]) satisfies z.ZodType<FontCategory>;

/** A group of the font picker's category select (docs/fonts.md "The catalogue": label, weight, options). */
export const FontGroupSchema = z.object({
  label: z.string(),
  /** Sort order: lower first. */
  weight: z.number(),
  options: z.array(
    z.object({
      family: z.string(),
      category: FontCategorySchema,
      /** Listed but not selectable (docs/fonts.md "Limits and known gaps": USPS IMB Standard). */
      disabled: z.boolean().optional(),
    }),
  ),
}) satisfies z.ZodType<FontGroup>;

/**
 * docs/fonts.md "Uploads" `customFonts`: the team's uploaded fonts' family names and, index by
 * index, the same-origin path of each file (`/files/fonts/custom/…`).
 */
export const CustomFontsSchema = z.object({
  names: z.array(z.string()),
  path: z.array(z.string()),
});
export type CustomFonts = z.infer<typeof CustomFontsSchema>;

/** The team's uploaded fonts and the folder of their files (docs/fonts.md "Uploads" `fontsPath`). */
const TeamFonts = z.object({
  success: z.literal(true),
  customFonts: CustomFontsSchema,
  fontsPath: z.string(),
});

/** The `fonts` routes' contracts, by route key. */
export const FONTS_CONTRACT = {
  'GET /api/fonts': defineContract({
    answer: z.object({
      success: z.literal(true),
      /** Built-in first, then one group per category. */
      groups: z.array(FontGroupSchema),
      /** The CDN the catalogue's other families load from, when one is configured. */
      cdnUrl: z.string().nullable(),
    }),
  }),
  'GET /getCustomFonts': defineContract({ answer: TeamFonts }),
  'POST /storeFont': defineContract({
    /** Multipart: `file` (.ttf, .otf, .woff). */
    answer: TeamFonts.extend({
      /** The family name read from the font. */
      fontName: z.string(),
      fontPath: z.string(),
      message: z.string(),
    }),
    /** 201 for a new font; 200 when the same file was already uploaded. */
    status: 201,
    /** 402 without `can_upload_custom_fonts` (Pro plans; docs/adr/0023-team-roles.md "Team roles"). */
    errors: [402],
  }),
} as const;
