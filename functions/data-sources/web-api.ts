/**
 * Web APIs as data sources (docs/data-sources.md "Web APIs"): a JSON endpoint whose URL
 * template's `{name}` placeholders are filled with the render URL's values (URL-encoded),
 * fetched through the SSRF guard within a time and byte budget, its answer kept for the API's
 * TTL (in memory and in S3, "Caching"), read by field paths (shared/data-path.ts). Secret
 * headers are sealed like provider credentials (functions/lib/secrets.ts) and opened only to
 * send them. Every failure is "no value": the parameter's fallback shows.
 * Tests: test/integration/data-sources.test.ts, test/unit/data-path.test.ts.
 */
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { s3Client } from '#lib/clients.ts';
import { config } from '#lib/config.ts';
import { logger } from '#lib/logger.ts';
import { openSecret, sealSecret, secretKeys } from '#lib/secrets.ts';
import { UrlRefused, type UrlGuard } from '#lib/ssrf.ts';
import { DATA_SOURCE_LIMITS } from '#shared/contract/data-sources.ts';

/** The stored web API (the entity's shape). */
export interface WebApiRecord {
  teamId: string;
  apiId: string;
  name: string;
  url: string;
  ttlSeconds: number;
  headers?: string;
  headerNames?: string[];
  createdAt?: string;
  updatedAt?: string;
}

/** A URL template's placeholders: `{name}`, a name of letters, digits, `_` and `-`. */
const PLACEHOLDER = /\{([A-Za-z0-9_-]{1,64})\}/g;

/** The prefix of cached answers in the renders bucket (docs/data-sources.md "Caching"). */
export const API_CACHE_PREFIX = 'data-api/';

/** Answers kept in this process at most, and their JSON's characters at most (the oldest dropped first). */
const MEMORY_ENTRIES = 500;
const MEMORY_CHARS = 16 * 1024 * 1024;

