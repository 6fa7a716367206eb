/**
 * Data stores in DynamoDB (docs/data-sources.md "Data stores", "Storage"): a store item per
 * team and store, and one record item per key (functions/lib/db/entities-data-sources.ts), so
 * a render's lookup is one GetItem. An upload reads the whole file first
 * (functions/data-sources/table.ts) and only then writes: a refused file writes nothing; a
 * write that fails part-way is undone ({@link writeTable}), so an upload is all or nothing
 * (docs/data-sources.md "Uploading a table"). Tests: test/integration/data-sources.test.ts.
 */
import { createHash } from 'node:crypto';
import { db } from '#lib/db/index.ts';
import { AppError, notFound, validationFailed } from '#lib/errors.ts';
import { logger } from '#lib/logger.ts';
import type { DataStore } from '#shared/contract/data-sources.ts';
import type { Table } from './table.ts';

/** Items written or read at once (BatchWriteItem takes 25, BatchGetItem 100, in parallel). */
const CONCURRENCY = 8;
/** Records read per page when a store is emptied, and pages at most (50,000 records / 500). */
const DELETE_PAGE = 500;
const DELETE_PAGES = 200;

/** The sort key of a record: the SHA-256 of its key (case kept, any length). */
export const keyHashOf = (key: string): string =>
  createHash('sha256').update(key, 'utf8').digest('base64url');

/** A stored store item (the entity's shape). */
export interface StoreRecord {
  teamId: string;
  storeId: string;
  name: string;
  keyColumn: string;
  columns: string[];
  rows: number;
  createdAt?: string;
  updatedAt?: string;
}

/** A store as the contract answers it. */
export const storeView = (s: StoreRecord, maxRows: number): DataStore => ({
  id: s.storeId,
  name: s.name,
  key_column: s.keyColumn,
  columns: s.columns,
  rows: s.rows,
  max_rows: maxRows,
  created_at: s.createdAt ?? '',
  updated_at: s.updatedAt ?? s.createdAt ?? '',
});

/** The team's stores, by id. */
export async function teamStores(teamId: string): Promise<StoreRecord[]> {
  return (await db().DataStore.query.byTeam({ teamId }).go({ pages: 'all' })).data as StoreRecord[];
}

/** Store `storeId` of team `teamId`. @throws AppError 404 when the team has none such. */
export async function loadStore(teamId: string, storeId: string): Promise<StoreRecord> {
  const found = (await db().DataStore.get({ teamId, storeId }).go()).data;
  if (!found) throw notFound('No such data store.');
  return found as StoreRecord;
}

/**
 * A record of a store by its key, as a render looks it up: one GetItem.
 * @returns its fields by column, or undefined when the store has no such key.
 */
export async function lookupRecord(
  teamId: string,
  storeId: string,
  key: string,
): Promise<Record<string, string> | undefined> {
  const trimmed = key.trim();
  if (trimmed === '') return undefined;
  const found = (
    await db()
      .DataRecord.get({ teamId, storeId, keyHash: keyHashOf(trimmed) })
      .go()
  ).data;
  return found ? (found.fields as Record<string, string>) : undefined;
}

/** The first `limit` records of a store (in hash order: a sample, not the file's first rows). */
export async function sampleRecords(teamId: string, storeId: string, limit: number) {
  const { data } = await db().DataRecord.query.byStore({ teamId, storeId }).go({ limit });
  return data.map((r) => ({ key: r.key, fields: r.fields as Record<string, string> }));
}

/** The answer to an upload whose write failed part-way and was undone. */
export const UPLOAD_UNDONE_MESSAGE =
  'The upload failed part-way and was undone: the data store is as it was. Upload the file again.';

interface RecordItem {
  teamId: string;
  storeId: string;
  keyHash: string;
  key: string;
  fields: Record<string, string>;
}

/**
 * Puts back what an upload overwrote (the records it replaced as they were) and deletes the
 * keys it added. Idempotent: whatever part of the upload was written, the store ends as before.
 */
async function undoUpload(
  items: readonly RecordItem[],
  previous: ReadonlyMap<string, RecordItem>,
): Promise<void> {
  const restore = items.flatMap((i) => previous.get(i.keyHash) ?? []);
  const added = items.filter((i) => !previous.has(i.keyHash));
  if (restore.length > 0) {
    const { unprocessed } = await db().DataRecord.put(restore).go({ concurrency: CONCURRENCY });
    if (unprocessed.length > 0) throw new Error(`${unprocessed.length} records not restored`);
  }
  if (added.length > 0) {
    const { unprocessed } = await db()
      .DataRecord.delete(
        added.map(({ teamId, storeId, keyHash }) => ({ teamId, storeId, keyHash })),
      )
      .go({ concurrency: CONCURRENCY });
    if (unprocessed.length > 0) throw new Error(`${unprocessed.length} records not removed`);
  }
}

