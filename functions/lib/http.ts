/**
 * The middy chain every HTTP handler uses (test/unit/http-chain.test.ts), and the feature handler
 * that routes a feature's entries of the route table (docs/adr/0044-the-api-contract.md "The API
 * contract").
 *
 * Order (middleware first, handler last; docs/adr/0003-errors.md "Errors"): header normaliser →
 * security headers → request log → error responses → body parsers → router. `after`/`onError` run
 * in reverse, so an error becomes a JSON answer first, is logged, then gets the security headers.
 */
import middy from '@middy/core';
import type { MiddlewareObj, Request } from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpSecurityHeaders from '@middy/http-security-headers';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import httpMultipartBodyParser from '@middy/http-multipart-body-parser';
import httpRouterHandler from '@middy/http-router';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  Context,
} from 'aws-lambda';
import { ZodError, type ZodType } from 'zod';
import { routeKey, routesOf, type Feature } from '#shared/routes.ts';
import {
  COMMON_ERROR_STATUSES,
  contractOf,
  ErrorAnswerSchema,
  type RouteContract,
} from '#shared/contract/index.ts';
import { config } from './config.ts';
import {
  AppError,
  assertStorableId,
  isServiceUnavailable,
  notImplemented,
  serviceUnavailable,
  validationFailed,
  type FieldErrors,
} from './errors.ts';
import { logger } from './logger.ts';
import { authenticate, type AuthContext } from './auth.ts';
import { rateLimitAnswer } from './limits/token-requests.ts';
import { readCookies, xsrfCookie, XSRF_COOKIE } from './session.ts';
import { ssmSecrets } from './ssm-secrets.ts';
import { originVerify } from './origin-verify.ts';
import { tracingMiddleware } from './tracing.ts';

export type ApiResult = APIGatewayProxyStructuredResultV2;

/** The v2 event after the chain: `body` is parsed JSON, multipart fields, or the raw string. */
export type ApiEvent = Omit<APIGatewayProxyEventV2, 'body'> & { body?: unknown };

/** The spec's generic message for anything unexpected (docs/accounts.md "Error answers in the SPA"). */
export const GENERIC_ERROR = 'Something went wrong. Please try again or contact customer support.';

/** A JSON answer. `body` is serialised as is. */
export function json(
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
): ApiResult {
  return {
    statusCode,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...headers,
    },
    body: JSON.stringify(body),
  };
}

/** Turns a ZodError into the spec's field-error shape: `{ "a.b": ["message"] }`. */
export function zodFieldErrors(error: ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.join('.') : '_';
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

/**
 * Maps any thrown value to an HTTP answer; 5xx answers never carry internals. An AWS service
 * that cannot be reached (DynamoDB or S3 down, throttled; `isServiceUnavailable`) answers 503
 * "Service unavailable, try again." with `Retry-After`, so clients retry rather than report a
 * bug (docs/security.md "Reliability figures").
 */
export function errorToResult(error: unknown, requestId: string): ApiResult {
  if (error instanceof ZodError)
    return errorToResult(validationFailed(zodFieldErrors(error)), requestId);
  if (!(error instanceof AppError) && isServiceUnavailable(error)) {
    const unavailable = serviceUnavailable();
    return json(
      unavailable.status,
      { success: false, code: unavailable.code, message: unavailable.message, requestId },
      { 'retry-after': '5' },
    );
  }
  if (error instanceof AppError) {
    return json(error.status, {
      success: false,
      code: error.code,
      message: error.message,
      ...error.details,
    });
  }
  // @middy/util createError: parsers throw 415/422 with `expose` set for client errors.
  const e = error as { statusCode?: number; expose?: boolean; message?: string };
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return json(e.statusCode, {
      success: false,
      code: 'bad_request',
      message: e.expose && e.message ? e.message : 'Bad request.',
    });
  }
  return json(500, { success: false, code: 'internal', message: GENERIC_ERROR, requestId });
}

