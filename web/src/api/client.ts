/**
 * The SPA's one way to call the API: JSON in, JSON out, the spec's headers on every request.
 *
 * docs/adr/0009-sessions-and-csrf.md "Sessions and CSRF": "Requests carry an XHR header and a CSRF
 * token header." Every call sends `X-Requested-With: XMLHttpRequest` and `Accept:
 * application/json`, `Content-Type: application/json` when there is a body, and `X-XSRF-TOKEN`
 * copied from the `XSRF-TOKEN` cookie when the server has set one (docs/security.md "Sessions and
 * tokens"). Cookies go along (same origin).
 *
 * Failures are thrown as one typed {@link ApiError}, whatever went wrong, so screens handle a
 * single shape (docs/accounts.md "Error answers in the SPA", error catalogue).
 */

import type { AnswerOf, BodyOf, ContractKey, ParamsOf, QueryOf } from '#shared/contract/index.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Field name → messages, as a 422 answer carries them (`{ message, errors }`). */
export type FieldErrors = Record<string, string[]>;

/** docs/accounts.md "Error answers in the SPA": shown when an answer carries no usable message (not JSON, no `message`). */
export const GENERIC_ERROR_MESSAGE =
  'Something went wrong. Please try again or contact customer support.';

/** Shown when the request never got an answer (offline, DNS, connection reset). */
export const NETWORK_ERROR_MESSAGE =
  'We could not reach PicSnippets. Check your connection and try again.';

/**
 * A failed API call.
 * - `status`: the HTTP status, or 0 when no answer arrived (network failure);
 * - `message`: the answer's `message`, else {@link GENERIC_ERROR_MESSAGE};
 * - `errors`: the answer's field errors when it had an `errors` object (422);
 * - `body`: the parsed JSON answer, if it was JSON (some answers, like a 503 from
 *   `/api/health`, carry data worth showing).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly errors: FieldErrors | undefined;
  readonly body: unknown;

  constructor(status: number, message: string, errors?: FieldErrors, body?: unknown) {
    super(message);
    this.status = status;
    this.errors = errors;
    this.body = body;
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

type UnauthorizedListener = (path: string) => void;
let unauthorizedListener: UnauthorizedListener | undefined;

/**
 * docs/accounts.md "Error answers in the SPA": "HTTP 401: the client logs out and opens a
 * session-expired modal". The store registers here (the client does not import the store); it is
 * told the path of every call answered 401, before the {@link ApiError} is thrown to the caller.
 */
export function onUnauthorized(listener: UnauthorizedListener | undefined): void {
  unauthorizedListener = listener;
}

type PaymentRequiredListener = (path: string) => void;
let paymentRequiredListener: PaymentRequiredListener | undefined;

/**
 * docs/accounts.md "Error answers in the SPA": "HTTP 402: redirect to /settings#/subscription". The
 * router registers here; it is told the path of every call answered 402, before the {@link
 * ApiError} is thrown.
 */
export function onPaymentRequired(listener: PaymentRequiredListener | undefined): void {
  paymentRequiredListener = listener;
}

/** Tells the listeners about a 401 or 402 answer. */
function notifyStatus(status: number, path: string): void {
  if (status === 401) unauthorizedListener?.(path);
  if (status === 402) paymentRequiredListener?.(path);
}

export interface ApiOptions {
  /** Cancels the request; the promise then rejects with the browser's `AbortError`. */
  signal?: AbortSignal;
}

/** What a typed call sends: the route's path parameters, query and body, as its contract says. */
export type CallInput<K extends ContractKey> = (ParamsOf<K> extends undefined
  ? { params?: undefined }
  : { params: ParamsOf<K> }) &
  (QueryOf<K> extends undefined ? { query?: undefined } : { query?: QueryOf<K> }) &
  (BodyOf<K> extends undefined ? { body?: undefined } : { body: BodyOf<K> }) &
  ApiOptions;

/**
 * The path of a typed call: the route's `{placeholders}` filled with the encoded parameters
 * and the query appended (empty and undefined values left out).
 * @throws Error when a placeholder has no parameter (a programming error the types prevent).
 */
