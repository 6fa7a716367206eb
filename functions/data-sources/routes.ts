/**
 * The routes of a team's data sources (docs/data-sources.md; shared/contract/data-sources.ts),
 * served by the `merge-tags` function (docs/adr/0063-data-sources.md "Data sources"). The route
 * table's `manager` access lets the team's owner and admins in (a member gets 403, anyone else
 * 404); every store or API id is read under the team of the path, so another team's id is a 404.
 * Uploads are multipart (`file`, and `name`, `key_column` when creating); every other call is JSON.
 * State-changing calls pass the CSRF check of every route (functions/lib/auth.ts).
 */
import { randomUUID } from 'node:crypto';
import {
  CreateApiBody,
  CreateStoreFields,
  DATA_SOURCE_LIMITS,
  DATA_SOURCE_MESSAGES,
  dataStoreRowsOf,
  RecordQuery,
  TestApiBody,
  UpdateApiBody,
  type WebApi,
} from '#shared/contract/data-sources.ts';
import { parsePath, PathError, readPath } from '#shared/data-path.ts';
import { db } from '#lib/db/index.ts';
import { notFound, validationFailed } from '#lib/errors.ts';
import { json, route, type RouteDefinition } from '#lib/http.ts';
import { configuredUrlGuard, UrlRefused } from '#lib/ssrf.ts';
import {
  deleteStore,
  loadStore,
  lookupRecord,
  sampleRecords,
  storeView,
  teamStores,
  writeTable,
  type StoreRecord,
} from './stores.ts';
import { formatOf, readTable, TableFileError, type Table } from './table.ts';
import {
  fetchApi,
  fillTemplate,
  sealHeaders,
  templateOrigin,
  type WebApiRecord,
} from './web-api.ts';

/** Records a store's page shows as its sample. */
const SAMPLE_RECORDS = 5;
/** Characters of an API's answer a test shows. */
const SAMPLE_CHARS = 4096;

/** A multipart file as the chain parses it. */
interface UploadedFile {
  filename: string;
  content: Buffer;
}

/** The `file` of a multipart body. @throws AppError 422 on `file` when it is missing or empty. */
function uploadedFile(body: unknown): UploadedFile {
  const file =
    typeof body === 'object' && body !== null ? (body as { file?: unknown }).file : undefined;
  if (
    typeof file !== 'object' ||
    file === null ||
    !Buffer.isBuffer((file as { content?: unknown }).content) ||
    (file as UploadedFile).content.length === 0
  )
    throw validationFailed({ file: [DATA_SOURCE_MESSAGES.file] });
  return file as UploadedFile;
}

/** The row limit of the team's plan (`dataStoreRowsOf`). */
async function rowLimit(teamId: string): Promise<number> {
  return dataStoreRowsOf((await db().Team.get({ teamId }).go()).data?.planId);
}

/**
 * A file read whole for a key column.
 * @throws AppError 422 on `file` with the reader's message when the file is refused.
 */
async function readOrRefuse(file: UploadedFile, keyColumn: string, maxRows: number) {
  try {
    return await readTable(file.content, { format: formatOf(file.filename), keyColumn, maxRows });
  } catch (error) {
    if (error instanceof TableFileError) throw validationFailed({ [error.field]: [error.message] });
    throw error;
  }
}

/** What an upload did, as the contract answers it. */
const uploadAnswer = (
  table: Table,
  written: Awaited<ReturnType<typeof writeTable>>,
  maxRows: number,
) => ({
  store: storeView(written.store, maxRows),
  report: {
    rows: table.records.length,
    added: written.added,
    updated: written.updated,
    cut_values: table.cutValues,
    skipped_empty_rows: table.skippedEmptyRows,
  },
});

/** An API as the contract answers it: header names, never their values. */
const apiView = (a: WebApiRecord): WebApi => ({
  id: a.apiId,
  name: a.name,
  url: a.url,
  ttl_seconds: a.ttlSeconds,
  header_names: a.headerNames ?? [],
  created_at: a.createdAt ?? '',
  updated_at: a.updatedAt ?? a.createdAt ?? '',
});

async function teamApis(teamId: string): Promise<WebApiRecord[]> {
  return (await db().WebApi.query.byTeam({ teamId }).go({ pages: 'all' })).data as WebApiRecord[];
}

