/**
 * The design document's fields (docs/adr/0014-the-design-document-versions-and-restore.md "The
 * design document: versions and restore"): what is drawn and the export settings; a new design's
 * document and the canvas for a photo.
 */
import { z } from 'zod';
import {
  CURRENT_SCHEMA_VERSION,
  isRecord,
  migrateDesignDocument,
  storedSchemaVersion,
} from '../design-migrations.ts';
import { LEGACY_BASE_IMAGE_WIDTH } from '../scene/resolve.ts';
import { RulesSchema, SplitOptimiserSchema } from '../scene/rules.ts';
import { DataBindingsSchema } from '../data-bindings.ts';
import { MAX_GIF_FRAMES } from '../gif.ts';
import {
  DEFAULT_CANVAS,
  DESIGN_BOUNDS,
  MAX_ALT_TEXT_LENGTH,
  MAX_CANVAS_WIDTH,
  tooBig,
  tooMany,
  isPositive,
} from './bounds.ts';
import { TextSnippetSchema } from './text-snippet.ts';
import { StickerSchema, dynamicStickerCount } from './sticker.ts';

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
 * The current version's document fields (docs/adr/0014-the-design-document-versions-and-restore.md
 * "The design document: versions and restore" PicSnippet content). Validates a document that is
 * already at `CURRENT_SCHEMA_VERSION`; `DesignDocumentSchema` also migrates older ones.
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
   * editor (docs/adr/0059-gif-playback.md "GIF playback"). Ignored for other images; past the GIF's
   * last frame the render draws its last.
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
  /** The unit the editor shows sizes in (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore", docs/editor.md "Constants"); storage stays in px. */
  size_option: z.enum(['px', 'in', 'mm', 'cm']).default('px'),
  flip_x: z.boolean().default(false),
  flip_y: z.boolean().default(false),
  /**
   * Filters switched on (docs/adr/0014-the-design-document-versions-and-restore.md "The design
   * document: versions and restore": Grayscale, Invert, Sepia, BlackWhite, Brownie, Vintage,
   * Kodachrome, Technicolor, Polaroid), name → on. Saved by `PUT …/effects`.
   */
  filters: z.record(z.string(), z.boolean()).default({}),
  /**
   * Enhancements, name → value (docs/adr/0014-the-design-document-versions-and-restore.md "The
   * design document: versions and restore"): Brightness, Contrast, Saturation (-1..1), Hue (-2..2),
   * Blur (0..1); Sharpen and Emboss on/off as 1/0. The renderer clamps the ranges.
   */
  enhance: z.record(z.string(), z.number()).default({}),
  /** Template tags (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore" `image_tags`, "Template status in the save modal"). */
  image_tags: z.array(z.string()).default([]),
  /** Output format of the render URL without an extension: JPEG for photos. */
  render_format: z.enum(['jpeg', 'png']).default('jpeg'),
  /**
   * JPEG encoder settings of the render (`RenderQualitySchema`); absent in older documents,
   * which get today's values (`DEFAULT_RENDER_QUALITY`). A change is a save, which bumps the
   * design version and so the render cache key (functions/render/cache-key.ts `renderCacheKey`).
   */
  quality: RenderQualitySchema.default(() => ({ ...DEFAULT_RENDER_QUALITY })),
  /**
   * Shows the team's watermark (its logo, set in team settings) over the design, placed by
   * shared/scene/watermark.ts (docs/adr/0057-watermark.md "Watermark"). Absent in older documents:
   * off, so no existing design changes.
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
 * A new design's document (docs/adr/0019-design-api-shapes.md "Design API shapes" "Creating a
 * design"): the base photo, the canvas sized from it (its width capped at 1056 px, the height
 * keeping the aspect ratio; 900x600 when the photo's size is unknown, docs/editor.md "Constants"),
 * and every other field at its default.
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
