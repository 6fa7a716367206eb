/**
 * A design's data bindings (docs/data-sources.md "Binding a design"): each one looks a record up
 * in one of the team's data sources at render time and fills design parameters from its fields.
 * - a data store: the render URL's value of `key_param` (for example `sku`) is the key; each
 *   field names a column of the store;
 * - a web API: the API's URL template takes the render URL's values (each placeholder its own
 *   name's, or the parameter or fixed value `url_values` names); each field is a path into its
 *   JSON answer (shared/data-path.ts).
 * A value found replaces the parameter's value; nothing found (no such key, the API failed or
 * timed out, the path leads nowhere) leaves the parameter as the URL gave it, else its fallback.
 * Part of the design document from schema version 5 (shared/design-migrations.ts).
 */
import { z } from 'zod';
import { MAX_PATH_CHARS } from './data-path.ts';

/** Bindings a design may have, and fields per binding (docs/data-sources.md "Limits"). */
export const DATA_BINDING_BOUNDS = { bindings: 5, fields: 20, urlValues: 20 } as const;

/** One field of a binding: what to read (`field`) and which parameter it fills (`param`). */
export const DataFieldSchema = z.object({
  /** A store's column name (any case), or a path into an API's answer (`items[0].name`). */
  field: z.string().max(MAX_PATH_CHARS),
  /** The design parameter the value fills (its `param_name`). */
  param: z.string().min(1).max(64),
});

/**
 * What fills one `{name}` of a web API's URL template: the render URL's value of `param`, or
 * when `param` is empty the fixed `value` (docs/data-sources.md "Binding a design").
 */
export const UrlValueSchema = z.object({
  /** The placeholder's name, as in the template (`{sku}` → `sku`). */
  name: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'A URL placeholder has letters, digits, _ and - only.'),
  /** The render URL's parameter whose value fills it; '' for the fixed value. */
  param: z.string().max(64).default(''),
  /** The fixed value used when `param` is empty. */
  value: z.string().max(255, 'A fixed value has at most 255 characters.').default(''),
});
export type UrlValue = z.output<typeof UrlValueSchema>;

export const DataBindingSchema = z.object({
  source: z.enum(['store', 'api']),
  /** The data store's or web API's id, within the design's team. */
  source_id: z.string().min(1).max(64),
  /** A store's key: the render URL's parameter whose value is looked up. Unused for an API. */
  key_param: z.string().max(64).default(''),
  fields: z.array(DataFieldSchema).max(DATA_BINDING_BOUNDS.fields).default([]),
  /**
   * An API's placeholders and what fills each. A placeholder not listed (and every placeholder
   * of a binding saved without this list) takes the render URL's value of its own name.
   */
  url_values: z
    .array(UrlValueSchema)
    .max(DATA_BINDING_BOUNDS.urlValues, 'A binding fills at most 20 URL placeholders.')
    .optional(),
});
export type DataBinding = z.output<typeof DataBindingSchema>;

/** A design's bindings, evaluated in order; a later binding's value wins for the same parameter. */
export const DataBindingsSchema = z
  .array(DataBindingSchema)
  .max(DATA_BINDING_BOUNDS.bindings)
  .default([]);
