/**
 * A render's data lookups (docs/data-sources.md "At render time"): each of the design's data
 * bindings (shared/data-bindings.ts) reads one record, from a data store (one GetItem) or a web
 * API (its kept answer, else one fetch through the SSRF guard), and gives the values of the
 * parameters it fills. Lookups run side by side within one time budget; a binding that fails,
 * misses or runs out of time gives nothing, so its parameters show the URL's value or their
 * fallback, and the image is never broken. A binding that failed or ran out of time (not one
 * that found no record) marks the result `failed`: the render is partial and no cache keeps it.
 * Tests: test/integration/data-sources.test.ts.
 */
import { db } from '#lib/db/index.ts';
import { logger } from '#lib/logger.ts';
import type { UrlGuard } from '#lib/ssrf.ts';
import { DATA_SOURCE_LIMITS } from '#shared/contract/data-sources.ts';
import type { DataBinding } from '#shared/data-bindings.ts';
import { parsePath, readPath } from '#shared/data-path.ts';
import { lookupRecord } from './stores.ts';
import { apiJson, type WebApiRecord } from './web-api.ts';

/** The whole budget of a render's lookups, ms: one API fetch's budget and a margin. */
export const LOOKUP_BUDGET_MS = DATA_SOURCE_LIMITS.fetchMs + 500;

/** A store's fields as `[param, value]` for a binding (columns matched ignoring case). */
function fromRecord(binding: DataBinding, record: Record<string, string>): [string, string][] {
  const byName = new Map(Object.entries(record).map(([k, v]) => [k.toLowerCase(), v]));
  return binding.fields.flatMap(({ field, param }) => {
    const value = byName.get(field.trim().toLowerCase());
    return value === undefined || value === '' ? [] : [[param, value] as [string, string]];
  });
}

/** An API answer's values as `[param, value]` for a binding (a path that does not parse gives none). */
function fromJson(binding: DataBinding, json: unknown): [string, string][] {
  return binding.fields.flatMap(({ field, param }) => {
    try {
      const value = readPath(json, parsePath(field));
      return value === undefined || value === '' ? [] : [[param, value] as [string, string]];
    } catch {
      return [];
    }
  });
}

/**
 * The values an API binding's URL template is filled with: the render URL's, each placeholder
 * the binding lists taking its parameter's value ('' when the URL has none) or its fixed value.
 */
export function urlValuesOf(
  binding: Pick<DataBinding, 'url_values'>,
  query: Readonly<Record<string, string>>,
): Record<string, string> {
  // no prototype: a placeholder named like `__proto__` is a name like any other
  const values = Object.assign(Object.create(null) as Record<string, string>, query);
  for (const { name, param, value } of binding.url_values ?? []) {
    values[name] = param === '' ? value : Object.hasOwn(query, param) ? query[param]! : '';
  }
  return values;
}

/** One binding's values; `failed` when its source gave no answer to trust (see ApiLookup). */
async function lookUp(
  teamId: string,
  binding: DataBinding,
  query: Readonly<Record<string, string>>,
  guard: UrlGuard,
): Promise<{ values: [string, string][]; failed?: true }> {
  if (binding.source === 'store') {
    const key = Object.hasOwn(query, binding.key_param) ? query[binding.key_param]! : '';
    const record = await lookupRecord(teamId, binding.source_id, key);
    return { values: record ? fromRecord(binding, record) : [] };
  }
  const api = (await db().WebApi.get({ teamId, apiId: binding.source_id }).go()).data;
  if (!api) return { values: [] };
  const answer = await apiJson(api as WebApiRecord, urlValuesOf(binding, query), guard);
  if ('json' in answer) return { values: fromJson(binding, answer.json) };
  return 'failed' in answer ? { values: [], failed: true } : { values: [] };
}

/** What a design's bindings found for a render. */
export interface DataValues {
  /** `[param, value]` pairs, in the bindings' order (a later one wins for a parameter). */
  values: [string, string][];
  /**
   * True when a binding failed (a source error, a refused or failed fetch) or was still running
   * at {@link LOOKUP_BUDGET_MS}: the render is partial, `no-store` (functions/render/service.ts).
   */
  failed: boolean;
}

/**
 * The values a design's bindings find for a render.
 * @param teamId the design's team: a binding reads that team's sources only (another team's id
 *   finds nothing).
 * @param bindings the document's `data_bindings`, in order (a later one wins for a parameter).
 * @param query the render URL's values (keys and URL templates read them).
 * @returns the pairs found within {@link LOOKUP_BUDGET_MS}, and whether any lookup failed;
 *   never throws.
 */
export async function resolveDataValues(
  teamId: string,
  bindings: readonly DataBinding[],
  query: Readonly<Record<string, string>>,
  guard: UrlGuard,
): Promise<DataValues> {
  if (bindings.length === 0) return { values: [], failed: false };
  const found: [string, string][][] = bindings.map(() => []);
  const settled = bindings.map(() => false);
  let failed = false;
  const lookups = bindings.map(async (binding, i) => {
    try {
      const result = await lookUp(teamId, binding, query, guard);
      found[i] = result.values;
      if (result.failed) failed = true;
    } catch (error) {
      failed = true;
      logger.warn('data lookup failed: fallback shown', {
        source: binding.source,
        error: error as Error,
      });
    } finally {
      settled[i] = true;
    }
  });
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(lookups),
    new Promise((resolve) => {
      timer = setTimeout(resolve, LOOKUP_BUDGET_MS);
    }),
  ]);
  clearTimeout(timer);
  return { values: found.flat(), failed: failed || settled.includes(false) };
}
