/**
 * The contract of a team's data sources (docs/data-sources.md): data stores (an uploaded CSV or
 * XLSX table with a unique key column, looked up by key at render time) and web APIs (a JSON
 * endpoint whose URL template is filled from the render URL's values). Team owners and admins
 * manage them under `/settings/companies/{id}/…`, in the app or with an API token. The limits
 * here are the ones docs/data-sources.md "Limits" lists.
 */
import { z } from 'zod';
import { FREE_PLAN_ID, FREEZE_PLAN_ID } from '../billing.ts';
import { defineContract, SuccessSchema } from './core.ts';

/** Bounds of data sources (docs/data-sources.md "Limits"). */
export const DATA_SOURCE_LIMITS = {
  /** Data stores a team may have. */
  stores: 20,
  /** Web APIs a team may have. */
  apis: 20,
  /** Largest uploaded file, bytes (5 MB: one multipart request). */
  fileBytes: 5_000_000,
  /** Columns a store's header may name (the key column included). */
  columns: 50,
  /** Characters (code points) a field value keeps; longer ones are cut, as in send lists. */
  valueChars: 255,
  /** Characters a key may have; a longer key refuses the file. */
  keyChars: 255,
  /** Characters of a store's or an API's name. */
  nameChars: 80,
  /** Characters of an API's URL template. */
  urlChars: 2048,
  /** Secret headers an API may send. */
  headers: 10,
  /** Characters of one header value. */
  headerValueChars: 2048,
  /** Longest cache time of an API's answers, s (24 h). */
  ttlSeconds: 86_400,
  /** Budget of one API fetch (DNS, connect, redirects, body), ms. */
  fetchMs: 2_000,
  /** Largest API answer, bytes (256 KiB). */
  answerBytes: 256 * 1024,
  /** Characters of a field path (`items[0].name`). */
  pathChars: 256,
  /** Steps of a field path. */
  pathSteps: 32,
} as const;

/**
 * Rows a data store may hold, by plan (docs/data-sources.md "Limits"): Free 1,000, Starter
 * 10,000, Pro 50,000; yearly plans as their monthly twin; any other plan id (a frozen team, a
 * renamed plan) the free plan's.
 */
export const PLAN_DATA_STORE_ROWS: Readonly<Record<string, number>> = {
  [FREE_PLAN_ID]: 1_000,
  'starter-monthly': 10_000,
  'starter-yearly': 10_000,
  'pro-monthly': 50_000,
  'pro-yearly': 50_000,
  [FREEZE_PLAN_ID]: 1_000,
};

/** The data-store row limit of a plan id; the free plan's for an id not listed. */
export const dataStoreRowsOf = (planId: string | undefined): number =>
  planId !== undefined && Object.hasOwn(PLAN_DATA_STORE_ROWS, planId)
    ? PLAN_DATA_STORE_ROWS[planId]!
    : PLAN_DATA_STORE_ROWS[FREE_PLAN_ID]!;

export const DATA_SOURCE_MESSAGES = {
  name: 'Enter a name.',
  keyColumn: 'Enter the name of the key column (for example sku).',
  file: 'Choose a CSV or XLSX file.',
  tooManyStores: `A team can have at most ${DATA_SOURCE_LIMITS.stores} data stores.`,
  tooManyApis: `A team can have at most ${DATA_SOURCE_LIMITS.apis} web APIs.`,
  url: 'Enter the http(s) URL of a JSON endpoint; {name} inserts a parameter.',
  placeholderInHost: 'A {name} may stand in the path or the query, not in the host.',
  privateUrl: 'This URL is not reachable from the internet (a private or local address).',
  ttl: `Keep answers between 0 seconds and ${DATA_SOURCE_LIMITS.ttlSeconds} seconds (24 hours).`,
  headerName: 'A header name has letters, digits and - only.',
  headerReserved: 'Host, Cookie and hop-by-hop headers cannot be set.',
  headersAgain:
    'Enter the secret headers again for the new address: they are sent only to the address they were entered for.',
} as const;

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

const TeamParams = z.object({ id: z.string().min(1) });
/** `{ id, storeId }`: a team and one of its data stores. */
export const StoreParams = z.object({ id: z.string().min(1), storeId: z.string().min(1) });
/** `{ id, apiId }`: a team and one of its web APIs. */
export const ApiParams = z.object({ id: z.string().min(1), apiId: z.string().min(1) });