/** API `apiId` of team `teamId`. @throws AppError 404 when the team has none such. */
async function loadApi(teamId: string, apiId: string): Promise<WebApiRecord> {
  const found = (await db().WebApi.get({ teamId, apiId }).go()).data;
  if (!found) throw notFound('No such web API.');
  return found as WebApiRecord;
}

/**
 * Refuses a URL template the guard would never fetch (a private or local address, another port);
 * a host that does not resolve yet is accepted, as every fetch checks again.
 * @throws AppError 422 on `url`.
 */
async function assertFetchable(template: string): Promise<void> {
  try {
    await configuredUrlGuard().check(fillTemplate(template, {}), AbortSignal.timeout(3000));
  } catch (error) {
    if (!(error instanceof UrlRefused)) throw error;
    if (error.reason === 'address')
      throw validationFailed({ url: [DATA_SOURCE_MESSAGES.privateUrl] });
    if (error.reason === 'port')
      throw validationFailed({ url: ['Only the standard ports (80 and 443) can be fetched.'] });
    if (error.reason !== 'dns' && error.reason !== 'timeout')
      throw validationFailed({ url: [DATA_SOURCE_MESSAGES.url] });
  }
}

const headerNamesOf = (headers: readonly { name: string }[]) => headers.map((h) => h.name);