export function callPath(
  path: string,
  params: Record<string, string> | undefined,
  query: Record<string, unknown> | undefined,
): string {
  const filled = path.replace(/\{(\w+)\+?\}/g, (_m, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${path}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text === '' ? filled : `${filled}?${text}`;
}

/**
 * Calls a route of the API contract (shared/contract; docs/adr/0044-the-api-contract.md "The API
 * contract"): `call('PUT /api/pic-snippet/{id}', { params: { id }, body })`. The path, query, body
 * and the answer's type come from the route's contract; the answer is the server's JSON (the server
 * checks it against the same contract in tests).
 * @throws {ApiError} as {@link api} does.
 */
export async function call<K extends ContractKey>(
  key: K,
  input: CallInput<K>,
): Promise<AnswerOf<K>> {
  const space = key.indexOf(' ');
  const method = key.slice(0, space) as HttpMethod;
  const { params, query, body, ...options } = input as {
    params?: Record<string, string>;
    query?: Record<string, unknown>;
    body?: unknown;
  } & ApiOptions;
  const path = callPath(key.slice(space + 1), params, query);
  return api<AnswerOf<K>>(method, path, body, options);
}

/**
 * Calls the API on this origin.
 *
 * @param method HTTP method.
 * @param path   path on this origin, with any query string, e.g. `/api/health`.
 * @param body   sent as JSON when given.
 * @returns the answer's JSON as `T` (not validated: check untrusted shapes at the call site),
 *   or `undefined` for an empty answer (204).
 * @throws {ApiError} for any non-2xx answer, a 2xx answer that is not JSON, or a network
 *   failure (status 0). An abort rethrows the browser's `AbortError` unchanged.
 */
async function api<T>(
  method: HttpMethod,
  path: string,
  body?: unknown,
  options: ApiOptions = {},
): Promise<T> {
  const headers = new Headers({
    'X-Requested-With': 'XMLHttpRequest',
    Accept: 'application/json',
  });
  if (body !== undefined) headers.set('Content-Type', 'application/json');
  if (method !== 'GET' && xsrfToken() === undefined) {
    // Any GET to the API sets the CSRF cookie; fetch one before the first state-changing call.
    await fetch('/user/current', {
      headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' },
      credentials: 'same-origin',
    }).catch(() => undefined);
  }
  const xsrf = xsrfToken();
  if (xsrf !== undefined) headers.set('X-XSRF-TOKEN', xsrf);

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, NETWORK_ERROR_MESSAGE);
  }

  const json = await readJson(response);
  notifyStatus(response.status, path);

  if (response.ok) {
    if (json.kind === 'json') return json.value as T;
    if (json.kind === 'empty') return undefined as T;
    throw new ApiError(response.status, GENERIC_ERROR_MESSAGE);
  }

  if (json.kind !== 'json' || !isRecord(json.value)) {
    throw new ApiError(response.status, GENERIC_ERROR_MESSAGE);
  }
  const { message, errors } = json.value;
  throw new ApiError(
    response.status,
    typeof message === 'string' && message.trim() !== '' ? message : GENERIC_ERROR_MESSAGE,
    toFieldErrors(errors),
    json.value,
  );
}

type ParsedBody = { kind: 'json'; value: unknown } | { kind: 'empty' } | { kind: 'not-json' };

/** Reads the body once; JSON only when the server says so and it parses. */
async function readJson(response: Response): Promise<ParsedBody> {
  let text: string;
  try {
    text = await response.text();
  } catch {
    return { kind: 'not-json' };
  }
  if (text.trim() === '') return { kind: 'empty' };
  const type = response.headers.get('Content-Type') ?? '';
  if (!/\bjson\b/i.test(type)) return { kind: 'not-json' };
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'not-json' };
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Keeps the field errors of a 422 answer; a field's single string becomes a one-item list.
 * docs/accounts.md "Error answers in the SPA": when `errors` is not an object there are no field
 * errors (the caller then shows the message).
 */
function toFieldErrors(errors: unknown): FieldErrors | undefined {
  if (!isRecord(errors)) return undefined;
  const result: FieldErrors = {};
  for (const [field, messages] of Object.entries(errors)) {
    const list = (Array.isArray(messages) ? messages : [messages]).filter(
      (m): m is string => typeof m === 'string' && m !== '',
    );
    if (list.length > 0) result[field] = list;
  }
  return Object.keys(result).length > 0 ? result : undefined;
}

