/**
 * The contract of the `designs` routes (shared/routes.ts; docs/adr/0044-the-api-contract.md "The
 * API contract" and docs/adr/0019-design-api-shapes.md "Design API shapes"): what each takes and
 * answers. The dashboard, the show page, the editor and the export screen read these answers;
 * functions/designs parses its input with these schemas.
 *
 * Conventions: sizes in px, dates ISO 8601 strings (UTC), `version` the optimistic lock (a
 * write with a stale one answers 409 `{ message, version }`).
 */
import { AnalyticsQuerySchema, AnalyticsReportSchema } from './analytics.ts';
import { z } from 'zod';
import { longHexColour } from '../colour.ts';
import { DesignDocumentFieldsSchema } from '../design.ts';
import { FALLBACK_MESSAGES } from '../dynamic-stickers.ts';
import { ENHANCE_RANGES, FILTER_NAMES, type EnhanceName } from '../effects.ts';
import { EXPORT_MESSAGES } from '../export-url.ts';
import { PARAMETER_MESSAGES } from '../parameter-rules.ts';
import { PROVIDER_VALUES } from '../providers/index.ts';
import { MAX_VALUE_LENGTH } from '../scene/resolve.ts';
import { CountdownSchema } from '../scene/countdown.ts';
import { PollSchema } from '../scene/poll.ts';
import { WeatherStickerSchema } from '../scene/weather-sticker.ts';
import { defineContract, IdParams } from './core.ts';

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

/** The optional optimistic-lock version of a write (docs/adr/0019-design-api-shapes.md "Design API shapes"). */
export const Version = z.number().int().positive().optional();

/** The dashboard sorts (docs/adr/0020-dashboard-spa.md "Dashboard SPA": "sortby: empty = last updated, created, name, views"). */
export const SORTS = ['', 'created', 'name', 'views'] as const;
export type Sort = (typeof SORTS)[number];

/**
 * The query string of a list call: `sortby` (empty = last updated) and `page` (1 = first;
 * docs/editor.md "Constants": "later pages start at 2"), and the `cursor` the previous page
 * answered.
 */
export const ListQuerySchema = z.object({
  sortby: z.enum(SORTS, { error: 'The selected sortby is invalid.' }).default(''),
  page: z.coerce
    .number({ error: 'The page must be an integer.' })
    .int('The page must be an integer.')
    .min(1, 'The page must be at least 1.')
    .default(1),
  cursor: z.string().max(2048, 'The cursor is invalid.').optional(),
});
export type ListQuery = z.infer<typeof ListQuerySchema>;

/** The messages of the sticker calls: the spec's fallback ones (docs/editor.md "Editing rules") and the call's own. */
export const STICKER_MESSAGES = {
  ...FALLBACK_MESSAGES,
  notFound: 'The selected sticker is invalid.',
  notQrCode: 'The selected sticker is not a QR code.',
  colour: 'The QR code colour must be a hex colour such as #111111.',
} as const;