/** The route implementations, by route key (spread into the merge-tags feature's handler). */
export const DATA_SOURCE_ROUTES: Record<string, RouteDefinition> = {
  'GET /settings/companies/{id}/data-stores': route({
    handle: async ({ params }) => {
      const maxRows = await rowLimit(params.id!);
      const stores = await teamStores(params.id!);
      return json(200, { stores: stores.map((s) => storeView(s, maxRows)) });
    },
  }),

  /** Creates a store from its first file: nothing is kept when the file is refused. */
  'POST /settings/companies/{id}/data-stores': route({
    handle: async ({ params, event }) => {
      const teamId = params.id!;
      const fields = CreateStoreFields.safeParse(event.body ?? {});
      if (!fields.success) throw fields.error;
      const file = uploadedFile(event.body);
      if ((await teamStores(teamId)).length >= DATA_SOURCE_LIMITS.stores)
        throw validationFailed({ name: [DATA_SOURCE_MESSAGES.tooManyStores] });
      const maxRows = await rowLimit(teamId);
      const draft: StoreRecord = {
        teamId,
        storeId: randomUUID(),
        name: fields.data.name,
        keyColumn: fields.data.key_column,
        columns: [],
        rows: 0,
      };
      // read (and refuse) before the store exists
      const table = await readOrRefuse(file, draft.keyColumn, maxRows);
      const keyColumn = table.columns.find(
        (c) => c.toLowerCase() === draft.keyColumn.toLowerCase(),
      )!;
      await db()
        .DataStore.create({ ...draft, keyColumn, columns: table.columns })
        .go();
      // A store whose first upload failed (and was undone) is not left behind empty.
      const written = await writeTable({ ...draft, keyColumn }, table, maxRows).catch(
        async (error: unknown) => {
          await db()
            .DataStore.delete({ teamId: draft.teamId, storeId: draft.storeId })
            .go()
            .catch(() => undefined);
          throw error;
        },
      );
      return json(201, uploadAnswer(table, written, maxRows));
    },
  }),

  'GET /settings/companies/{id}/data-stores/{storeId}': route({
    handle: async ({ params }) => {
      const store = await loadStore(params.id!, params.storeId!);
      return json(200, {
        store: storeView(store, await rowLimit(params.id!)),
        sample: await sampleRecords(store.teamId, store.storeId, SAMPLE_RECORDS),
      });
    },
  }),

  /** Upserts a file's rows by key: new keys are added, known keys get the file's fields. */
  'POST /settings/companies/{id}/data-stores/{storeId}/upload': route({
    handle: async ({ params, event }) => {
      const store = await loadStore(params.id!, params.storeId!);
      const file = uploadedFile(event.body);
      const maxRows = await rowLimit(store.teamId);
      const table = await readOrRefuse(file, store.keyColumn, maxRows);
      return json(200, uploadAnswer(table, await writeTable(store, table, maxRows), maxRows));
    },
  }),

  'GET /settings/companies/{id}/data-stores/{storeId}/record': route({
    query: RecordQuery,
    handle: async ({ params, query }) => {
      const store = await loadStore(params.id!, params.storeId!);
      const fields = await lookupRecord(store.teamId, store.storeId, query.key);
      if (!fields) throw notFound(`The store has no ${store.keyColumn} "${query.key.trim()}".`);
      return json(200, { record: { key: query.key.trim(), fields } });
    },
  }),

  'DELETE /settings/companies/{id}/data-stores/{storeId}': route({
    handle: async ({ params }) => {
      const store = await loadStore(params.id!, params.storeId!);
      await deleteStore(store.teamId, store.storeId);
      return json(200, { success: true });
    },
  }),

  'GET /settings/companies/{id}/web-apis': route({
    handle: async ({ params }) => json(200, { apis: (await teamApis(params.id!)).map(apiView) }),
  }),

  'POST /settings/companies/{id}/web-apis': route({
    body: CreateApiBody,
    handle: async ({ params, body }) => {
      const teamId = params.id!;
      if ((await teamApis(teamId)).length >= DATA_SOURCE_LIMITS.apis)
        throw validationFailed({ name: [DATA_SOURCE_MESSAGES.tooManyApis] });
      await assertFetchable(body.url);
      const apiId = randomUUID();
      const created = await db()
        .WebApi.create({
          teamId,
          apiId,
          name: body.name,
          url: body.url,
          ttlSeconds: body.ttl_seconds,
          headers: await sealHeaders(teamId, apiId, body.headers),
          headerNames: headerNamesOf(body.headers),
        })
        .go();
      return json(201, { api: apiView(created.data as WebApiRecord) });
    },
  }),

  'PUT /settings/companies/{id}/web-apis/{apiId}': route({
    body: UpdateApiBody,
    handle: async ({ params, body }) => {
      const api = await loadApi(params.id!, params.apiId!);
      if (body.url !== undefined) await assertFetchable(body.url);
      // The sealed headers were entered for the old address: a new origin needs them entered
      // again, or a team admin could repoint the owner's key at a server of their own and read
      // it through Test (docs/data-sources.md "Security").
      if (
        body.url !== undefined &&
        body.headers === undefined &&
        api.headers &&
        templateOrigin(body.url) !== templateOrigin(api.url)
      )
        throw validationFailed({ headers: [DATA_SOURCE_MESSAGES.headersAgain] });
      const updated = await db()
        .WebApi.patch({ teamId: api.teamId, apiId: api.apiId })
        .set({
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.url !== undefined ? { url: body.url } : {}),
          ...(body.ttl_seconds !== undefined ? { ttlSeconds: body.ttl_seconds } : {}),
          ...(body.headers !== undefined
            ? {
                headers: await sealHeaders(api.teamId, api.apiId, body.headers),
                headerNames: headerNamesOf(body.headers),
              }
            : {}),
        })
        .go({ response: 'all_new' });
      return json(200, { api: apiView(updated.data as WebApiRecord) });
    },
  }),

  'DELETE /settings/companies/{id}/web-apis/{apiId}': route({
    handle: async ({ params }) => {
      const api = await loadApi(params.id!, params.apiId!);
      await db().WebApi.delete({ teamId: api.teamId, apiId: api.apiId }).go();
      return json(200, { success: true });
    },
  }),

  /**
   * Fetches the API now (never from the cache) for the given values and reads the given paths:
   * what the editor shows as a sample. A refused or failing fetch answers 200 with `ok: false`.
   */
  'POST /settings/companies/{id}/web-apis/{apiId}/test': route({
    body: TestApiBody,
    handle: async ({ params, body }) => {
      const api = await loadApi(params.id!, params.apiId!);
      const steps = body.paths.map((path, index) => {
        try {
          return parsePath(path);
        } catch (error) {
          if (error instanceof PathError)
            throw validationFailed({ [`paths.${index}`]: [error.message] });
          throw error;
        }
      });
      const answer = await fetchApi(api, body.values, configuredUrlGuard());
      const values = Object.fromEntries(
        body.paths.map((path, i) => [
          path,
          answer.ok ? (readPath(answer.json, steps[i]!) ?? null) : null,
        ]),
      );
      return json(200, {
        ok: answer.ok,
        status: answer.status,
        error: answer.ok ? null : answer.error,
        sample: answer.ok ? JSON.stringify(answer.json, null, 2).slice(0, SAMPLE_CHARS) : '',
        values,
      });
    },
  }),
};
