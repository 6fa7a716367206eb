/**
 * The data panel's calls (docs/data-sources.md "Data stores", "Web APIs"): the team's data
 * stores and one store with a sample of its records, the team's web APIs and a test fetch of
 * one, through the typed client. The routes are for the team's owner and admins; a plain member
 * is answered 403, which the panel shows as a message.
 */
import { ApiError, call } from '../../api/client.ts';
import type { DataStore, WebApi } from '#shared/contract/data-sources.ts';
import type { AnswerOf } from '#shared/contract/index.ts';

export type { DataStore, WebApi } from '#shared/contract/data-sources.ts';

/** A test fetch's answer (`ok`, `status`, `error`, `sample`, `values` by path). */
export type ApiTest = AnswerOf<'POST /settings/companies/{id}/web-apis/{apiId}/test'>;

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

/**
 * `GET /settings/companies/{id}/web-apis`: the team's web APIs (docs/data-sources.md "Web
 * APIs"), header names only.
 * @throws {ApiError} 403 for a member who is not the team's owner or an admin.
 */
export async function listWebApis(teamId: string, signal?: AbortSignal): Promise<WebApi[]> {
  const answer = await call('GET /settings/companies/{id}/web-apis', {
    params: { id: teamId },
    signal,
  });
  return answer.apis;
}

/**
 * `POST …/web-apis/{apiId}/test` (docs/data-sources.md "Web APIs"): the server fetches the API
 * now through its SSRF guard, with `values` filling the URL's placeholders (at most 255
 * characters each), and reads each of `paths` (at most 20) in the answer.
 * @returns `ok`, the endpoint's status (null when none came), the failure, a JSON sample of at
 *   most 4 KiB and each path's value (null: none). A failing API is an answer, not a throw.
 * @throws {ApiError} 404 for another team's API, 422 for a path that does not parse, 403 as above.
 */
export async function testWebApi(
  teamId: string,
  apiId: string,
  input: { values: Record<string, string>; paths: string[] },
  signal?: AbortSignal,
): Promise<ApiTest> {
  return call('POST /settings/companies/{id}/web-apis/{apiId}/test', {
    params: { id: teamId, apiId },
    body: input,
    signal,
  });
}

/**
 * A failed test in a marketer's words: the status the API answered, a timeout (the fetch's
 * 2-second budget, docs/data-sources.md "Web APIs"), a refused address (the SSRF guard,
 * docs/security.md "SSRF guard"), or the server's reason.
 */
export function testProblem(test: Pick<ApiTest, 'ok' | 'status' | 'error'>): string | null {
  if (test.ok) return null;
  if (test.status !== null) return `The API answered ${test.status}.`;
  const error = test.error ?? '';
  if (error.startsWith('Refused (timeout)'))
    return 'The API timed out: no answer within 2 seconds.';
  if (error.startsWith('Refused (')) {
    const reason = error.replace(/^Refused \([a-z]{1,20}\): (URL refused: )?/, '').trim();
    return `The address was refused: ${reason}${reason.endsWith('.') ? '' : '.'}`;
  }
  return error || 'The API could not be reached.';
}