const Name = z
  .string({ error: DATA_SOURCE_MESSAGES.name })
  .trim()
  .min(1, DATA_SOURCE_MESSAGES.name)
  .max(
    DATA_SOURCE_LIMITS.nameChars,
    `A name has at most ${DATA_SOURCE_LIMITS.nameChars} characters.`,
  );

/**
 * Multipart fields of `POST /settings/companies/{id}/data-stores`: `name`, `key_column` and the
 * file `file` (read by functions/data-sources/stores.ts, not by this schema).
 */
export const CreateStoreFields = z.object({
  name: Name,
  key_column: z
    .string({ error: DATA_SOURCE_MESSAGES.keyColumn })
    .trim()
    .min(1, DATA_SOURCE_MESSAGES.keyColumn)
    .max(DATA_SOURCE_LIMITS.valueChars),
});

/** `GET …/data-stores/{storeId}/record?key=`: one record by its key. */
export const RecordQuery = z.object({
  key: z.string().max(DATA_SOURCE_LIMITS.keyChars * 2),
});

/** An API's URL template: http(s), no credentials; `{name}` placeholders are filled per render. */
const UrlTemplate = z
  .string({ error: DATA_SOURCE_MESSAGES.url })
  .trim()
  .max(
    DATA_SOURCE_LIMITS.urlChars,
    `The URL may have at most ${DATA_SOURCE_LIMITS.urlChars} characters.`,
  )
  .refine((value) => {
    try {
      // placeholders stand for URL-encoded values: letters are fair stand-ins for the check
      const url = new URL(value.replace(/\{[A-Za-z0-9_-]{1,64}\}/g, 'x'));
      return (
        (url.protocol === 'https:' || url.protocol === 'http:') &&
        url.username === '' &&
        url.password === ''
      );
    } catch {
      return false;
    }
  }, DATA_SOURCE_MESSAGES.url)
  .refine((value) => {
    // the scheme, host and port are fixed: a value fills the path or the query only
    const origin = (stand: string) => {
      try {
        return new URL(value.replace(/\{[A-Za-z0-9_-]{1,64}\}/g, stand)).origin;
      } catch {
        return undefined;
      }
    };
    return origin('x') === origin('y');
  }, DATA_SOURCE_MESSAGES.placeholderInHost);

/** Header names the guard would drop or that would change the exchange (docs/data-sources.md "Security"). */
export const RESERVED_HEADERS: readonly string[] = [
  'host',
  'cookie',
  'connection',
  'content-length',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'keep-alive',
  'proxy-authorization',
];

const HeaderName = z
  .string()
  .trim()
  .min(1, DATA_SOURCE_MESSAGES.headerName)
  .max(64, DATA_SOURCE_MESSAGES.headerName)
  .regex(/^[A-Za-z0-9-]+$/, DATA_SOURCE_MESSAGES.headerName)
  .refine((n) => !RESERVED_HEADERS.includes(n.toLowerCase()), DATA_SOURCE_MESSAGES.headerReserved);

/** Secret headers: sent with every fetch, stored sealed, never answered back. */
const Headers = z
  .array(
    z.object({
      name: HeaderName,
      value: z
        .string()
        .max(DATA_SOURCE_LIMITS.headerValueChars)
        .refine((v) => !/[\r\n\0]/.test(v), 'A header value cannot hold line breaks.'),
    }),
  )
  .max(DATA_SOURCE_LIMITS.headers, `At most ${DATA_SOURCE_LIMITS.headers} headers.`);

const TtlSeconds = z
  .number({ error: DATA_SOURCE_MESSAGES.ttl })
  .int(DATA_SOURCE_MESSAGES.ttl)
  .min(0, DATA_SOURCE_MESSAGES.ttl)
  .max(DATA_SOURCE_LIMITS.ttlSeconds, DATA_SOURCE_MESSAGES.ttl);

/** `POST /settings/companies/{id}/web-apis`. */
export const CreateApiBody = z.object({
  name: Name,
  url: UrlTemplate,
  ttl_seconds: TtlSeconds.default(300),
  headers: Headers.default([]),
});

/** `PUT …/web-apis/{apiId}`: the fields to change; `headers` replaces every secret header. */
export const UpdateApiBody = z.object({
  name: Name.optional(),
  url: UrlTemplate.optional(),
  ttl_seconds: TtlSeconds.optional(),
  headers: Headers.optional(),
});

