/**
 * The contract of the `merge-tags` routes (shared/routes.ts; docs/adr/0044-the-api-contract.md "The
 * API contract"; docs/adr/0022-export-and-merge-tags.md "Export and merge tags"; docs/export.md):
 * the platforms, Klaviyo's storefronts, a platform's merge tags, the web-tracking script and Keap's
 * OAuth steps. functions/merge-tags parses its input with these schemas. The script (`GET
 * /js/{file}`) and Keap's steps answer a file or a redirect, not JSON: their contracts hold the
 * input only.
 */
import { z } from 'zod';
import { KLAVIYO_STOREFRONTS, PROVIDER_VALUES } from '../providers/index.ts';
import { defineContract, NoJsonAnswer } from './core.ts';

const STOREFRONT_VALUES: readonly string[] = KLAVIYO_STOREFRONTS.map((s) => s.value);

/** `POST /api/merge-tag`: the platform, a pasted credential, Klaviyo's storefront. */
export const MergeTagBody = z.object({
  provider: z.enum(PROVIDER_VALUES, { error: 'The selected provider is invalid.' }),
  access_token: z
    .string({ error: 'The access token must be a string.' })
    .max(4096, 'The access token may not be greater than 4096 characters.')
    .nullish(),
  storeFront: z
    .string()
    .refine((v) => STOREFRONT_VALUES.includes(v), {
      message: 'The selected store front is invalid.',
    })
    .nullish(),
});

/** A merge tag to choose: what the screen shows and what goes into the parameter. */
export const MergeTagChoiceSchema = z.object({
  /** What the screen shows, e.g. `First name`. */
  merge_tag_name: z.string(),
  /** What goes into the parameter's `merge_tag_value`, e.g. `{{ first_name|default:'' }}`. */
  merge_tag_value: z.string(),
});

/** `POST /api/merge-tag`: the catalogue of the platform and, with a connection, its live fields. */
export const MergeTagListSchema = z.object({
  success: z.literal(true),
  provider: z.enum(PROVIDER_VALUES),
  /** The catalogue, then the account's own fields. */
  merge_tags: z.array(MergeTagChoiceSchema),
  /** Whether the account's own fields were read from the platform. */
  live: z.boolean(),
  /** True when the platform has live fields that this answer could not include. */
  connection_needed: z.boolean(),
  /** A value may always be typed instead of chosen. */
  free_text: z.literal(true),
  /** For the screen, when live fields are missing. */
  message: z.string().optional(),
  /** Whether the team has this platform's credentials saved (encrypted) for next time. */
  credentials_saved: z.boolean(),
  /** Keap, when configured: where its authorisation window starts. */
  authorize_url: z.string().optional(),
});
export type MergeTagList = z.infer<typeof MergeTagListSchema>;

/** One platform of the export screen's list. */
export const ProviderOptionSchema = z.object({
  value: z.enum(PROVIDER_VALUES),
  label: z.string(),
  url: z.string(),
});

/** One of Klaviyo's storefronts. */
export const StoreFrontSchema = z.object({ value: z.string(), label: z.string() });
export type StoreFront = z.infer<typeof StoreFrontSchema>;

/** The `merge-tags` routes' contracts, by route key. */
export const MERGE_TAGS_CONTRACT = {
  'GET /api/merge-tag/providers': defineContract({ answer: z.array(ProviderOptionSchema) }),
  'GET /api/merge-tag/storeFront': defineContract({ answer: z.array(StoreFrontSchema) }),
  /** 422 on `access_token` when the platform refuses the credentials. */
  'POST /api/merge-tag': defineContract({ body: MergeTagBody, answer: MergeTagListSchema }),
  /**
   * The web-tracking script (`picsnippets.js`; 404 for any other file), JavaScript with long
   * caching: `v` is the script's version (a year, immutable) or absent (a day); 304 for its ETag.
   */
  'GET /js/{file}': defineContract({
    params: z.object({ file: z.string().min(1) }),
    query: z.looseObject({ v: z.string().optional() }),
    answer: NoJsonAnswer,
  }),
  /** 302 to Keap's authorize page (or back to the export screen); 422 on `design` without one. */
  'GET /api/merge-tag/infusionsoft/authorize': defineContract({
    query: z.looseObject({ design: z.string().optional() }),
    answer: NoJsonAnswer,
    status: 302,
  }),
  /** 302 back to the export screen with the outcome; 400 for a state that does not open. */
  'GET /api/merge-tag/infusionsoft/callback': defineContract({
    query: z.looseObject({
      code: z.string().optional(),
      state: z.string().optional(),
      error: z.string().optional(),
    }),
    answer: NoJsonAnswer,
    status: 302,
    errors: [400],
  }),
} as const;