/** A hex colour as {@link longHexColour} reads it, stored as `#rrggbb`. */
export const HexColourSchema = z
  .string()
  .regex(/^#(?:[0-9a-f]{2}|[0-9a-f]{3}|[0-9a-f]{6})$/i, STICKER_MESSAGES.colour)
  .transform((colour) => longHexColour(colour)!);

/** Sticker id of the sticker calls (`stickerId`, or the sticker's `uuid`). */
export const StickerRef = z
  .object({ stickerId: z.string().min(1).optional(), uuid: z.string().min(1).optional() })
  .refine((b) => b.stickerId ?? b.uuid, {
    message: 'The sticker id field is required.',
    path: ['stickerId'],
  })
  .transform((b) => ({ stickerId: (b.stickerId ?? b.uuid)! }));

/** What `saveGeneratedDynamicSticker` accepts: a sticker, geometry optional. */
export const GeneratedStickerSchema = z.looseObject({
  uuid: z.string().min(1).max(100),
  dynamicStickerType: z.enum([
    'qrCode',
    'hostedImage',
    'screenShot',
    'gravatar',
    'countdown',
    'poll',
    'weather',
  ]),
  dynamicStickerUrl: z.string().default(''),
  /** A countdown's settings (shared/scene/countdown.ts `CountdownSchema`); absent: the defaults. */
  countdown: CountdownSchema.nullish(),
  /** A poll's settings (shared/scene/poll.ts `PollSchema`); absent: a new poll's (`newPoll`). */
  poll: PollSchema.nullish(),
  /**
   * A weather sticker's settings (shared/scene/weather-sticker.ts `WeatherStickerSchema`);
   * absent: the defaults.
   */
  weather: WeatherStickerSchema.nullish(),
  left: z.number().optional(),
  top: z.number().optional(),
});

/** A filter value: on/off, also as 1/0 (the spec's entries of text and value). */
const FilterValue = z
  .union([z.boolean(), z.literal(0), z.literal(1)])
  .transform((v) => v === true || v === 1);

/** The body of the effects call: either map, or both. */
export const EffectsSchema = z.object({
  filters: z
    .record(z.string(), FilterValue)
    .superRefine((map, ctx) => {
      for (const name of Object.keys(map)) {
        if (!(FILTER_NAMES as readonly string[]).includes(name)) {
          ctx.addIssue({ code: 'custom', path: [name], message: `The filter ${name} is unknown.` });
        }
      }
    })
    .optional(),
  enhance: z
    .record(z.string(), z.number({ error: 'An enhancement value must be a number.' }))
    .superRefine((map, ctx) => {
      for (const [name, value] of Object.entries(map)) {
        const range = ENHANCE_RANGES[name as EnhanceName] as readonly [number, number] | undefined;
        if (!range) {
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: `The enhancement ${name} is unknown.`,
          });
        } else if (value < range[0] || value > range[1]) {
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: `The ${name} must be between ${range[0]} and ${range[1]}.`,
          });
        }
      }
    })
    .optional(),
});

/** Messages of the export saves; the spec's where it gives one (docs/accounts.md "Validation rules"). */
export const EXPORT_SAVE_MESSAGES = {
  provider: 'The selected platform is invalid.',
  storefront: 'The selected store front is invalid.',
  valueTooLong: PARAMETER_MESSAGES.valueTooLong,
  unknownParameter: 'This parameter is no longer in the PicSnippet. Reload the export screen.',
  link: EXPORT_MESSAGES.linkInvalid,
  linkTooLong: 'The link may not be greater than 2048 characters.',
} as const;

/** A value the export screen saves: a merge tag or typed text (checked for length later). */
const Value = z.string().nullish();

/** `PUT …/provider`: the platform and, for Klaviyo, its store front (docs/export.md "Saves"). */
export const ProviderBody = z.looseObject({
  version: Version,
  /** Null or '' is Custom (docs/export.md "What Generate writes": "Custom (empty value)"). */
  merge_tag_provider: z
    .string({ error: EXPORT_SAVE_MESSAGES.provider })
    .nullable()
    .refine((v) => v === null || (PROVIDER_VALUES as readonly string[]).includes(v), {
      message: EXPORT_SAVE_MESSAGES.provider,
    }),
  merge_tag_storefront: z.string().nullish(),
});

/** `PUT …/choices`: the merge tags and typed values chosen on the export screen. */
export const ChoicesBody = z.looseObject({
  version: Version,
  merge_tag_choices: z
    .array(
      z.looseObject({
        merge_tag_name: z
          .string()
          .max(MAX_VALUE_LENGTH, EXPORT_SAVE_MESSAGES.valueTooLong)
          .default(''),
        merge_tag_value: Value,
        key: z.string().min(1),
      }),
    )
    .optional(),
  text_snippets: z
    .array(
      z.looseObject({
        parameters: z
          .array(z.looseObject({ id: z.string().min(1), merge_tag_value: Value }))
          .default([]),
      }),
    )
    .optional(),
});