/**
 * The CSRF token the API set: `__Host-XSRF-TOKEN` in AWS (https), `XSRF-TOKEN` on the local
 * stack (functions/lib/session.ts `cookieNames`; docs/security.md "Cookies").
 * @returns the token, or `undefined` before the first answer set it
 */
export function xsrfToken(): string | undefined {
  return readCookie('__Host-XSRF-TOKEN') ?? readCookie('XSRF-TOKEN');
}

/** The decoded value of a cookie visible to scripts, or `undefined`. */
export function readCookie(name: string): string | undefined {
  for (const pair of document.cookie.split(';')) {
    const at = pair.indexOf('=');
    if (at === -1 || pair.slice(0, at).trim() !== name) continue;
    const raw = pair.slice(at + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}

/** Upload progress: bytes sent so far and the total, when the browser knows it. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

/**
 * Sends a multipart form (a file upload) with the same headers and error shape as {@link api},
 * through XMLHttpRequest because fetch cannot report upload progress.
 *
 * @param path path on this origin, e.g. `/settings/photo`.
 * @param form the fields and files; the browser sets the multipart boundary.
 * @param onProgress called as bytes go out (units: bytes).
 * @returns the answer's JSON as `T`.
 * @throws {ApiError} as {@link api} does (status 0 when no answer arrived).
 */
export async function apiUpload<T>(
  path: string,
  form: FormData,
  onProgress?: (progress: UploadProgress) => void,
): Promise<T> {
  if (xsrfToken() === undefined) await api('GET', '/user/current').catch(() => {});
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
    xhr.setRequestHeader('Accept', 'application/json');
    const xsrf = xsrfToken();
    if (xsrf !== undefined) xhr.setRequestHeader('X-XSRF-TOKEN', xsrf);
    xhr.upload.onprogress = (e) => onProgress?.({ loaded: e.loaded, total: e.total });
    xhr.onerror = () => reject(new ApiError(0, NETWORK_ERROR_MESSAGE));
    xhr.onload = () => {
      let value: unknown;
      try {
        value = xhr.responseText ? (JSON.parse(xhr.responseText) as unknown) : undefined;
      } catch {
        value = undefined;
      }
      notifyStatus(xhr.status, path);
      if (xhr.status >= 200 && xhr.status < 300) return resolve(value as T);
      const record = isRecord(value) ? value : {};
      const message = typeof record.message === 'string' && record.message.trim() !== '';
      reject(
        new ApiError(
          xhr.status,
          message ? (record.message as string) : GENERIC_ERROR_MESSAGE,
          toFieldErrors(record.errors),
          value,
        ),
      );
    };
    xhr.send(form);
  });
}

/**
 * PUTs a file to an upload URL the API handed out (a presigned storage URL, docs/send-lists.md),
 * with exactly the headers the API named (the signature covers them) and none of the API's own:
 * the URL is not an API route. XMLHttpRequest, for the upload progress.
 * @param onProgress called as bytes go out (units: bytes).
 * @param signal aborts the upload; the promise then rejects with an ApiError of status 0.
 * @throws {ApiError} with the storage's status for a non-2xx answer, status 0 when none came.
 */
export function putUpload(
  url: string,
  file: Blob,
  headers: Record<string, string>,
  onProgress?: (progress: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => onProgress?.({ loaded: e.loaded, total: e.total });
    xhr.onerror = () => reject(new ApiError(0, NETWORK_ERROR_MESSAGE));
    xhr.onabort = () => reject(new ApiError(0, 'The upload was stopped.'));
    xhr.onload = () =>
      xhr.status >= 200 && xhr.status < 300
        ? resolve()
        : reject(new ApiError(xhr.status, `The file could not be stored (${xhr.status}).`));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

/**
 * Reads a file of this origin (a photo under `/files/…`) as a Blob, for the editor's preloads.
 * The API's headers are not sent: this is a plain file, not an API call.
 * @param path a same-origin path.
 * @throws Error naming the path and status for a non-2xx answer; the browser's error when no
 *   answer arrived.
 */
export async function fetchFile(path: string): Promise<Blob> {
  const res = await fetch(path, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`${path} answered ${res.status}`);
  return res.blob();
}
