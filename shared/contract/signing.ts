/**
 * Signed render URLs' routes (docs/developer-api.md "Signed render URLs"): a design's
 * requirement, signing a URL, and the team's signing secret.
 */
import { z } from 'zod';
import { defineContract, IdParams } from './core.ts';
import { Version, WrittenSchema } from './designs.ts';
import { SIGNATURE_FORMS } from '../render-signature.ts';

/** Most parameters one signed URL may carry. */
export const MAX_SIGN_PARAMETERS = 100;
/** Longest validity of a signed URL, seconds (ten years). */
export const MAX_SIGN_EXPIRES_IN = 10 * 365 * 24 * 3600;
/** Longest overlap a rotation keeps the previous secret valid for, hours (30 days). */
export const MAX_OVERLAP_HOURS = 720;

/** `PUT /api/pic-snippet/{id}/signing`: whether only signed URLs draw the design. */
export const SigningBody = z.object({
  version: Version,
  require_signed_urls: z.boolean({ error: 'Say true or false.' }),
});

/** The answer: the write's fields and the setting. */
export const SigningSavedSchema = WrittenSchema.extend({ require_signed_urls: z.boolean() });

/**
 * A name a signed URL may carry: not one of the signature's own (`__sig`, `__sf`, `__exp`),
 * 1–255 characters.
 */
const ParameterName = z
  .string()
  .min(1, 'A parameter needs a name.')
  .max(255)
  .refine((name) => !['__sig', '__sf', '__exp'].includes(name), {
    message: 'The signature parameters (__sig, __sf, __exp) are added by the signer.',
  });

/**
 * `POST /api/pic-snippet/{id}/sign`. `parameters` in URL order; in the `values` form each value
 * is signed (percent-encoded in the URL); in the `names` form each value is a placeholder the
 * e-mail platform replaces (its merge tag, written as given, not signed).
 */
export const SignBody = z
  .object({
    form: z.enum(SIGNATURE_FORMS).default('values'),
    parameters: z
      .array(
        z.object({
          name: ParameterName,
          value: z.string().max(1024).default(''),
        }),
      )
      .max(MAX_SIGN_PARAMETERS)
      .default([]),
    /** Seconds from now until the URL stops working; absent: it does not expire. */
    expires_in: z.number().int().min(1).max(MAX_SIGN_EXPIRES_IN).optional(),
    /** The cache id segment (`v7`: that kept version, cached for a year). */
    cache_id: z
      .string()
      .regex(/^v[1-9]\d{0,11}$/, 'A cache id is v and a version number.')
      .optional(),
    /**
     * The format: the `.jpg`, `.png`, `.webp` or `.avif` extension, or the `/pdf` segment (Pro
     * plans).
     */
    format: z.enum(['jpg', 'png', 'pdf', 'webp', 'avif']).optional(),
    /**
     * The density, 2 or 3: `@2x` or `@3x` before the extension (a PDF's `/pdf` becomes
     * `@2x.pdf`; docs/export.md "Density"); absent: 1×.
     */
    density: z.union([z.literal(2), z.literal(3)]).optional(),
  })
  .refine(
    (body) => body.form === 'values' || body.parameters.every((p) => !/[\s&#?]/.test(p.value)),
    {
      message: 'A placeholder may not hold spaces, &, # or ?: it is written into the URL as given.',
      path: ['parameters'],
    },
  )
  .meta({
    example: {
      form: 'values',
      parameters: [{ name: 'first_name', value: 'Ana' }],
      expires_in: 604800,
    },
  });

/** The signed URL. */
export const SignedUrlSchema = z
  .object({
    success: z.literal(true),
    url: z.string(),
    form: z.enum(SIGNATURE_FORMS),
    /** ISO 8601, or null for a URL that does not expire. */
    expires_at: z.string().nullable(),
  })
  .meta({
    example: {
      success: true,
      url: 'https://picsnippets.example/r/k3f9a2?first_name=Ana&__sf=values&__exp=1800000000&__sig=q9mW1n1c0E6xQ3yFJ4cQbqfN0Zl0b2n7m9Vt6g5T0aE',
      form: 'values',
      expires_at: '2027-01-15T08:00:00.000Z',
    },
  });

/** What the team's settings show: never the secret. */
export const SigningSecretStatusSchema = z.object({
  exists: z.boolean(),
  created_at: z.string().nullable(),
  previous_valid_until: z.string().nullable(),
});

/** `POST /settings/companies/{id}/signing-secret`: make or rotate the secret. */
export const RotateSecretBody = z.object({
  /** Hours the current secret keeps verifying after a rotation; 0 ends it at once. */
  overlap_hours: z.number().int().min(0).max(MAX_OVERLAP_HOURS).default(24),
});

/** The new secret, shown this once. */
export const RotatedSecretSchema = SigningSecretStatusSchema.extend({ secret: z.string() });

/** The routes' contracts, by route key. */
export const SIGNING_CONTRACT = {
  'PUT /api/pic-snippet/{id}/signing': defineContract({
    params: IdParams,
    body: SigningBody,
    answer: SigningSavedSchema,
    errors: [409],
  }),
  'POST /api/pic-snippet/{id}/sign': defineContract({
    params: IdParams,
    body: SignBody,
    answer: SignedUrlSchema,
    errors: [409],
  }),
  'GET /settings/companies/{id}/signing-secret': defineContract({
    params: IdParams,
    answer: SigningSecretStatusSchema,
  }),
  'POST /settings/companies/{id}/signing-secret': defineContract({
    params: IdParams,
    body: RotateSecretBody,
    answer: RotatedSecretSchema,
    status: 201,
    errors: [409],
  }),
} as const;