/** `PUT …/link`: the link around the exported image (http(s), checked by the handler). */
export const LinkBody = z.looseObject({
  version: Version,
  html_link_url: z.string().nullish(),
});

/** `POST /api/pic-snippet`: a new design on a library or upload photo. */
export const CreateDesignBody = z
  .object({
    image_id: z.string({ error: 'The image id field is required.' }).trim().min(1, {
      error: 'The image id field is required.',
    }),
    title: z.string().nullish(),
  })
  .meta({ example: { image_id: 'library-autumn', title: 'Welcome e-mail' } });

/** `PUT /api/pic-snippet/{id}`: the title and/or document fields (a full save). */
export const SaveDesignBody = z
  .looseObject({ version: Version, title: z.string().nullish() })
  .meta({ example: { version: 3, title: 'Welcome e-mail, spring' } });

/** `PUT …/pso`: the title, one text snippet (replaced by id or added), or all of them. */
export const SaveSnippetsBody = z.object({
  version: Version,
  title: z.string().nullish(),
  /** One text snippet, replaced by id or added. */
  snippet: z.record(z.string(), z.unknown()).optional(),
  /** All text snippets. */
  text_snippets: z.array(z.unknown()).optional(),
});

/** `PUT …/archive`, `PUT …/unarchive`. */
export const StatusBody = z.object({ version: Version }).meta({ example: { version: 3 } });

/** `PUT …/replace`: a new base photo. */
export const ReplaceBody = z.object({
  version: Version,
  imageId: z.string({ error: 'The image id field is required.' }).min(1, {
    error: 'The image id field is required.',
  }),
});

/** `PUT …/saveImageId`: the image id of the base photo (either spelling). */
export const SaveImageIdBody = z
  .object({
    version: Version,
    image_id: z.string().min(1).optional(),
    imageId: z.string().min(1).optional(),
  })
  .refine((b) => b.image_id ?? b.imageId, {
    message: 'The image id field is required.',
    path: ['image_id'],
  });

/** `PUT …/effects`. */
export const EffectsBody = EffectsSchema.extend({ version: Version });

/** `PUT …/options`: size option, flips, angle, canvas size (px) and render format. */
export const OptionsBody = DesignDocumentFieldsSchema.pick({
  size_option: true,
  flip_x: true,
  flip_y: true,
  image_angle: true,
  canvas_width: true,
  canvas_height: true,
  render_format: true,
})
  .partial()
  .extend({ version: Version });

/** `PUT /pic-snippet/{id}/qrCodeColor`. */
export const QrCodeColorBody = z.intersection(
  StickerRef,
  z.object({ version: Version, qrCodeColor: HexColourSchema }),
);

/** `PUT …/qrCode`: a QR code's fallback value, colour, margin and transparency. */
export const QrCodeBody = z.intersection(
  StickerRef,
  z.object({
    version: Version,
    /** The QR code's fallback value (docs/editor.md "Editing rules": a QR code with no value uses a default). */
    dynamicStickerUrl: z.string().optional(),
    qrCodeColor: HexColourSchema.optional(),
    marginSize: z.number().int().min(0).max(20).optional(),
    isTransparent: z.boolean().optional(),
    newQrDataUrl: z.string().max(100_000).nullable().optional(),
  }),
);

/** `POST …/gravatarMail`: a gravatar sticker's fallback e-mail. */
export const GravatarMailBody = z.intersection(
  StickerRef,
  z.object({
    version: Version,
    email: z.string({ error: 'Invalid email' }).trim(),
  }),
);

/** `POST …/saveGeneratedDynamicSticker`. */
export const GeneratedStickerBody = z.object({ version: Version, sticker: GeneratedStickerSchema });

/** `POST …/saveScreenShotType`: a screenshot sticker's viewport (mobile or desktop). */
export const ScreenShotTypeBody = z.object({
  version: Version,
  stickerId: z.string({ error: 'The sticker id field is required.' }).min(1),
  isMobile: z.boolean({ error: 'The is mobile field must be true or false.' }),
  dynamicStickerType: z.literal('screenShot', {
    error: 'The selected sticker is not a screenshot.',
  }),
});

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