/**
 * Upserts a table's records into a store and records its columns and count, all or nothing
 * (docs/data-sources.md "Uploading a table"): the records the file replaces are read first, and
 * when a write fails part-way (a DynamoDB error, records it left unprocessed) the records
 * written are put back as they were and the keys added removed before the store's columns and
 * count change. While an upload is being written, a render may see some of its records.
 * @returns how many keys were new and how many replaced fields the store had.
 * @throws AppError 503 {@link UPLOAD_UNDONE_MESSAGE} when the write failed and was undone; the
 *   write's own error when even the undo failed (the store then holds part of the file,
 *   logged; uploading the file again finishes it).
 */
export async function writeTable(
  store: StoreRecord,
  table: Table,
  maxRows: number,
): Promise<{ added: number; updated: number; store: StoreRecord }> {
  const { teamId, storeId } = store;
  const items: RecordItem[] = table.records.map((r) => ({
    teamId,
    storeId,
    keyHash: keyHashOf(r.key),
    key: r.key,
    fields: r.fields,
  }));
  const previous = new Map<string, RecordItem>();
  if (store.rows > 0 && items.length > 0) {
    const found = await db()
      .DataRecord.get(items.map(({ keyHash }) => ({ teamId, storeId, keyHash })))
      .go({ concurrency: CONCURRENCY });
    if (found.unprocessed.length > 0)
      throw new AppError(503, 'service_unavailable', UPLOAD_UNDONE_MESSAGE);
    for (const r of found.data as RecordItem[]) previous.set(r.keyHash, r);
  }
  const updated = previous.size;
  const added = items.length - updated;
  // The plan's limit is the store's, not one file's: new keys may not take it past the limit.
  if (store.rows + added > maxRows)
    throw validationFailed({ file: [storeFullMessage(store.rows, added, maxRows)] });
  try {
    if (items.length > 0) {
      const { unprocessed } = await db().DataRecord.put(items).go({ concurrency: CONCURRENCY });
      if (unprocessed.length > 0) throw new Error(`${unprocessed.length} records were not written`);
    }
    const next = await db()
      .DataStore.patch({ teamId, storeId })
      .set({ columns: table.columns })
      .add({ rows: added })
      .go({ response: 'all_new' });
    return { added, updated, store: next.data as StoreRecord };
  } catch (error) {
    try {
      await undoUpload(items, previous);
    } catch (undo) {
      logger.error('data store upload not undone: the store holds part of the file', {
        teamId,
        storeId,
        error: undo as Error,
      });
      throw error;
    }
    logger.warn('data store upload failed part-way: undone', {
      teamId,
      storeId,
      error: error as Error,
    });
    throw new AppError(503, 'service_unavailable', UPLOAD_UNDONE_MESSAGE);
  }
}

/**
 * The refusal of an upload whose new keys would take a store past the plan's row limit.
 * @param rows the store's rows now; @param added the file's new keys; @param maxRows the limit.
 */
export function storeFullMessage(rows: number, added: number, maxRows: number): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return `The store has ${n(rows)} rows and this file adds ${n(added)} new keys: more than the ${n(maxRows)} rows your plan allows in one data store. Remove rows from the file, or upgrade for a larger limit.`;
}

/** The answer when a store's records could not all be deleted in one call. */
export const DELETE_UNFINISHED_MESSAGE =
  'Part of the data store was deleted, but not all of it. Delete it again to finish.';

/**
 * Deletes a store and every record of it: at most {@link DELETE_PAGES} pages of
 * {@link DELETE_PAGE} records in one call (more than any plan's row limit). The store itself
 * goes only once no record is left, so no record outlives it unseen.
 * @param bounds the pages and their size (tests use small ones).
 * @throws AppError 503 {@link DELETE_UNFINISHED_MESSAGE} when records remain (deleting again
 *   goes on where this call stopped).
 */
export async function deleteStore(
  teamId: string,
  storeId: string,
  bounds = { pages: DELETE_PAGES, pageSize: DELETE_PAGE },
): Promise<void> {
  for (let page = 0; page <= bounds.pages; page++) {
    const { data } = await db()
      .DataRecord.query.byStore({ teamId, storeId })
      .go({ limit: bounds.pageSize, attributes: ['teamId', 'storeId', 'keyHash'] });
    if (data.length === 0) break;
    if (page === bounds.pages)
      throw new AppError(503, 'service_unavailable', DELETE_UNFINISHED_MESSAGE);
    await db()
      .DataRecord.delete(data.map(({ keyHash }) => ({ teamId, storeId, keyHash: keyHash! })))
      .go({ concurrency: CONCURRENCY });
  }
  await db().DataStore.delete({ teamId, storeId }).go();
}
