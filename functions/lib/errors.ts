/**
 * Typed errors, mapped to HTTP once (docs/adr/0003-errors.md "Errors", "Typed errors, mapped
 * once"). Domain code throws these; `errorResponses()` in http.ts turns them into JSON answers.
 * Anything else becomes a 500 without internals.
 */

/** Field errors in the spec's form shape: `{ field: [message, …] }` (docs/accounts.md "Error answers in the SPA"). */
export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  /**
   * @param status HTTP status, 4xx or 5xx.
   * @param code stable machine-readable code, e.g. `not_found`.
   * @param message text a user may read; the spec's message where it gives one.
   * @param details extra JSON fields of the answer (`errors`, `version`, …).
   */
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new AppError(400, 'bad_request', message, details);

export const unauthenticated = (message = 'Unauthenticated.') =>
  new AppError(401, 'unauthenticated', message);

/** 402 sends the SPA to the subscription settings (docs/accounts.md "Error answers in the SPA"). */
export const paymentRequired = (message = 'This feature is available only for Pro plans.') =>
  new AppError(402, 'payment_required', message);

export const forbidden = (message = 'This action is unauthorized.') =>
  new AppError(403, 'forbidden', message);

/**
 * Other teams' ids answer 404, never 403, so ids do not leak (docs/security.md
 * "Authorization matrix").
 */
export const notFound = (message = 'Not found.') => new AppError(404, 'not_found', message);

/**
 * The longest id the API accepts, in UTF-8 bytes. Every id of the product is far shorter
 * (UUIDs, 32–43 character codes, public ids, file names, a search query), and DynamoDB refuses
 * keys past 1024 bytes (sort key) with a ValidationException that would otherwise answer 500
 * (test/integration/fuzz.test.ts sends 1,500-character ids).
 */
export const MAX_ID_BYTES = 256;

/**
 * Refuses an id that no stored item can have, before it reaches DynamoDB.
 * @throws AppError 404 "Not found." when `id` is longer than `MAX_ID_BYTES`.
 */
export function assertStorableId(id: string): void {
  if (Buffer.byteLength(id, 'utf8') > MAX_ID_BYTES) throw notFound();
}

export const conflict = (message: string, details?: Record<string, unknown>) =>
  new AppError(409, 'conflict', message, details);

export const payloadTooLarge = (message: string) => new AppError(413, 'payload_too_large', message);

export const unsupportedMediaType = (message: string) =>
  new AppError(415, 'unsupported_media_type', message);

/** CSRF failure (Laravel's status, which the spec's SPA expects; docs/adr/0003-errors.md "Errors"). */
export const csrfMismatch = () => new AppError(419, 'csrf_token_mismatch', 'CSRF token mismatch.');

/** Validation failure with field errors (docs/accounts.md "Error answers in the SPA": "errors object placed on the form"). */
export const validationFailed = (errors: FieldErrors, message?: string) =>
  new AppError(422, 'validation_failed', message ?? Object.values(errors)[0]?.[0] ?? 'Invalid.', {
    errors,
  });

/**
 * A dependency (DynamoDB, S3) that cannot be reached right now: 503, so clients retry
 * (docs/security.md "Reliability figures"; test/integration/dynamodb-faults.test.ts).
 */
export const serviceUnavailable = () =>
  new AppError(503, 'service_unavailable', 'Service unavailable, try again.');

/** Socket-level failures of the SDK's HTTP handler: the service is not there or went away. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** The SDK's names for a service that is there but cannot take the request now. */
const UNAVAILABLE_NAMES = new Set([
  'TimeoutError',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'SlowDown',
]);

/**
 * Whether an error (or one it wraps: ElectroDB puts the SDK's error in `cause`) says an AWS
 * service could not be reached or is overloaded, rather than that the request was wrong: a
 * socket error code (`ECONNREFUSED`, …), the SDK's throttling and unavailability names, or an
 * HTTP 503 in the SDK's `$metadata`. Walks at most 5 causes.
 */
export function isServiceUnavailable(error: unknown): boolean {
  let current = error as
    | {
        code?: unknown;
        name?: unknown;
        cause?: unknown;
        errors?: unknown;
        $metadata?: { httpStatusCode?: number };
      }
    | undefined;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    if (typeof current.code === 'string' && CONNECTION_CODES.has(current.code)) return true;
    if (typeof current.name === 'string' && UNAVAILABLE_NAMES.has(current.name)) return true;
    if (current.$metadata?.httpStatusCode === 503) return true;
    // Node's connect with several addresses throws an AggregateError of the attempts.
    if (Array.isArray(current.errors) && current.errors.some((e) => isServiceUnavailable(e)))
      return true;
    current = current.cause as typeof current;
  }
  return false;
}

export const tooManyRequests = (message = 'Too many attempts. Please try again later.') =>
  new AppError(429, 'too_many_requests', message);

/** A route whose feature is not built yet (docs/security.md "Authorization matrix"). */
export const notImplemented = (feature: string, routeKey: string) =>
  new AppError(501, 'not_implemented', `${feature}: ${routeKey} is not available yet.`, {
    feature,
  });