/** `POST …/web-apis/{apiId}/test`: values for the URL's placeholders, and paths to read. */
export const TestApiBody = z.object({
  values: z.record(z.string().max(64), z.string().max(DATA_SOURCE_LIMITS.valueChars)).default({}),
  paths: z.array(z.string().max(DATA_SOURCE_LIMITS.pathChars)).max(20).default([]),
});

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

/** A data store as the settings show it. */
export const DataStoreSchema = z.object({
  id: z.string(),
  name: z.string(),
  key_column: z.string(),
  /** The header's columns, in file order (the key column among them). */
  columns: z.array(z.string()),
  /** Records held. */
  rows: z.number().int(),
  /** The plan's row limit. */
  max_rows: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DataStore = z.infer<typeof DataStoreSchema>;

/** One record: its key and its fields by column. */
export const DataRecordSchema = z.object({
  key: z.string(),
  fields: z.record(z.string(), z.string()),
});

/** What an upload did. */
export const UploadReportSchema = z.object({
  /** Rows read from the file. */
  rows: z.number().int(),
  /** Of those, keys the store did not have. */
  added: z.number().int(),
  /** Of those, keys the store had (their fields replaced). */
  updated: z.number().int(),
  /** Values cut to 255 characters. */
  cut_values: z.number().int(),
  /** Rows whose cells were all empty (skipped). */
  skipped_empty_rows: z.number().int(),
});

export const StoreUploadSchema = z.object({ store: DataStoreSchema, report: UploadReportSchema });

/** A web API as the settings show it: header names only, never their values. */
export const WebApiSchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  ttl_seconds: z.number().int(),
  header_names: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WebApi = z.infer<typeof WebApiSchema>;

/** A test fetch: the status, the first bytes of the JSON, and each path's value (null: none). */
export const ApiTestSchema = z.object({
  ok: z.boolean(),
  /** The endpoint's HTTP status; null when no answer came (refused, timeout). */
  status: z.number().int().nullable(),
  /** Why it failed, or null. */
  error: z.string().nullable(),
  /** The answer's JSON, pretty-printed, at most 4 KiB. */
  sample: z.string(),
  values: z.record(z.string(), z.string().nullable()),
});

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

export const DATA_SOURCES_CONTRACT = {
  'GET /settings/companies/{id}/data-stores': defineContract({
    params: TeamParams,
    answer: z.object({ stores: z.array(DataStoreSchema) }),
  }),
  /** Multipart: `name`, `key_column`, and the file `file`. */
  'POST /settings/companies/{id}/data-stores': defineContract({
    params: TeamParams,
    answer: StoreUploadSchema,
    status: 201,
  }),
  'GET /settings/companies/{id}/data-stores/{storeId}': defineContract({
    params: StoreParams,
    answer: z.object({ store: DataStoreSchema, sample: z.array(DataRecordSchema) }),
  }),
  /** Multipart: the file `file`; its rows are upserted by key. */
  'POST /settings/companies/{id}/data-stores/{storeId}/upload': defineContract({
    params: StoreParams,
    answer: StoreUploadSchema,
  }),
  'GET /settings/companies/{id}/data-stores/{storeId}/record': defineContract({
    params: StoreParams,
    query: RecordQuery,
    answer: z.object({ record: DataRecordSchema }),
  }),
  'DELETE /settings/companies/{id}/data-stores/{storeId}': defineContract({
    params: StoreParams,
    answer: SuccessSchema,
  }),
  'GET /settings/companies/{id}/web-apis': defineContract({
    params: TeamParams,
    answer: z.object({ apis: z.array(WebApiSchema) }),
  }),
  'POST /settings/companies/{id}/web-apis': defineContract({
    params: TeamParams,
    body: CreateApiBody,
    answer: z.object({ api: WebApiSchema }),
    status: 201,
  }),
  'PUT /settings/companies/{id}/web-apis/{apiId}': defineContract({
    params: ApiParams,
    body: UpdateApiBody,
    answer: z.object({ api: WebApiSchema }),
  }),
  'DELETE /settings/companies/{id}/web-apis/{apiId}': defineContract({
    params: ApiParams,
    answer: SuccessSchema,
  }),
  'POST /settings/companies/{id}/web-apis/{apiId}/test': defineContract({
    params: ApiParams,
    body: TestApiBody,
    answer: ApiTestSchema,
  }),
} as const;
