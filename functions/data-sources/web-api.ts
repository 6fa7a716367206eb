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
import { DOT_SEGMENT } from '#shared/scene/web-crop.ts';

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

/**
 * The origin a URL template fetches from: its placeholders stand only in the path and the query
 * (a template with one in the host is refused when saved), so any values give the same one.
 * @throws TypeError when the template does not parse as a URL.
 */
export function templateOrigin(template: string): string {
  return new URL(template.replace(PLACEHOLDER, 'x')).origin;
}

/** The parameter names a URL template uses, in order, each once. */
export function templateParameters(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

/** Why a filled URL template is not fetched (docs/data-sources.md "Web APIs"). */
export class TemplateRefused extends Error {
  override readonly name = 'TemplateRefused';
}

/**
 * A URL template filled in: each `{name}` replaced by the URL-encoded value of `name`
 * (`encodeURIComponent`; '' when the render URL has none), so a value cannot add a path segment,
 * a query or a host, nor walk up the path: a filled path segment that is `.` or `..` (raw or
 * percent-encoded, any case, alone or made of two values) is refused, and the filled URL must
 * keep the template's fixed start (the text before the first placeholder) once parsed.
 * @throws TemplateRefused when the values would move the URL off the template's path.
 *   Tests: test/unit/web-api-template.test.ts.
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  const filled = template.replace(PLACEHOLDER, (_m, name: string) =>
    encodeURIComponent(Object.hasOwn(values, name) ? values[name]! : ''),
  );
  if (filled === template) return filled;
  // The raw path: after the authority, before the query or fragment. Values cannot add `/`, `?`
  // or `#` (they are encoded), so the segments are the template's.
  const authority = filled.indexOf('//') + 2;
  const pathEnd = [filled.indexOf('?', authority), filled.indexOf('#', authority)]
    .filter((i) => i >= 0)
    .reduce((a, b) => Math.min(a, b), filled.length);
  const pathStart = filled.indexOf('/', authority);
  if (pathStart >= 0 && pathStart < pathEnd) {
    const segments = filled.slice(pathStart + 1, pathEnd).split('/');
    if (segments.some((segment) => DOT_SEGMENT.test(segment)))
      throw new TemplateRefused('A value would walk the URL up its path (. or ..).');
  }
  const fixed = template.slice(0, template.search(PLACEHOLDER));
  let url: URL;
  try {
    url = new URL(filled);
  } catch {
    throw new TemplateRefused('The filled URL does not parse.');
  }
  let start: URL | undefined;
  try {
    start = new URL(fixed);
  } catch {
    start = undefined; // a placeholder in the host: the guard checks wherever it points
  }
  // Past the authority, the parsed URL still begins with the template's fixed start.
  if (start && fixed.indexOf('/', authority) >= 0 && !url.href.startsWith(start.href))
    throw new TemplateRefused('The filled URL leaves the template’s path.');
  return filled;
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
  let url: string;
  try {
    url = fillTemplate(api.url, values);
  } catch (error) {
    if (error instanceof TemplateRefused) return { ok: false, status: null, error: error.message };
    throw error;
  }
  try {
    const res = await guard.fetch(url, {
      timeoutMs: DATA_SOURCE_LIMITS.fetchMs,
      maxBytes: DATA_SOURCE_LIMITS.answerBytes,
      accept: 'application/json',
      // The team's secret headers go to the template's origin only (functions/lib/ssrf.ts rule 7).
      secretHeaders: await openHeaders(api),
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

/**
 * Takes one fetch of `apiId`'s allowance for this second; false when it is spent. At most
 * {@link MEMORY_ENTRIES} APIs are counted at once: past that, the windows of earlier seconds
 * are dropped (they allow nothing any more), never the current second's, and with every slot
 * taken this second a new API waits for the next one. Wiping them all would hand every API a
 * fresh allowance (test/unit/web-api-allowance.test.ts).
 */
export function takeFetch(apiId: string, now = Date.now()): boolean {
  const second = Math.floor(now / 1000);
  const window = windows.get(apiId);
  if (!window || window.second !== second) {
    if (!window && windows.size >= MEMORY_ENTRIES) {
      for (const [id, w] of windows) if (w.second !== second) windows.delete(id);
      if (windows.size >= MEMORY_ENTRIES) return false;
    }
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
 * What a render's lookup of one API came to: its JSON; `none` when the API answered that it has
 * nothing (a 4xx) or the values cannot fill the template (a `..`), the same for every later
 * request of these values; `failed` when there was no answer to trust (refused by the
 * per-second allowance or the guard, timed out, a 5xx, not JSON), which a later request may not
 * meet: the render is then partial and kept by no cache (docs/data-sources.md "At render time").
 */
export type ApiLookup = { json: unknown } | { none: true } | { failed: string };

/**
 * An API's JSON for a render's values: the kept answer while it is younger than the API's TTL,
 * else a fetch ({@link fetchApi}) whose 2xx JSON answer is kept (memory at once, S3 in the
 * background), at most {@link API_FETCHES_PER_SECOND} a second per API. A TTL of 0 keeps
 * nothing. Failures are not kept: the next render tries again.
 * @returns see {@link ApiLookup}; never throws for the endpoint's faults or the values.
 */
export async function apiJson(
  api: WebApiRecord,
  values: Readonly<Record<string, string>>,
  guard: UrlGuard,
): Promise<ApiLookup> {
  const ttlMs = api.ttlSeconds * 1000;
  let url: string;
  try {
    url = fillTemplate(api.url, values);
  } catch (error) {
    if (error instanceof TemplateRefused) return { none: true };
    throw error;
  }
  const key = cacheKeyOf(api, url);
  if (ttlMs > 0) {
    const kept = await keptAnswer(key, ttlMs);
    if (kept !== undefined) return { json: kept };
  }
  if (!takeFetch(api.apiId)) {
    logger.warn('web API fetches past the per-second allowance: fallback shown', {
      apiId: api.apiId,
    });
    return { failed: 'allowance' };
  }
  const answer = await fetchApi(api, values, guard);
  if (!answer.ok) {
    logger.info('web API gave no value', { apiId: api.apiId, status: answer.status });
    // The API said it has nothing for these values: as stable as an answer.
    if (answer.status !== null && answer.status >= 400 && answer.status < 500)
      return { none: true };
    return { failed: answer.error };
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
  return { json: answer.json };
}

/** Forgets every answer kept in this process (tests). */
export function forgetKeptAnswers(): void {
  memory.clear();
  memoryChars = 0;
}
