/**
 * Typed errors, mapped to HTTP once (STYLE.md "Typed errors, mapped once"). Domain code throws
 * these; `errorResponses()` in http.ts turns them into JSON answers. Anything else becomes a
 * 500 without internals.
 */

/** Field errors in the spec's form shape: `{ field: [message, …] }` (spec 001 §8). */
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

/** 402 sends the SPA to the subscription settings (spec 001 §8). */
export const paymentRequired = (message = 'This feature is available only for Pro plans.') =>
  new AppError(402, 'payment_required', message);

export const forbidden = (message = 'This action is unauthorized.') =>
  new AppError(403, 'forbidden', message);

/** Other teams' ids answer 404, never 403, so ids do not leak (issue: accounts §5). */
export const notFound = (message = 'Not found.') => new AppError(404, 'not_found', message);

export const conflict = (message: string, details?: Record<string, unknown>) =>
  new AppError(409, 'conflict', message, details);

export const payloadTooLarge = (message: string) => new AppError(413, 'payload_too_large', message);

export const unsupportedMediaType = (message: string) =>
  new AppError(415, 'unsupported_media_type', message);

/** CSRF failure (Laravel's status, which the spec's SPA expects; DESIGN.md §6). */
export const csrfMismatch = () => new AppError(419, 'csrf_token_mismatch', 'CSRF token mismatch.');

/** Validation failure with field errors (spec 001 §8: "errors object placed on the form"). */
export const validationFailed = (errors: FieldErrors, message?: string) =>
  new AppError(422, 'validation_failed', message ?? Object.values(errors)[0]?.[0] ?? 'Invalid.', {
    errors,
  });

export const tooManyRequests = (message = 'Too many attempts. Please try again later.') =>
  new AppError(429, 'too_many_requests', message);

/** A route whose feature arrives in a later issue (issue: foundation §6). */
export const notImplemented = (feature: string, routeKey: string) =>
  new AppError(501, 'not_implemented', `${feature}: ${routeKey} is not available yet.`, {
    feature,
  });
