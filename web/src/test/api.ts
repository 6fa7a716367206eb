/**
 * What the mock API answers, typed by the API contract (shared/contract;
 * docs/adr/0044-the-api-contract.md "The API contract"): a test names a route by its key, as
 * web/src/api/client.ts `call` does, and the answer it gives is checked against that route's
 * contract twice, by TypeScript (`AnswerOf<K>` for a success, `ErrorAnswer` for an error) and at
 * run time by the route's zod schemas, as the test stack's `CONTRACT_CHECK=strict` checks the real
 * handlers (functions/lib/http.ts `checkAnswer`). A fixture that drifts from the contract fails the
 * test that uses it.
 *
 * ```ts
 * const login = answer('POST /login', 422, {
 *   message: 'The given data was invalid.',
 *   errors: { email: ['These credentials do not match our records.'] },
 * });
 * // … the user submits …
 * expect(login.requests[0]?.body).toEqual({ email: 'ana@example.com', password: 'secret-42' });
 * ```
 *
 * The newest answer for a route wins (msw tries the handlers added last first): to change what a
 * route answers between two steps of a test, call `answer` again.
 */
import { http, HttpResponse, type HttpHandler } from 'msw';
import {
  CONTRACT,
  COMMON_ERROR_STATUSES,
  ErrorAnswerSchema,
  type AnswerOf,
  type BodyOf,
  type ContractKey,
  type ErrorAnswer,
  type RouteContract,
} from '#shared/contract/index.ts';
import { server } from './server.ts';

/**
 * The CSRF token of the tests' `XSRF-TOKEN` cookie (set before each test by ./setup.ts); the
 * client sends it back as `X-XSRF-TOKEN` (docs/security.md "Sessions and tokens").
 */
export const TEST_XSRF_TOKEN = 'test-xsrf-token';

/** The success statuses a contract declares (`RouteContract.status`), 204 aside. */
export type SuccessStatus = 200 | 201;

/**
 * The error statuses the SPA handles (docs/accounts.md "Error answers in the SPA"): those every
 * route may give (`COMMON_ERROR_STATUSES`) and the route-specific ones the contracts declare
 * (400, 402, 409, 413, 501, 502…). Whether the route gives it is checked at run time.
 */
export type ErrorStatus =
  400 | 401 | 402 | 403 | 404 | 409 | 413 | 419 | 422 | 429 | 500 | 501 | 502 | 503;

/** A request the mock API received for route `K`. */
export interface SentRequest<K extends ContractKey> {
  /** The JSON body as sent (`undefined` when there was none, or it was not JSON: an upload). */
  body: BodyOf<K>;
  /** The path parameters, by the route's placeholder names (`{ id: 'team-1' }`). */
  params: Record<string, string>;
  /** The query string. */
  query: URLSearchParams;
  headers: Headers;
}

/** A route's answer, installed on the mock API: what it was asked, and a hold to let go. */
export interface Answering<K extends ContractKey> {
  /** Every request of the route so far, oldest first. */
  readonly requests: SentRequest<K>[];
  /**
   * Lets the held answers go (`{ held: true }`); nothing otherwise. Held answers still waiting
   * when a test ends fail as network failures (./setup.ts), so no request outlives its test.
   */
  release(): void;
}

/** How an answer is given. */
export interface AnswerOptions {
  /** Answer only the next request; later ones fall through to older handlers. */
  once?: boolean;
  /**
   * Hold the answers until `release()`: requests stay under way, for loading, busy and disabled
   * states; from the release on, the route answers at once.
   */
  held?: boolean;
}

/** The answers still held, each dropped after its test (./setup.ts). */
const holds = new Set<() => void>();

/**
 * Drops every answer still held (a test that failed before its `release()`): each waiting
 * request fails as a network failure does, so nothing the test started goes on into the next
 * test with a success. ./setup.ts calls it after each test.
 */
export function dropHeldAnswers(): void {
  for (const drop of [...holds]) drop();
}

/**
 * msw's path pattern for a route key's path: `{id}` becomes `:id` and a greedy `{proxy+}`
 * becomes `*` (shared/routes.ts writes placeholders as API Gateway does). Relative paths are
 * matched on the page's origin (happy-dom's `http://localhost:3000`), as the SPA calls them.
 */
export function mswPath(path: string): string {
  return path.replace(/\{\w+\+\}/g, '*').replace(/\{(\w+)\}/g, ':$1');
}