interface Timing extends Record<string, unknown> {
  startedAt: number;
}

/** Logs one structured line per request and adds `x-request-id`; bodies and headers are not logged. */
function requestLog(feature: string): MiddlewareObj<ApiEvent, ApiResult, Error, Context, Timing> {
  const end = (request: Request<ApiEvent, ApiResult, Error, Context, Timing>) => {
    const { event, response } = request;
    const status = response?.statusCode ?? 500;
    const entry = {
      feature,
      method: event.requestContext?.http?.method,
      path: event.rawPath,
      status,
      ms: Date.now() - (request.internal.startedAt ?? Date.now()),
      requestId: event.requestContext?.requestId,
    };
    // A 503 the handler chose to answer (health while the renderer starts) is not a failure.
    if (status === 503 && !request.error) logger.warn('request: not ready', entry);
    else if (status >= 500 && status !== 501)
      logger.error('request failed', { ...entry, error: request.error ?? undefined });
    else logger.info('request', entry);
    if (response) {
      response.headers = {
        ...response.headers,
        'x-request-id': event.requestContext?.requestId ?? '',
      };
    }
  };
  return {
    before: (request) => {
      request.internal.startedAt = Date.now();
      const requestId = request.event.requestContext?.requestId;
      if (requestId) logger.appendKeys({ requestId });
    },
    after: end,
    onError: end,
  };
}

/**
 * Gives every GET without one a readable XSRF-TOKEN cookie (docs/adr/0009-sessions-and-csrf.md
 * "Sessions and CSRF").
 */
function xsrfIssuer(): MiddlewareObj<ApiEvent, ApiResult> {
  const issue = (request: { event: ApiEvent; response?: ApiResult | null }) => {
    const { event, response } = request;
    if (!response || event.requestContext?.http?.method !== 'GET') return;
    if (readCookies(event)[XSRF_COOKIE]) return;
    response.cookies = [...(response.cookies ?? []), xsrfCookie()];
  };
  return { after: issue, onError: issue };
}

/**
 * Adds the rate-limit fields decided for an API token's request (limits/token-requests.ts) to its
 * answer, errors and the 429 included (docs/developer-api.md "Rate limits").
 */
function rateLimitFields(): MiddlewareObj<ApiEvent, ApiResult> {
  const add = (request: { event: ApiEvent; response?: ApiResult | null }) => {
    const fields = rateLimitAnswer(request.event);
    if (fields && request.response)
      request.response.headers = { ...request.response.headers, ...fields };
  };
  return { after: add, onError: add };
}

/** Turns thrown errors into JSON answers (docs/adr/0003-errors.md "Errors", "typed errors, mapped once"). */
function errorResponses(): MiddlewareObj<ApiEvent, ApiResult> {
  return {
    onError: (request) => {
      if (request.response && request.response.statusCode) return;
      request.response = errorToResult(
        request.error,
        request.event.requestContext?.requestId ?? '',
      );
    },
  };
}

/** Security headers on every API answer (docs/adr/0003-errors.md "Errors"; test/unit/http-chain.test.ts). */
export const securityHeaderOptions = {
  strictTransportSecurity: { maxAge: 31536000, includeSubDomains: true, preload: false },
  contentSecurityPolicy: {
    'default-src': "'none'",
    'frame-ancestors': "'none'",
    'object-src': "'none'",
    'base-uri': "'none'",
  },
  frameOptions: { action: 'deny' },
  contentTypeOptions: { action: 'nosniff' },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
};

export interface ChainOptions {
  /** Leave the body as the raw string (Stripe signs the exact bytes). */
  rawBody?: boolean;
  /** Set the XSRF-TOKEN cookie on GETs (default true; never on cacheable renders). */
  issueXsrf?: boolean;
  /**
   * Headers that replace the standard security headers on some answers (applied after them),
   * e.g. a PDF render that the product's own pages frame. Return undefined to keep them.
   */
  headerOverrides?: (event: ApiEvent, response: ApiResult) => Record<string, string> | undefined;
}

