/**
 * Hostile requests over every route of the route table, through the real local stack
 * (docs/security.md "Reliability figures"). For each route, fast-check draws requests from its
 * path, its zod body and query schemas and a catalogue of hostile values (test/support/fuzz.ts):
 * over-long ids, slashes, percent-encodings, unicode and control characters, wrong JSON types,
 * huge numbers, deep objects, missing and extra fields, wrong content types, malformed JSON.
 * Signed in as the demo owner for user routes and as the platform admin for admin routes.
 *
 * What must hold for every answer:
 * - no 5xx (every route of the table is built: test/unit/routes-built.test.ts);
 * - every refusal of the API (4xx) is JSON `{ success: false, message }`, and a form validation
 *   (422 `validation_failed`) names its fields in `errors`;
 * - the render URL answers an image (or the PDF, or ManyChat's JSON) whenever it answers 200.
 *
 * The figures (requests sent, by status class, per route family) are printed, not asserted as
 * times. The seed is fixed (`FUZZ_SEED` overrides it); route number i of the table runs with
 * seed + i, so one route's requests can be replayed alone.
 *
 * @own-stack: fuzzes with every id in the table; a fixed seed replays the same requests only on the same seeded data.
 */
import { request as httpRequest, Agent } from 'node:http';
import fc from 'fast-check';
import pLimit from 'p-limit';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  FEATURES,
  ROUTES,
  isApiRequest,
  matchRoute,
  routeKey,
  type Feature,
  type Route,
} from '#shared/routes.ts';
import type { FeatureHandler } from '#lib/http.ts';
import { requestArbitrary, type FuzzRequest } from '../support/fuzz.ts';
import { TestClient } from '../support/client.ts';
import { useLocalStack, warmLocalStack } from '../support/stack.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20_251_107);
/** Requests per route; the table has about 160 routes, so this gives more than 10,000. */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 66);
/** Routes fuzzed at once (each route's requests go one after another). */
const CONCURRENCY = 8;

// The webhook checks signatures (400) rather than answering 503 "not configured".
process.env.STRIPE_WEBHOOK_SECRET = 'whsec_fuzz_only';
const stack = useLocalStack();

/**
 * Routes that end or replace the caller's session when they succeed: each gets a client of its
 * own, so the others keep theirs.
 */
const endsSession = (route: Route) => /\/(logout|impersonate)\b/.test(route.path);
/** Routes that could delete the demo team itself: only made-up ids. */
const NO_REAL_IDS = new Set(['DELETE /settings/companies/{id}']);

const clients: { owner: TestClient; admin: TestClient } = {} as never;
const handlers = new Map<Feature, FeatureHandler>();
let ids: string[] = [];

/** Sends from 127.0.0.2, so the fuzz's sign-in and e-mail checks do not throttle 127.0.0.1. */
const agent = new Agent({
  keepAlive: true,
  maxSockets: CONCURRENCY * 2,
  localAddress: '127.0.0.2',
});

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/**
 * Sends `req`. A reset of a kept-alive socket before any answer is the agent's race with the
 * server closing that idle socket (Node's http docs: check `reusedSocket` and retry), not the
 * server's answer to the request: it is sent once more, on a new socket.
 */
function send(client: TestClient | undefined, req: FuzzRequest, retried = false): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (req.auth !== 'no-csrf') headers['x-requested-with'] = 'XMLHttpRequest';
  if (client && (req.auth === 'session' || req.auth === 'no-csrf')) {
    headers.cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const token = client.cookies.get('XSRF-TOKEN');
    if (token && req.auth === 'session') headers['x-xsrf-token'] = token;
  }
  if (req.auth === 'bogus-bearer')
    headers.authorization = `Bearer pst_${'b'.repeat(req.path.length % 1600)}`;
  if (req.contentType) headers['content-type'] = req.contentType;
  const body = req.body === undefined ? undefined : Buffer.from(req.body, 'utf8');
  if (body) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port: stack().port, method: req.method, path: req.path, headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    outgoing.setTimeout(60_000, () => outgoing.destroy(new Error('no answer within 60 s')));
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (!retried && outgoing.reusedSocket && error.code === 'ECONNRESET')
        resolve(send(client, req, true));
      else reject(error);
    });
    outgoing.end(body);
  });
}