/**
 * A dashboard card (functions/designs/views.ts `designCard`; docs/adr/0020-dashboard-spa.md
 * "Dashboard SPA"). URLs are absolute (`base_url`, `preview_url`: they go into e-mails) or paths on
 * this origin (the rest).
 */
export const DesignCardSchema = z.object({
  id: z.string(),
  public_id: z.string(),
  title: z.string(),
  version: z.number().int(),
  status: z.enum(['active', 'archived']),
  isTemplate: z.boolean(),
  /**
   * Views (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions
   * and restore" `counter`): opens, the render URL's answers to anyone but a mail image proxy
   * (docs/performance.md "Opens and proxy fetches").
   */
  counter: z.number(),
  /**
   * The render URL's answers to mail image proxies (Gmail, Yahoo, Outlook, Apple Mail Privacy
   * Protection): prefetches and proxied opens, which cannot be told apart. Optional so answers
   * without it still parse; absent means 0 (the server always sends it).
   */
  proxy_fetches: z.number().int().nonnegative().optional(),
  /**
   * When the render last added to the counts (ISO 8601), null when it never has (docs/analytics.md
   * "Counts on the dashboard"): they are written in batches, so they trail the opens a little.
   * Optional so answers without it still parse.
   */
  counted_at: z.string().nullable().optional(),
  /**
   * The campaign the design is in (docs/analytics.md "Campaigns"), null for none. Optional so
   * answers without it still parse; absent means none.
   */
  campaign: z.string().nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  archived_at: z.string().nullable(),
  base_url: z.string(),
  preview_url: z.string(),
  showurl: z.string(),
  editurl: z.string(),
  archiveurl: z.string(),
  unarchiveurl: z.string(),
});
export type DesignCard = z.infer<typeof DesignCardSchema>;

/**
 * The full design (functions/designs/views.ts `designView`): the card's fields, the document's
 * fields at the top level with their defaults, and the URL of the base photo (null when it is
 * not served). The document's own shape is shared/design.ts's; the answer keeps it loose so a
 * field added there needs no second declaration here.
 */
export const DesignSchema = DesignCardSchema.extend({
  base_image_url: z.string().nullable(),
  image_id: z.string(),
  base_image_key: z.string(),
  canvas_width: z.number(),
  canvas_height: z.number(),
  text_snippets: z.array(z.looseObject({ id: z.string() })),
  graphics_data: z.array(z.looseObject({ uuid: z.string() })),
}).loose();
export type Design = z.infer<typeof DesignSchema>;

/** One page of a list (docs/adr/0018-design-lists.md "Design lists"). */
export const DesignListPageSchema = z.object({
  data: z.array(DesignCardSchema),
  current_page: z.number().int(),
  /** The next page's number, or null on the last page. */
  next_page: z.number().int().nullable(),
  /** Send with `page=next_page` to read it in one query; null on the last page. */
  cursor: z.string().nullable(),
  per_page: z.number().int(),
});
export type DesignListPage = z.infer<typeof DesignListPageSchema>;

/** Every design write's answer: `{ success, version, title, updated_at }` plus the call's own. */
export const WrittenSchema = z.looseObject({
  success: z.literal(true),
  version: z.number().int(),
  title: z.string(),
  updated_at: z.string(),
});

/** The export saves' answer: the write's fields and the export fields (docs/export.md). */
export const ExportSavedSchema = WrittenSchema.extend({
  merge_tag_provider: z.string().nullable(),
  merge_tag_storefront: z.string().nullable(),
  merge_tag_choices: z.array(z.looseObject({})),
  html_link_url: z.string().nullable(),
  /** Parameter id → merge tag value. */
  merge_tag_values: z.record(z.string(), z.string().nullable()),
});

/**
 * A versioned write of design `{id}`: 409 `{ message, version }` for a stale version, 413 when
 * the document it writes would pass the stored document's size limit (functions/designs/store.ts
 * `MAX_DOCUMENT_BYTES`).
 */