/** The parameter names a URL template uses, in order, each once. */
export function templateParameters(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

/**
 * A URL template filled in: each `{name}` replaced by the URL-encoded value of `name`
 * (`encodeURIComponent`; '' when the render URL has none), so a value cannot add a path, a
 * query or a host.
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(PLACEHOLDER, (_m, name: string) =>
    encodeURIComponent(Object.hasOwn(values, name) ? values[name]! : ''),
  );
}

const contextOf = (teamId: string, apiId: string) => ({ teamId, apiId, purpose: 'web-api' });

/** Seals an API's secret headers for storage ('' when there are none). */
export async function sealHeaders(
  teamId: string,
  apiId: string,
  headers: readonly { name: string; value: string }[],
): Promise<string> {
  if (headers.length === 0) return '';
  const plain = JSON.stringify(headers.map(({ name, value }) => [name, value]));
  return JSON.stringify(await sealSecret(plain, contextOf(teamId, apiId), secretKeys()));
}

/** Opens an API's secret headers. @throws SecretError when they do not open. */
async function openHeaders(api: WebApiRecord): Promise<Record<string, string>> {
  if (!api.headers) return {};
  const plain = await openSecret(
    JSON.parse(api.headers) as never,
    contextOf(api.teamId, api.apiId),
    secretKeys(),
  );
  return Object.fromEntries(JSON.parse(plain) as [string, string][]);
}

/** The outcome of one fetch: the parsed JSON, or why there is none. */
export type ApiAnswer =
  { ok: true; status: number; json: unknown } | { ok: false; status: number | null; error: string };

/**
 * Fetches an API for a render's values, through the guard: GET, `Accept: application/json`,
 * the budget of {@link DATA_SOURCE_LIMITS} (`fetchMs` for the whole chain, `answerBytes`),
 * three redirects at most, each checked.
 * @returns the parsed JSON of a 2xx JSON answer; otherwise `ok: false` with the status and a
 *   reason (never throws for the endpoint's faults).
 */
export async function fetchApi(
  api: WebApiRecord,
  values: Readonly<Record<string, string>>,
  guard: UrlGuard,
): Promise<ApiAnswer> {
  const url = fillTemplate(api.url, values);
  try {
    const res = await guard.fetch(url, {
      timeoutMs: DATA_SOURCE_LIMITS.fetchMs,
      maxBytes: DATA_SOURCE_LIMITS.answerBytes,
      accept: 'application/json',
      headers: await openHeaders(api),
    });
    if (res.status < 200 || res.status > 299)
      return { ok: false, status: res.status, error: `The API answered ${res.status}.` };
    try {
      return { ok: true, status: res.status, json: JSON.parse(res.body.toString('utf8')) };
    } catch {
      return { ok: false, status: res.status, error: 'The answer is not JSON.' };
    }
  } catch (error) {
    if (error instanceof UrlRefused)
      return { ok: false, status: null, error: `Refused (${error.reason}): ${error.message}` };
    return { ok: false, status: null, error: 'The API could not be reached.' };
  }
}

/**
 * Fetches one API may make per second in this process (docs/data-sources.md "Security"): render
 * URLs are public, so varying a value must not turn the render function into a flood against a
 * team's API. Past it a render gets no value (the fallback), as for a failed fetch.
 */
export const API_FETCHES_PER_SECOND = 20;
const windows = new Map<string, { second: number; count: number }>();

/** Takes one fetch of `apiId`'s allowance for this second; false when it is spent. */
function takeFetch(apiId: string, now = Date.now()): boolean {
  const second = Math.floor(now / 1000);
  const window = windows.get(apiId);
  if (!window || window.second !== second) {
    if (windows.size >= MEMORY_ENTRIES) windows.clear();
    windows.set(apiId, { second, count: 1 });
    return true;
  }
  window.count += 1;
  return window.count <= API_FETCHES_PER_SECOND;
}

const memory = new Map<string, { at: number; json: unknown; chars: number }>();
let memoryChars = 0;

/** Where an API's answer for one filled URL is kept: the API's id and version, the URL's hash. */
function cacheKeyOf(api: WebApiRecord, url: string): string {
  const hash = createHash('sha256')
    .update(`${api.updatedAt ?? ''}\n${url}`)
    .digest('base64url')
    .slice(0, 32);
  return `${API_CACHE_PREFIX}${api.apiId}/${hash}.json`;
}

/** A kept answer still within the API's TTL, from memory, else from S3. */
async function keptAnswer(key: string, ttlMs: number): Promise<unknown> {
  const hit = memory.get(key);
  if (hit && Date.now() - hit.at < ttlMs) return hit.json;
  try {
    const object = await s3Client().send(
      new GetObjectCommand({ Bucket: config().RENDERS_BUCKET, Key: key }),
    );
    const at = object.LastModified?.getTime() ?? 0;
    if (Date.now() - at >= ttlMs) return undefined;
    const text = await object.Body!.transformToString('utf-8');
    const json: unknown = JSON.parse(text);
    remember(key, at, json, text.length);
    return json;
  } catch {
    return undefined; // not kept (or unreadable): fetch
  }
}

/** Keeps an answer in memory, dropping the oldest past {@link MEMORY_ENTRIES} or {@link MEMORY_CHARS}. */
function remember(key: string, at: number, json: unknown, chars: number): void {
  const forget = (k: string) => {
    memoryChars -= memory.get(k)?.chars ?? 0;
    memory.delete(k);
  };
  forget(key);
  if (chars > MEMORY_CHARS / 16) return;
  while (memory.size > 0 && (memory.size >= MEMORY_ENTRIES || memoryChars + chars > MEMORY_CHARS))
    forget(memory.keys().next().value!);
  memory.set(key, { at, json, chars });
  memoryChars += chars;
}

/**
 * An API's JSON for a render's values: the kept answer while it is younger than the API's TTL,
 * else a fetch ({@link fetchApi}) whose 2xx JSON answer is kept (memory at once, S3 in the
 * background), at most {@link API_FETCHES_PER_SECOND} a second per API. A TTL of 0 keeps
 * nothing. Failures are not kept: the next render tries again.
 * @returns the JSON, or undefined when there is none (refused, timeout, not 2xx, not JSON).
 */
export async function apiJson(
  api: WebApiRecord,
  values: Readonly<Record<string, string>>,
  guard: UrlGuard,
): Promise<unknown> {
  const ttlMs = api.ttlSeconds * 1000;
  const key = cacheKeyOf(api, fillTemplate(api.url, values));
  if (ttlMs > 0) {
    const kept = await keptAnswer(key, ttlMs);
    if (kept !== undefined) return kept;
  }
  if (!takeFetch(api.apiId)) {
    logger.warn('web API fetches past the per-second allowance: fallback shown', {
      apiId: api.apiId,
    });
    return undefined;
  }
  const answer = await fetchApi(api, values, guard);
  if (!answer.ok) {
    logger.info('web API gave no value', { apiId: api.apiId, status: answer.status });
    return undefined;
  }
  if (ttlMs > 0) {
    const text = JSON.stringify(answer.json);
    remember(key, Date.now(), answer.json, text.length);
    void s3Client()
      .send(
        new PutObjectCommand({
          Bucket: config().RENDERS_BUCKET,
          Key: key,
          Body: text,
          ContentType: 'application/json',
        }),
      )
      .catch((e: unknown) => logger.warn('web API cache write failed', { error: e as Error }));
  }
  return answer.json;
}

/** Forgets every answer kept in this process (tests). */
export function forgetKeptAnswers(): void {
  memory.clear();
  memoryChars = 0;
}
