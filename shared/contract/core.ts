/**
 * The API contract's building blocks (docs/adr/0044-the-api-contract.md "The API contract"): each
 * route of shared/routes.ts may have a {@link RouteContract} beside it, keyed `METHOD /path`
 * exactly as the route table writes it. The handlers parse their input with it
 * (functions/lib/http.ts `featureHandler`), the local and test stacks check every answer against it
 * (`CONTRACT_CHECK=strict`), and the SPA's typed client (web/src/api/client.ts) takes its path,
 * body and answer types from it.
 *
 * This module imports zod only, so CDK, the handlers and the SPA bundle can all read it.
 */
import { z } from 'zod';

/** Field name → messages, as every 422 answer carries them. */
export const FieldErrorsSchema = z.record(z.string(), z.array(z.string()));

/**
 * Every error answer (4xx, 5xx) of every route: a message, and field errors for a 422
 * (docs/accounts.md "Error answers in the SPA": "error catalogue"). Routes may add fields (a 409
 * carries the current `version`, a refused delete the designs that use a file), so the object is
 * loose.
 */
export const ErrorAnswerSchema = z.looseObject({
  message: z.string(),
  errors: FieldErrorsSchema.optional(),
});
export type ErrorAnswer = z.infer<typeof ErrorAnswerSchema>;

/**
 * The error statuses every route may give, besides its own `errors`: 401 (no session), 403
 * (not allowed), 404 (an id of another team, or none), 419 (CSRF token mismatch on a
 * state-changing call), 422 (a refused input), 429 (too many requests), 500 (an unexpected
 * failure, always the generic message) and 503 (an AWS service out of reach). The answer check
 * (functions/lib/http.ts `checkAnswer`) refuses any other error status a route did not declare.
 */
export const COMMON_ERROR_STATUSES: readonly number[] = [401, 403, 404, 419, 422, 429, 500, 503];

/** A route's contract: the shapes of what it takes and what it answers. */
export interface RouteContract<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  A extends z.ZodType = z.ZodType,
> {
  /** The path parameters (`{id}` → `{ id: string }`); the route's placeholders, no more. */
  params?: P;
  /** The query string, as strings in (coerce numbers), typed values out. */
  query?: Q;
  /** The JSON body (or the multipart fields). */
  body?: B;
  /**
   * The success answer's JSON (any 2xx). A route that answers a redirect or a file says
   * {@link NoJsonAnswer}: the answer check reads JSON answers only.
   */
  answer: A;
  /** The success status, 200 unless said (201 for a create, 302 for a redirect). */
  status?: 200 | 201 | 204 | 302;
  /**
   * The error statuses the route gives besides those of every route
   * ({@link COMMON_ERROR_STATUSES}), each answered as {@link ErrorAnswerSchema} unless
   * {@link errorAnswers} names another shape for it. An error answer of a status in neither list
   * breaks the contract.
   */
  errors?: readonly number[];
  /**
   * The error statuses whose answer is not {@link ErrorAnswerSchema}, with their shape: the
   * health report's 503 (`GET /api/health`), a payment needing confirmation's 400
   * `{ paymentId }` (billing). Every answer of such a status must have that shape.
   */
  errorAnswers?: { readonly [status: number]: z.ZodType };
}

/**
 * Declares a route's contract, keeping its schema types for the client and the handlers.
 * @example defineContract({ params: IdParams, answer: DesignSchema })
 */
export function defineContract<const C extends RouteContract>(contract: C): C {
  return contract;
}

/**
 * The `answer` of a route that answers no JSON on success: a redirect (`GET
 * /settings/invoice/{id}`, Keap's OAuth steps) or a file (`GET /js/{file}`). Nothing parses
 * with it, so a JSON success answer of such a route breaks its contract.
 */
export const NoJsonAnswer = z.never();

/** `{ id }`: the one path parameter of most routes (shared/routes.ts keeps one name per slot). */
export const IdParams = z.object({ id: z.string().min(1) });

/** `{ success: true }`, with whatever else a route adds. */
export const SuccessSchema = z.looseObject({ success: z.literal(true) });

/** The placeholders of a route path: `/a/{id}/b/{proxy+}` → `['id', 'proxy']`. */
export function pathPlaceholders(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\+?\}/g)].map((m) => m[1]!);
}