/**
 * Wraps a v2 handler in the standard chain.
 * @param feature the feature name, for logs.
 */
export function httpChain(
  feature: string,
  handler: (event: ApiEvent, context: Context) => Promise<ApiResult>,
  options: ChainOptions = {},
) {
  const chain = middy<ApiEvent, ApiResult>({ timeoutEarlyInMillis: 0 });
  const { headerOverrides } = options;
  if (headerOverrides) {
    // Registered first, so its `after` runs last (middy runs `after` in reverse order).
    const override = (request: { event: ApiEvent; response?: ApiResult | null }) => {
      const { event, response } = request;
      if (!response) return;
      const extra = headerOverrides(event, response);
      if (extra) response.headers = { ...response.headers, ...extra };
    };
    chain.use({ after: override, onError: override });
  }
  // In AWS, the invocation's X-Ray subsegment (tracing.ts).
  for (const middleware of tracingMiddleware()) {
    chain.use(middleware as MiddlewareObj<ApiEvent, ApiResult>);
  }
  chain
    // Every log line of the invocation carries the Lambda context (function, cold start, the
    // Lambda request id) and the API's request id (docs/infra.md "Observability").
    .use(lambdaContextKeys() as MiddlewareObj<ApiEvent, ApiResult>)
    .use(httpHeaderNormalizer())
    .use(httpSecurityHeaders(securityHeaderOptions) as MiddlewareObj<ApiEvent, ApiResult>)
    .use(requestLog(feature) as MiddlewareObj<ApiEvent, ApiResult>)
    .use(rateLimitFields());
  if (options.issueXsrf ?? true) chain.use(xsrfIssuer());
  chain.use(errorResponses());
  // In AWS: secrets named by `*_PARAMETER` variables, read from SSM once (ssm-secrets.ts).
  for (const middleware of ssmSecrets())
    chain.use(middleware as MiddlewareObj<ApiEvent, ApiResult>);
  // In AWS: only requests that came through CloudFront (origin-verify.ts).
  for (const middleware of originVerify())
    chain.use(middleware as MiddlewareObj<ApiEvent, ApiResult>);
  if (!options.rawBody) {
    // A GET (or any call) with a JSON content type and no body is fine: nothing to parse.
    chain.use({
      before: (request: { event: ApiEvent }) => {
        const { event } = request;
        if ((event.body === undefined || event.body === '') && event.headers) {
          delete event.headers['content-type'];
        }
      },
    });
    chain
      .use(
        httpJsonBodyParser({ disableContentTypeError: true }) as unknown as MiddlewareObj<
          ApiEvent,
          ApiResult
        >,
      )
      .use(
        httpMultipartBodyParser({
          disableContentTypeError: true,
          busboy: { limits: { fileSize: 20 * 1024 * 1024, files: 5 } },
        }) as unknown as MiddlewareObj<ApiEvent, ApiResult>,
      );
  }
  return chain.handler(handler);
}

/**
 * Puts the Lambda context on every log line of an invocation and takes the keys off after it
 * (Powertools' `addContext`; the API's `requestId` is added by `requestLog`). Powertools' own
 * `injectLambdaContext` also re-applies the log level it started with on each invocation (its
 * debug sampling), which would undo a level set at run time, so this does only the keys.
 */
function lambdaContextKeys(): MiddlewareObj<ApiEvent, ApiResult, Error, Context> {
  const reset = () => logger.resetKeys();
  return {
    before: (request) => {
      if (request.context) logger.addContext(request.context);
    },
    after: reset,
    onError: reset,
  };
}

/** What a route implementation receives. */
export interface RouteContext<B = unknown, Q = unknown> {
  event: ApiEvent;
  /** The caller, after the route's access rule passed (functions/lib/auth.ts). */
  auth: AuthContext;
  body: B;
  query: Q;
  params: Record<string, string>;
  requestId: string;
}