function write<B extends z.ZodType>(body: B): WriteContract<B, typeof WrittenSchema>;
function write<B extends z.ZodType, A extends z.ZodType>(body: B, answer: A): WriteContract<B, A>;
function write(body: z.ZodType, answer: z.ZodType = WrittenSchema) {
  return { params: IdParams, body, answer, errors: [409, 413] } as const;
}
type WriteContract<B, A> = {
  readonly params: typeof IdParams;
  readonly body: B;
  readonly answer: A;
  readonly errors: readonly [409, 413];
};

/** The `designs` routes' contracts, by route key. */
export const DESIGNS_CONTRACT = {
  'GET /getActive': defineContract({
    query: ListQuerySchema,
    answer: z.object({ active: DesignListPageSchema }),
  }),
  'GET /getArchived': defineContract({
    query: ListQuerySchema,
    answer: z.object({ archived: DesignListPageSchema }),
  }),
  'POST /api/pic-snippet': defineContract({
    body: CreateDesignBody,
    answer: DesignSchema,
    status: 201,
    errors: [403],
  }),
  'GET /api/pic-snippet/{id}': defineContract({ params: IdParams, answer: DesignSchema }),
  'PUT /api/pic-snippet/{id}': write(SaveDesignBody),
  'PUT /api/pic-snippet/{id}/pso': write(SaveSnippetsBody),
  'PUT /api/pic-snippet/{id}/archive': write(
    StatusBody,
    WrittenSchema.extend({ archived: DesignCardSchema }),
  ),
  'PUT /api/pic-snippet/{id}/unarchive': write(
    StatusBody,
    WrittenSchema.extend({ active: DesignCardSchema }),
  ),
  'PUT /pic-snippet/{id}/copy': defineContract({
    params: IdParams,
    answer: z.object({
      success: z.literal(true),
      newPicSnippetId: z.string(),
      active: DesignCardSchema,
    }),
    status: 201,
    errors: [403],
  }),
  'PUT /api/pic-snippet/{id}/replace': write(ReplaceBody),
  'PUT /api/pic-snippet/{id}/saveImageId': write(SaveImageIdBody),
  'PUT /api/pic-snippet/{id}/effects': write(EffectsBody),
  'PUT /api/pic-snippet/{id}/options': write(OptionsBody),
  'PUT /pic-snippet/{id}/qrCodeColor': write(QrCodeColorBody),
  'PUT /api/pic-snippet/{id}/qrCode': write(QrCodeBody),
  'POST /api/pic-snippet/{id}/gravatarMail': write(GravatarMailBody),
  'POST /api/pic-snippet/{id}/saveGeneratedDynamicSticker': write(
    GeneratedStickerBody,
    WrittenSchema.extend({
      data: z.object({ currentSticker: z.looseObject({ uuid: z.string() }) }),
    }),
  ),
  'POST /api/pic-snippet/{id}/saveScreenShotType': write(ScreenShotTypeBody),
  'POST /saveCroppedImage': defineContract({
    answer: z.object({
      success: z.literal(true),
      cropped_image_id: z.string(),
      /** px */
      width: z.number(),
      height: z.number(),
    }),
    status: 201,
  }),
  'PUT /api/pic-snippet/{id}/provider': write(ProviderBody, ExportSavedSchema),
  'PUT /api/pic-snippet/{id}/choices': write(ChoicesBody, ExportSavedSchema),
  'PUT /api/pic-snippet/{id}/link': write(LinkBody, ExportSavedSchema),
  'GET /api/pic-snippet/{id}/analytics': defineContract({
    params: IdParams,
    query: AnalyticsQuerySchema,
    answer: AnalyticsReportSchema,
  }),
  'POST /api/pic-snippet/{id}/cache-id': defineContract({
    params: IdParams,
    answer: z.object({ success: z.literal(true), cache_id: z.string(), version: z.number() }),
  }),
} as const;
