/**
 * The developer API's reference (docs/developer-api.md): an OpenAPI 3.1 document built from the
 * API contract (shared/contract: `CONTRACT`) and the route table (shared/routes.ts: `ROUTES`) by
 * zod-openapi, never written by hand, so it cannot drift from what the handlers parse and answer.
 *
 * Which routes it lists: those a customer's API token may call ({@link isTokenCallable}), after
 * the token rules of functions/lib/auth.ts `authenticate` (docs/security.md "Sessions and
 * tokens"; test/integration/api-tokens.test.ts): a Bearer token stands for its user on every
 * route that needs a signed-in user (`user`, `owner`, `manager`), never on a `sessionOnly` one,
 * with the `read` ability for a GET and `write` otherwise. Platform-admin routes are left out (a
 * customer's token never passes them), and so are public routes, which need no token, except the
 * render feature's: the rendered image URL (`GET /r/{proxy+}`), which is what API callers embed,
 * and the rule link beside it (`GET /l/{proxy+}`, docs/rules.md "Links").
 *
 * Each operation: its path and query parameters, its JSON body, its success answer with the
 * contract's status (no JSON content for a `NoJsonAnswer` route: a redirect or a file), and its
 * error answers: the statuses of every route plus the contract's `errors`, each
 * `ErrorAnswerSchema` unless `errorAnswers` names another shape (shared/contract/core.ts).
 * test/unit/openapi.test.ts checks the list and the schemas.
 */
import { createDocument, type ZodOpenApiOperationObject } from 'zod-openapi';
import type {
  ZodOpenApiPathsObject,
  ZodOpenApiResponseObject,
  ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { z } from 'zod';
import {
  contractOf,
  ErrorAnswerSchema,
  NoJsonAnswer,
  pathPlaceholders,
  type RouteContract,
} from '#shared/contract/index.ts';
import { ROUTES, routeKey, type Route } from '#shared/routes.ts';

/** The document's `info.version`: bump when the documented API changes incompatibly. */
export const API_VERSION = '1.0.0';

/**
 * The error statuses every route may answer (shared/contract/core.ts `RouteContract.errors`):
 * 401 (no or an unknown token), 403 (a missing ability, a session-only route, a role), 404 (an
 * id of another team), 422 (a refused input), 429 (a limit), 503 (a service not ready).
 */
const COMMON_ERRORS = [401, 403, 404, 422, 429, 503] as const;

/** Words for the statuses the document names. */
const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No content',
  302: 'Redirect',
  400: 'Bad request',
  401: 'No token, or an unknown or expired one',
  402: 'Payment required',
  403: 'Not allowed: the token lacks the ability, or the route needs a signed-in session',
  404: 'Not found (or an id of another team)',
  409: 'Conflict: a stale version or a duplicate',
  410: 'Gone',
  413: 'Too large',
  422: 'The input was refused; `errors` names each field',
  429: 'Too many requests',
  500: 'Server error',
  502: 'An upstream service failed',
  503: 'A service is not ready',
};

/**
 * Whether a customer's API token may call the route (see the module comment).
 * @example isTokenCallable({ access: 'user', sessionOnly: undefined, … }) === true
 */
export function isTokenCallable(route: Route): boolean {
  if (route.sessionOnly) return false;
  if (route.access === 'user' || route.access === 'owner' || route.access === 'manager')
    return true;
  return route.access === 'public' && route.feature === 'render';
}

/** The routes the document lists, in the table's order. */
export const tokenCallableRoutes = (): Route[] => ROUTES.filter(isTokenCallable);

/** `/r/{proxy+}` → `/r/{proxy}`: OpenAPI has no greedy placeholder. */
export const openApiPath = (path: string): string => path.replace(/\{(\w+)\+\}/g, '{$1}');

/** `GET /api/pic-snippet/{id}` → `get_api_pic_snippet_id`: unique, stable operation ids. */
export const operationId = (route: Route): string =>
  [route.method.toLowerCase(), ...route.path.split(/[^A-Za-z0-9]+/).filter(Boolean)].join('_');

/** A query or params schema as zod-openapi takes it: an object, or undefined. */
function asObject(schema: z.ZodType | undefined): z.ZodObject | undefined {
  return schema instanceof z.ZodObject ? schema : undefined;
}

/**
 * The rate-limit fields on every answer to a token (functions/lib/rate-limit.ts,
 * docs/developer-api.md "Rate limits"); a 429 adds `Retry-After`.
 */