/**
 * Puts a handler for route `key` on the mock API that records each request and answers with
 * `respond`.
 */
function install<K extends ContractKey>(
  key: K,
  respond: () => Response,
  options: AnswerOptions,
): Answering<K> {
  const space = key.indexOf(' ');
  const method = key.slice(0, space).toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
  const requests: SentRequest<K>[] = [];
  let released = !options.held;
  let waiting: Array<(dropped: boolean) => void> = [];
  const letGo = (dropped: boolean) => {
    released = true;
    for (const go of waiting) go(dropped);
    waiting = [];
    holds.delete(drop);
  };
  const release = () => letGo(false);
  const drop = () => letGo(true);
  if (!released) holds.add(drop);
  const handler: HttpHandler = http[method](
    mswPath(key.slice(space + 1)),
    async ({ request, params }) => {
      const json = /\bjson\b/i.test(request.headers.get('Content-Type') ?? '');
      const text = json ? await request.clone().text() : '';
      requests.push({
        body: (text === '' ? undefined : JSON.parse(text)) as BodyOf<K>,
        params: Object.fromEntries(
          Object.entries(params).map(([name, value]) => [name, String(value)]),
        ),
        query: new URL(request.url).searchParams,
        headers: request.headers,
      });
      const dropped = released ? false : await new Promise<boolean>((go) => waiting.push(go));
      return dropped ? HttpResponse.error() : respond();
    },
    { once: options.once ?? false },
  );
  server.use(handler);
  return { requests, release };
}

/**
 * Throws when `body` is not what route `key` may answer with `status` (the rules of
 * functions/lib/http.ts `checkAnswer`): an error status must be one every route gives or one the
 * route declares, and the JSON must parse with the status's schema (the route's `answer` for a
 * success, its `errorAnswers` entry or `ErrorAnswerSchema` for an error).
 */
function checkContract(key: ContractKey, status: number, body: unknown): void {
  const contract: RouteContract = CONTRACT[key];
  if (
    status >= 400 &&
    !COMMON_ERROR_STATUSES.includes(status) &&
    !(contract.errors ?? []).includes(status) &&
    contract.errorAnswers?.[status] === undefined
  ) {
    throw new Error(`${key} never answers ${status}: its contract does not declare it.`);
  }
  const schema =
    status < 300 ? contract.answer : (contract.errorAnswers?.[status] ?? ErrorAnswerSchema);
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.') || '(answer)'}: ${issue.message}`);
    throw new Error(`The ${status} answer of ${key} breaks its contract: ${issues.join('; ')}`);
  }
}

/**
 * Makes route `key` answer `status` with the JSON `body`: a success with the route's answer
 * type, or an error (`{ message, errors? }`; a 422's `errors` map fields to messages). The
 * body is checked against the route's contract first (throws when it does not fit).
 * @returns the route's requests as they come, and `release` for a held answer.
 */
export function answer<K extends ContractKey>(
  key: K,
  status: SuccessStatus,
  body: AnswerOf<K>,
  options?: AnswerOptions,
): Answering<K>;
export function answer<K extends ContractKey>(
  key: K,
  status: ErrorStatus,
  body: ErrorAnswer,
  options?: AnswerOptions,
): Answering<K>;
export function answer<K extends ContractKey>(
  key: K,
  status: number,
  body: unknown,
  options: AnswerOptions = {},
): Answering<K> {
  checkContract(key, status, body);
  return install(key, () => HttpResponse.json(body as never, { status }), options);
}

/**
 * Makes route `key` fail without an answer, as when the network is down: the client then
 * throws its status-0 error with `NETWORK_ERROR_MESSAGE` (web/src/api/client.ts).
 */
export function failNetwork<K extends ContractKey>(
  key: K,
  options: AnswerOptions = {},
): Answering<K> {
  return install(key, () => HttpResponse.error(), options);
}

/**
 * Makes route `key` answer `status` with an HTML page instead of JSON (a proxy's or a load
 * balancer's error page): the client then has no message to show and uses
 * `GENERIC_ERROR_MESSAGE` (docs/accounts.md "Error answers in the SPA").
 */
export function answerHtml<K extends ContractKey>(
  key: K,
  status: number,
  options: AnswerOptions = {},
): Answering<K> {
  return install(
    key,
    () => HttpResponse.html('<html><body><h1>Bad Gateway</h1></body></html>', { status }),
    options,
  );
}