/** One route's implementation: optional zod schemas for body and query, then the work. */
export interface RouteImpl<B = unknown, Q = unknown> {
  body?: ZodType<B>;
  query?: ZodType<Q>;
  handle: (ctx: RouteContext<B, Q>) => Promise<ApiResult>;
}

/** A route implementation with its body and query types checked, then erased for the table. */
export type RouteDefinition = RouteImpl<unknown, unknown>;

/**
 * Builds a route implementation; `body` and `query` in `handle` are typed by the schemas, and
 * the schemas run before `handle` (422 with field errors on failure).
 */
export function route<B = unknown, Q = unknown>(impl: RouteImpl<B, Q>): RouteDefinition {
  return impl as unknown as RouteDefinition;
}

export type FeatureHandler = ReturnType<typeof httpChain> & {
  feature: Feature;
  /** Route keys of this feature (all of the table's). */
  routeKeys: string[];
  /** Route keys with an implementation; the rest answer 501. */
  implemented: string[];
  /** The body and query schemas of each implemented route, by route key (the fuzz reads them). */
  schemas: Record<string, Pick<RouteDefinition, 'body' | 'query'>>;
};

/** How answers are checked against the contract: CONTRACT_CHECK, else by stage. */
function contractCheckMode(): 'off' | 'log' | 'strict' {
  const { CONTRACT_CHECK, STAGE } = config();
  if (CONTRACT_CHECK) return CONTRACT_CHECK;
  return STAGE === 'test' ? 'strict' : STAGE === 'local' ? 'log' : 'off';
}

/**
 * Checks a route's answer against its contract (docs/adr/0044-the-api-contract.md "The API
 * contract"), the answers its implementation returns and those of the errors it throws alike:
 * - a 2xx JSON answer with the route's `answer` schema;
 * - a 4xx/5xx answer's status must be one of {@link COMMON_ERROR_STATUSES}, the route's
 *   `errors` or its `errorAnswers`, and its JSON must parse with the route's `errorAnswers`
 *   schema for that status (the health report's 503, billing's 400 `{ paymentId }`), else with
 *   {@link ErrorAnswerSchema}.
 * Answers that are not JSON (redirects, files, 204) are not read.
 * @returns the answer unchanged; in `strict` mode a mismatch becomes a 500 naming the route and
 *   the first issues (so a test sees it), in `log` mode it is logged, in `off` mode nothing runs.
 */
export function checkAnswer(key: string, contract: RouteContract, result: ApiResult): ApiResult {
  const mode = contractCheckMode();
  if (mode === 'off') return result;
  const status = result.statusCode ?? 200;
  const type = String(result.headers?.['content-type'] ?? '');
  const issues =
    status >= 400 && !declaresErrorStatus(contract, status)
      ? [`status ${status}: not among the route's error statuses`]
      : type.includes('json') && typeof result.body === 'string'
        ? answerIssues(contract, status, result.body)
        : [];
  if (issues.length === 0) return result;
  logger.error('answer does not match the contract', { route: key, status, issues });
  return mode === 'strict'
    ? json(500, { message: `The answer of ${key} does not match its contract.`, issues })
    : result;
}

/** True when the route may answer `status`: every route's, or one the contract declares. */
function declaresErrorStatus(contract: RouteContract, status: number): boolean {
  return (
    COMMON_ERROR_STATUSES.includes(status) ||
    (contract.errors ?? []).includes(status) ||
    contract.errorAnswers?.[status] !== undefined
  );
}

/** The first issues (at most 5) of a JSON answer against its status's schema; [] when it fits. */
function answerIssues(contract: RouteContract, status: number, body: string): string[] {
  const schema =
    status < 300 ? contract.answer : (contract.errorAnswers?.[status] ?? ErrorAnswerSchema);
  let parsed: ReturnType<typeof schema.safeParse>;
  try {
    parsed = schema.safeParse(JSON.parse(body));
  } catch {
    parsed = schema.safeParse(undefined);
  }
  if (parsed.success) return [];
  return parsed.error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(answer)'}: ${i.message}`);
}

