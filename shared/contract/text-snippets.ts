/**
 * The contract of the `text-snippets` routes (shared/routes.ts;
 * docs/adr/0013-text-snippet-parameters.md "Text snippet parameters": "Text snippet parameters";
 * docs/adr/0044-the-api-contract.md "The API contract" and docs/adr/0013-text-snippet-parameters.md
 * "Text snippet parameters"): a text snippet's parameters (merge fields). `{id}` is the text
 * snippet's id; the design comes from `pic_snippet_id` in the body (or the query string of a
 * DELETE), and every answer carries the design's new `version` (a write with a stale one answers
 * 409 `{ message, version }`). functions/text-snippets parses its input with these schemas; the
 * operations and their messages are shared/parameters.ts's.
 */
import { z } from 'zod';
import type { TextTransformKey } from '../design.ts';
import { defineContract, IdParams } from './core.ts';

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

/** The text transform options (docs/adr/0013-text-snippet-parameters.md "Text snippet parameters": "Text transform"). */
export const TextTransformKeySchema = z.enum(['allCaps', 'lowerCase', 'upperCase', 'noSpaces'], {
  error: 'The selected text transform is invalid.',
}) satisfies z.ZodType<TextTransformKey>;

/** `pic_snippet_id` and `version`, in the body or (for DELETE) the query string. */
const targetFields = {
  pic_snippet_id: z.string().min(1).max(128).optional(),
  version: z.coerce.number().int().positive().optional(),
};

/** The query string of every parameter call: the design and its version (for a DELETE). */
export const TargetQuery = z.object(targetFields);

/** The body of a call that names only its design (`pic_snippet_id`, `version`). */
export const TargetBody = z.object(targetFields);

/**
 * The fields of a parameter a caller may send (docs/adr/0013-text-snippet-parameters.md "Text
 * snippet parameters"), types only: the rules and their messages are the operations'
 * (shared/parameters.ts), so server and editor answer alike.
 */
const parameterFields = {
  ...targetFields,
  param_name: z.string().max(1000).optional(),
  param_default_value: z.string().max(10_000).nullable().optional(),
  text_transform: z
    .object({
      checkFormating: z.boolean().optional(),
      formatOptionKey: TextTransformKeySchema.nullable().optional(),
    })
    .optional(),
};

/** `POST …/parameter`: a new parameter's fields, and its id when the editor chose one (undo). */
export const AddParameterBody = z.object({
  ...parameterFields,
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'The id may hold only letters, digits, _ and -.')
    .optional(),
});

/** `PUT …/parameter/{parameterId}`: rename, fallback, text transform; fields left out are kept. */
export const UpdateParameterBody = z.object(parameterFields);

/** `DELETE /api/text-snippet/delete-parameters`: several parameters of one text snippet. */
export const DeleteParametersBody = z.object({
  ...targetFields,
  textSnippetId: z.string({ error: 'The text snippet id field is required.' }).min(1),
  parameterIds: z
    .array(z.string().min(1), { error: 'The parameter ids field is required.' })
    .min(1, 'The parameter ids field is required.')
    .max(500),
});

/** `POST …/checkFormating`: switch formatting on or off, choose an option; neither toggles. */
export const CheckFormatingBody = z.object({
  ...targetFields,
  checkFormating: z.boolean().optional(),
  formatOptionKey: TextTransformKeySchema.nullable().optional(),
});

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

/** A parameter as stored (shared/design.ts `ParameterSchema`'s output; docs/adr/0013-text-snippet-parameters.md "Text snippet parameters"). */
export const ParameterAnswerSchema = z.object({
  id: z.string(),
  param_name: z.string(),
  original_param_name: z.string(),
  /** The fallback; a blank one is `' '`. */
  param_default_value: z.string(),
  text_transform: z.object({
    checkFormating: z.boolean(),
    formatOptionKey: TextTransformKeySchema.nullable(),
    formatOptionName: z.string().nullable(),
  }),
  merge_tag_value: z.string().nullable(),
  text_snippet_id: z.string().nullable(),
  dynamicStickerParamName: z.string().nullable(),
});
export type ParameterAnswer = z.infer<typeof ParameterAnswerSchema>;

/** The change record the editor's undo keeps (docs/adr/0013-text-snippet-parameters.md "Text snippet parameters"; shared/parameters.ts). */
export const ParameterChangeSchema = z.object({
  textSnippetId: z.string(),
  paramId: z.string(),
  action: z.enum(['added', 'updated', 'removed']),
});

/** `{ success, parameter, change, version }` of a one-parameter write (`previous`: before it). */
const OneParameterWritten = z.object({
  success: z.literal(true),
  parameter: ParameterAnswerSchema,
  change: ParameterChangeSchema,
  /** The design's new version. */
  version: z.number().int(),
});

const ParameterIdParams = z.object({ id: z.string().min(1), parameterId: z.string().min(1) });

/**
 * The `text-snippets` routes' contracts, by route key; every write may answer 409 (a stale
 * version), and one that adds or changes a parameter 413 (the document would pass its size
 * limit, functions/designs/store.ts `MAX_DOCUMENT_BYTES`).
 */
export const TEXT_SNIPPETS_CONTRACT = {
  'POST /api/text-snippet/{id}/parameter': defineContract({
    params: IdParams,
    query: TargetQuery,
    body: AddParameterBody,
    answer: OneParameterWritten,
    status: 201,
    errors: [409, 413],
  }),
  'PUT /api/text-snippet/{id}/parameter/{parameterId}': defineContract({
    params: ParameterIdParams,
    query: TargetQuery,
    body: UpdateParameterBody,
    answer: OneParameterWritten.extend({ previous: ParameterAnswerSchema }),
    errors: [409, 413],
  }),
  'DELETE /api/text-snippet/{id}/parameter/{parameterId}': defineContract({
    params: ParameterIdParams,
    query: TargetQuery,
    body: TargetBody,
    answer: OneParameterWritten,
    errors: [409],
  }),
  'POST /api/text-snippet/{id}/parameter/{parameterId}/checkFormating': defineContract({
    params: ParameterIdParams,
    query: TargetQuery,
    body: CheckFormatingBody,
    answer: OneParameterWritten.extend({ previous: ParameterAnswerSchema }),
    errors: [409, 413],
  }),
  'POST /api/text-snippet/{id}/parameter/{parameterId}/getParameterData': defineContract({
    params: ParameterIdParams,
    query: TargetQuery,
    body: TargetBody,
    answer: z.object({
      success: z.literal(true),
      parameter: ParameterAnswerSchema,
      /** What the render draws for a recipient without a value (transform applied). */
      fallback: z.string(),
      version: z.number().int(),
    }),
  }),
  'DELETE /api/text-snippet/delete-parameters': defineContract({
    query: TargetQuery,
    body: DeleteParametersBody,
    answer: z.object({
      success: z.literal(true),
      parameters: z.array(ParameterAnswerSchema),
      changes: z.array(ParameterChangeSchema),
      version: z.number().int(),
    }),
    errors: [409],
  }),
} as const;
