/**
 * The data panel's calls (docs/data-sources.md "Data stores"): the team's data stores and one
 * store with a sample of its records, through the typed client. Both routes are for the team's
 * owner and admins; a plain member is answered 403, which the panel shows as a message.
 */
import { ApiError, call } from '../../api/client.ts';
import type { DataStore } from '#shared/contract/data-sources.ts';

export type { DataStore } from '#shared/contract/data-sources.ts';

/** One record of a store: its key and its fields by column. */
export interface DataRecord {
  key: string;
  fields: Record<string, string>;
}

/** True for the answer a plain member gets from the store routes (manager-only). */
export const isNotManager = (error: unknown): boolean =>
  error instanceof ApiError && error.status === 403;

/**
 * `GET /settings/companies/{id}/data-stores`: the team's stores.
 * @throws {ApiError} 403 for a member who is not the team's owner or an admin.
 */
export async function listDataStores(teamId: string, signal?: AbortSignal): Promise<DataStore[]> {
  const answer = await call('GET /settings/companies/{id}/data-stores', {
    params: { id: teamId },
    signal,
  });
  return answer.stores;
}

/**
 * `GET /settings/companies/{id}/data-stores/{storeId}`: the store and up to 5 of its records.
 * @throws {ApiError} 404 when the store is not the team's; 403 as above.
 */
export async function fetchStoreSample(
  teamId: string,
  storeId: string,
  signal?: AbortSignal,
): Promise<{ store: DataStore; sample: DataRecord[] }> {
  return call('GET /settings/companies/{id}/data-stores/{storeId}', {
    params: { id: teamId, storeId },
    signal,
  });
}