/** Ids found in a JSON answer: values of `id`, `…Id`, `…_id` and `uuid` fields. */
function collectIds(value: unknown, into: Set<string>, depth = 0): void {
  if (depth > 8 || !value || typeof value !== 'object') return;
  for (const [key, v] of Object.entries(value)) {
    if ((typeof v === 'string' || typeof v === 'number') && /(^id$|Id$|_id$|^uuid$)/i.test(key)) {
      const s = String(v);
      if (s.length > 0 && s.length <= 200) into.add(s);
    } else collectIds(v, into, depth + 1);
  }
}

beforeAll(async () => {
  await warmLocalStack(stack());
  const { loadHandler } = await import('#infra/local/gateway.ts');
  for (const feature of FEATURES)
    handlers.set(feature, (await loadHandler(feature)) as FeatureHandler);
  clients.owner = new TestClient(stack().url);
  clients.admin = new TestClient(stack().url);
  expect((await clients.owner.login('demo@example.com')).status).toBe(200);
  expect((await clients.admin.login('admin@example.com')).status).toBe(200);
  // An API token, so the token routes see a real id too.
  await clients.owner.request('POST', '/settings/api/token', { name: 'fuzz', abilities: ['read'] });
  const found = new Set<string>(['team-demo', 'demo-welcome']);
  for (const [client, path] of [
    [clients.owner, '/user/current'],
    [clients.owner, '/getActive'],
    [clients.owner, '/getTemplates'],
    [clients.owner, '/getImages'],
    [clients.owner, '/settings/companies'],
    [clients.owner, '/settings/api/tokens'],
    [clients.admin, '/user/current'],
  ] as const) {
    collectIds((await client.request('GET', path)).json, found);
  }
  const designs = (await clients.owner.request('GET', '/getActive')).json;
  const designIds = new Set<string>();
  collectIds(designs, designIds);
  for (const id of [...designIds].slice(0, 3)) {
    collectIds(
      (await clients.owner.request('GET', `/api/pic-snippet/${encodeURIComponent(id)}`)).json,
      found,
    );
  }
  ids = [...found].sort().slice(0, 120);
});