const RATE_LIMIT_HEADERS = z.object({
  'RateLimit-Policy': z.string().meta({
    description: 'The token\'s allowance, e.g. `"token";q=60;w=60` (60 requests a 60 s window).',
  }),
  RateLimit: z.string().meta({
    description: 'What is left, e.g. `"token";r=59;t=42` (59 more requests, window ends in 42 s).',
  }),
});
const RETRY_AFTER_HEADERS = RATE_LIMIT_HEADERS.extend({
  'Retry-After': z.string().meta({ description: 'Seconds until the allowance is whole again.' }),
});

/** The success and error answers of one route. */
function responses(contract: RouteContract | undefined): ZodOpenApiResponsesObject {
  const status = contract?.status ?? 200;
  const out: Record<string, ZodOpenApiResponseObject> = {};
  const json = contract && contract.answer !== NoJsonAnswer && status !== 204;
  out[String(status)] = {
    description: STATUS_TEXT[status] ?? 'Success',
    headers: RATE_LIMIT_HEADERS,
    ...(json ? { content: { 'application/json': { schema: contract.answer } } } : {}),
  };
  const statuses = [...new Set([...COMMON_ERRORS, ...(contract?.errors ?? [])])].sort(
    (a, b) => a - b,
  );
  for (const code of statuses) {
    out[String(code)] = {
      description: STATUS_TEXT[code] ?? 'Error',
      // A 401 (no or an unknown token) was not counted, so it has no rate-limit fields.
      ...(code === 401 ? {} : { headers: code === 429 ? RETRY_AFTER_HEADERS : RATE_LIMIT_HEADERS }),
      content: {
        'application/json': { schema: contract?.errorAnswers?.[code] ?? ErrorAnswerSchema },
      },
    };
  }
  return out;
}

/** One route's operation. */
function operation(route: Route): ZodOpenApiOperationObject {
  const contract = contractOf(routeKey(route));
  const names = pathPlaceholders(route.path);
  const params =
    asObject(contract?.params) ??
    (names.length > 0
      ? z.object(Object.fromEntries(names.map((n) => [n, z.string()])))
      : undefined);
  const query = asObject(contract?.query);
  const needs = route.ability ?? (route.method === 'GET' ? 'read' : 'write');
  return {
    operationId: operationId(route),
    tags: [route.feature],
    summary: `${route.method} ${route.path}`,
    description: `Needs a token with the \`${needs}\` ability. Source: ${route.source}.`,
    ...(params || query
      ? { requestParams: { ...(params ? { path: params } : {}), ...(query ? { query } : {}) } }
      : {}),
    ...(contract?.body && route.method !== 'GET'
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: contract.body } },
          },
        }
      : {}),
    responses: responses(contract),
    // The render URL is public: its signature or the design id is the key.
    ...(route.access === 'public' ? { security: [] } : {}),
  };
}

/** The document's type, as zod-openapi builds it. */
export type OpenApiDocument = ReturnType<typeof createDocument>;

/**
 * Builds the document (no cache; {@link openApiDocument} keeps one per process).
 * @param serverUrl the `servers[0].url`; `/` (the same origin) unless given.
 */
export function buildOpenApiDocument(serverUrl = '/'): OpenApiDocument {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of tokenCallableRoutes()) {
    const path = openApiPath(route.path);
    const method = route.method.toLowerCase() as Lowercase<Route['method']>;
    paths[path] = { ...paths[path], [method]: operation(route) };
  }
  return createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'PicSnippets API',
        version: API_VERSION,
        description:
          'The routes an API token may call. Create a token in Settings → API tokens and send it ' +
          'as `Authorization: Bearer <token>`: the `read` ability for GETs, `write` for the rest.',
      },
      servers: [{ url: serverUrl }],
      security: [{ bearerAuth: [] }],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API token (`pst_…`) from Settings → API tokens.',
          },
        },
      },
      paths,
    },
    {
      // Schemas that JSON cannot say (a transform's output, a custom check) render as `{}`
      // rather than failing the whole document.
      allowEmptySchema: { custom: true, transform: true, pipe: true, any: true, unknown: true },
    },
  );
}

let cached: OpenApiDocument | undefined;

/** The document, built once per process (the contract cannot change while it runs). */
export function openApiDocument(): OpenApiDocument {
  cached ??= buildOpenApiDocument();
  return cached;
}