/**
 * Checks the answer a thrown error becomes (`errorToResult`, as the chain's error middleware
 * will make it) against the route's contract with {@link checkAnswer}.
 * @returns the mismatch answer to send instead (strict mode), or undefined: rethrow the error,
 *   so the chain answers and logs it as before.
 */
function checkThrown(
  key: string,
  contract: RouteContract,
  error: unknown,
  requestId: string,
): ApiResult | undefined {
  if (contractCheckMode() === 'off') return undefined;
  const result = errorToResult(error, requestId);
  const checked = checkAnswer(key, contract, result);
  return checked === result ? undefined : checked;
}

/**
 * Refuses a path parameter no stored item can have (`assertStorableId`): 404 before any access
 * check or handler reads it.
 * @throws AppError 404 "Not found." when one is longer than `MAX_ID_BYTES`.
 */
function checkPathParameters(event: ApiEvent): void {
  for (const value of Object.values(event.pathParameters ?? {})) {
    if (value !== undefined) assertStorableId(value);
  }
}

/**
 * The Lambda handler of one feature: routes the feature's entries of the route table with
 * @middy/http-router, validates body and query with zod (422 with field errors), and answers
 * 501 naming the feature for routes whose feature is not built yet.
 * @throws Error at module load if an implementation names a route the table does not have.
 */
export function featureHandler(
  feature: Feature,
  implementations: Record<string, RouteDefinition>,
  options: ChainOptions = {},
): FeatureHandler {
  const own = routesOf(feature);
  const keys = own.map(routeKey);
  for (const key of Object.keys(implementations)) {
    if (!keys.includes(key)) throw new Error(`${feature}: "${key}" is not in the route table`);
  }
  const routes = own.map((r) => {
    const key = routeKey(r);
    const impl = implementations[key];
    const contract = contractOf(key);
    return {
      method: r.method,
      path: r.path,
      handler: async (event: ApiEvent): Promise<ApiResult> => {
        const requestId = event.requestContext?.requestId ?? '';
        try {
          const result = await runRoute(event);
          return contract ? checkAnswer(key, contract, result) : result;
        } catch (error) {
          const mismatch = contract && checkThrown(key, contract, error, requestId);
          if (mismatch) return mismatch;
          throw error;
        }
      },
    };

    async function runRoute(event: ApiEvent): Promise<ApiResult> {
      checkPathParameters(event);
      const auth = await authenticate(event, r);
      if (!impl) throw notImplemented(feature, key);
      const querySchema = impl.query ?? contract?.query;
      const bodySchema = impl.body ?? contract?.body;
      const query = querySchema
        ? querySchema.parse(event.queryStringParameters ?? {})
        : (event.queryStringParameters ?? {});
      const body = bodySchema ? bodySchema.parse(event.body ?? {}) : event.body;
      return impl.handle({
        event,
        auth,
        body,
        query,
        params: (event.pathParameters ?? {}) as Record<string, string>,
        requestId: event.requestContext?.requestId ?? '',
      });
    }
  });
  const router = httpRouterHandler<APIGatewayProxyEventV2, ApiResult>({
    routes: routes as never,
    notFoundResponse: ({ method, path }) => {
      throw new AppError(404, 'not_found', `No route ${method} ${path}.`);
    },
  });
  const handler = httpChain(feature, router as never, options);
  return Object.assign(handler, {
    feature,
    routeKeys: keys,
    implemented: Object.keys(implementations),
    schemas: Object.fromEntries(
      Object.entries(implementations).map(([key, impl]) => [
        key,
        { body: impl.body, query: impl.query },
      ]),
    ),
  });
}