type Figures = Record<'sent' | '2xx' | '3xx' | '4xx' | '5xx', number>;
const emptyFigures = (): Figures => ({ sent: 0, '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 });

/**
 * What is wrong with an answer, or undefined when nothing is.
 * @param route the route the request was drawn for (a slash in an id may route it elsewhere).
 */
function judge(route: Route, req: FuzzRequest, answer: Answer): string | undefined {
  if (answer.status === 0) return answer.text;
  const pathname = new URL(req.path, 'http://x').pathname;
  // A GET the gateway gives to the SPA (`/api/pic-snippet/..` is `/api/`): not the API's answer.
  if (!isApiRequest({ method: req.method, path: pathname, accept: 'application/json' }))
    return undefined;
  const match = matchRoute(req.method, pathname);
  const actual = match && 'route' in match ? match.route : undefined;
  if (answer.status >= 500) return `${answer.status}`;
  if (actual?.feature === 'render' || route.feature === 'render') {
    if (
      answer.status === 200 &&
      !/^(image\/|application\/pdf|application\/json)/.test(answer.contentType)
    )
      return `render 200 as ${answer.contentType}`;
    return undefined;
  }
  if (answer.status < 400) return undefined;
  let body: { success?: unknown; message?: unknown; code?: unknown; errors?: unknown };
  try {
    body = JSON.parse(answer.text) as typeof body;
  } catch {
    return `${answer.status} refusal is not JSON (${answer.contentType})`;
  }
  if (body.success !== false) return `${answer.status} refusal without success: false`;
  if (typeof body.message !== 'string' || body.message === '')
    return `${answer.status} refusal without a message`;
  if (
    answer.status === 422 &&
    body.code === 'validation_failed' &&
    (!body.errors || typeof body.errors !== 'object' || Array.isArray(body.errors))
  )
    return '422 validation without field errors';
  return undefined;
}

describe('hostile requests over every route', () => {
  it('answers no 5xx and refuses in JSON', async () => {
    const figures = new Map<string, Figures>();
    const total = emptyFigures();
    const violations = new Map<string, { count: number; examples: string[] }>();
    const sessionsEnded: string[] = [];
    const started = Date.now();

    const fuzzRoute = async (route: Route, index: number) => {
      const key = routeKey(route);
      const handler = handlers.get(route.feature)!;
      const schemas = handler.schemas?.[key] ?? {};
      let client = route.access === 'admin' ? clients.admin : clients.owner;
      if (endsSession(route)) {
        client = new TestClient(stack().url);
        await client.login(route.access === 'admin' ? 'admin@example.com' : 'demo@example.com');
      }
      const arbitrary = requestArbitrary(route, schemas, NO_REAL_IDS.has(key) ? [] : ids);
      const family = figures.get(route.feature) ?? emptyFigures();
      figures.set(route.feature, family);
      await fc.assert(
        fc.asyncProperty(arbitrary, async (req) => {
          const answer = await send(client, req).catch((error: Error): Answer => ({
            status: 0,
            contentType: '',
            text: `no answer: ${error.message}`,
          }));
          const cls = `${Math.floor(answer.status / 100)}xx` as keyof Figures;
          for (const f of [family, total]) {
            f.sent++;
            if (cls in f) f[cls]++;
          }
          const wrong = judge(route, req, answer);
          if (wrong) {
            const v = violations.get(`${key}: ${wrong}`) ?? { count: 0, examples: [] };
            v.count++;
            if (v.examples.length < 3)
              v.examples.push(
                `${req.method} ${req.path.slice(0, 160)} [${req.kinds.join(', ')}] ${req.contentType ?? ''} ` +
                  `${(req.body ?? '').slice(0, 120)} → ${answer.text.slice(0, 200)}`,
              );
            violations.set(`${key}: ${wrong}`, v);
          }
          return true;
        }),
        { seed: SEED + index, numRuns: RUNS_PER_ROUTE },
      );
      // A route that ended a shared session: sign in again, and say so.
      if (client && !endsSession(route)) {
        const who = await client.request('GET', '/user/current');
        if (who.status === 401) {
          sessionsEnded.push(key);
          client.cookies.clear();
          await client.login(client === clients.admin ? 'admin@example.com' : 'demo@example.com');
        }
      }
    };

    const limit = pLimit(CONCURRENCY);
    await Promise.all(ROUTES.map((route, i) => limit(() => fuzzRoute(route, i))));

    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const rows = [...figures].map(
      ([family, f]) =>
        `  ${family.padEnd(15)} ${String(f.sent).padStart(6)} ${String(f['2xx']).padStart(6)} ` +
        `${String(f['3xx']).padStart(5)} ${String(f['4xx']).padStart(6)} ${String(f['5xx']).padStart(5)}`,
    );
    console.log(
      [
        `Fuzz: seed ${SEED}, ${RUNS_PER_ROUTE} requests × ${ROUTES.length} routes, ${ids.length} real ids, ${seconds} s`,
        `  ${'family'.padEnd(15)} ${'sent'.padStart(6)} ${'2xx'.padStart(6)} ${'3xx'.padStart(5)} ${'4xx'.padStart(6)} ${'5xx'.padStart(5)}`,
        ...rows,
        `  ${'total'.padEnd(15)} ${String(total.sent).padStart(6)} ${String(total['2xx']).padStart(6)} ${String(total['3xx']).padStart(5)} ${String(total['4xx']).padStart(6)} ${String(total['5xx']).padStart(5)}`,
        `  real ids: ${ids.join(', ')}`,
        ...(sessionsEnded.length > 0
          ? [`Sessions ended (signed in again) by: ${sessionsEnded.join(', ')}`]
          : []),
        ...[...violations].flatMap(([what, v]) => [
          `VIOLATION ${what} ×${v.count}`,
          ...v.examples.map((e) => `    ${e}`),
        ]),
      ].join('\n'),
    );
    expect(total.sent).toBeGreaterThanOrEqual(10_000);
    expect([...violations.keys()]).toEqual([]);
  }, 240_000);
});
