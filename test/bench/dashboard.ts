/**
 * Dashboard list benchmark (docs/adr/0019-design-api-shapes.md "Design API shapes"): a team with
 * 1,000 designs on DynamoDB Local, its lists read through the local gateway as the SPA reads them
 * (page 1, then each next page with the cursor the page before gave, to the end), in each of the
 * four sorts. Measured:
 * - list latency p50 and p95 per request (HTTP, ms), overall and per sort;
 * - DynamoDB calls per list request, counted with an SDK middleware on the process's client,
 *   by command: the list itself must be ONE query (the target); the session and user reads of
 *   the sign-in check come on top;
 * - for comparison, a deep page (page 40) asked without its cursor, which reads from the start.
 *
 * Part of `npm run bench` (test/bench/run.ts); alone: `tsx test/bench/dashboard.ts`. Writes
 * bench-results/dashboard.json and prints a table. Timing lives here, never in the tests.
 */
import { cpus } from 'node:os';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LocalStack } from '#infra/local/stack.ts';
import { TestClient } from '../support/client.ts';
import { percentile, round1 } from './measure.ts';
import { formatTable } from './table.ts';
import { RESULTS_DIR, sized } from './scale.ts';

/** Designs in the benchmark team (docs/adr/0019-design-api-shapes.md "Design API shapes"). */
export const DESIGNS = sized(1000, 40);
const SORTS = ['', 'created', 'name', 'views'] as const;
/** DynamoDB queries per list request aimed at (docs/performance.md "Dashboard lists"). */
const TARGET_QUERIES = 1;
/** The page asked without a cursor, for comparison (page 40 of 67). */
const DEEP_PAGE = sized(40, 2);

interface ListPage {
  data: unknown[];
  next_page: number | null;
  cursor: string | null;
}

/** Counts DynamoDB commands by name while `counting` is on (sequential requests only). */
async function commandCounter() {
  const { dynamoClient } = await import('#lib/clients.ts');
  const counts = new Map<string, number>();
  const name = `bench-dashboard-${Date.now()}`;
  dynamoClient().middlewareStack.add(
    (next, context) => async (args) => {
      const command = (context.commandName ?? 'unknown').replace(/Command$/, '');
      counts.set(command, (counts.get(command) ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize', name },
  );
  return {
    take(): Record<string, number> {
      const out = Object.fromEntries(counts);
      counts.clear();
      return out;
    },
    remove: () => dynamoClient().middlewareStack.remove(name),
  };
}

/**
 * Makes the benchmark team: a registered owner (through the API, signed in) and 1,000 designs
 * written through the Design entity in batches (the same items and keys the API writes), with
 * distinct creation times, titles and view counts.
 */
async function seedTeam(url: string): Promise<TestClient> {
  const { db } = await import('#lib/db/index.ts');
  const owner = new TestClient(url);
  const email = `bench-dashboard-${Date.now().toString(36)}@example.org`;
  const password = 'bench-walnut-27';
  const registered = await owner.request('POST', '/register', {
    name: 'Bench Owner',
    email,
    team: 'Bench Team',
    password,
    password_confirmation: password,
    terms: true,
    plan: 'free',
  });
  if (registered.status >= 300) throw new Error(`register: ${JSON.stringify(registered.json)}`);
  const teamId = (await owner.request('GET', '/settings/companies/current')).json.id as string;
  const demo = (await db().Design.get({ designId: 'design-demo-welcome' }).go()).data;
  if (!demo) throw new Error('the seeded demo design is missing');
  const start = Date.parse('2024-01-01T00:00:00Z');
  const items = Array.from({ length: DESIGNS }, (_, i) => {
    const at = new Date(start + i * 60_000).toISOString();
    const views = (i * 7919) % 5000;
    return {
      designId: `bench-${teamId}-${String(i).padStart(4, '0')}`,
      teamId,
      publicId: `bench${i.toString(36)}${Date.now().toString(36)}`,
      title: `Design ${String((i * 389) % DESIGNS).padStart(4, '0')}`,
      version: 1,
      document: demo.document,
      counter: views,
      listedViews: views,
      createdAt: at,
      updatedAt: at,
    };
  });
  for (let i = 0; i < items.length; i += 25) {
    const { unprocessed } = await db()
      .Design.put(items.slice(i, i + 25))
      .go();
    if (unprocessed.length > 0) throw new Error('batch write left items unprocessed');
  }
  return owner;
}

/** The result written to bench-results/dashboard.json. */
export interface DashboardResult {
  designs: number;
  page_size: number;
  requests: number;
  list_p50_ms: number;
  list_p95_ms: number;
  /** DynamoDB queries per list request (max over all requests); target 1. */
  list_queries_per_request: number;
  /** Every DynamoDB call per list request, averaged, by command (sign-in check included). */
  dynamodb_calls_per_request: Record<string, number>;
  targets_met: { one_query_per_page: boolean };
  per_sort: Record<string, { p50_ms: number; p95_ms: number; pages: number }>;
  deep_page_without_cursor: { page: number; ms: number; queries: number };
  machine: { cpus: number; cpu: string; node: string };
  measured_at: string;
}

/**
 * Runs the benchmark against a running local stack, writes bench-results/dashboard.json and
 * prints the table.
 */
export async function runDashboardBench(stack: LocalStack): Promise<DashboardResult> {
  const url = `http://127.0.0.1:${stack.port}`;
  const owner = await seedTeam(url);
  const counter = await commandCounter();
  const all: number[] = [];
  const queries: number[] = [];
  const calls = new Map<string, number>();
  const perSort: DashboardResult['per_sort'] = {};
  const get = async (query: URLSearchParams) => {
    counter.take();
    const started = performance.now();
    const res = await owner.request('GET', `/getActive?${query}`);
    const ms = performance.now() - started;
    const counts = counter.take();
    if (res.status !== 200) throw new Error(`/getActive?${query}: HTTP ${res.status}`);
    return { page: res.json.active as ListPage, ms, counts };
  };
  try {
    // Warm-up: one page of each sort (module load, first connections).
    for (const sortby of SORTS) await get(new URLSearchParams({ sortby }));
    for (const sortby of SORTS) {
      const times: number[] = [];
      let page = 1;
      let cursor: string | null = null;
      let seen = 0;
      for (;;) {
        const q = new URLSearchParams({
          sortby,
          page: String(page),
          ...(cursor ? { cursor } : {}),
        });
        const answer = await get(q);
        times.push(answer.ms);
        all.push(answer.ms);
        queries.push(answer.counts.Query ?? 0);
        for (const [k, v] of Object.entries(answer.counts)) calls.set(k, (calls.get(k) ?? 0) + v);
        seen += answer.page.data.length;
        if (answer.page.next_page === null) break;
        page = answer.page.next_page;
        cursor = answer.page.cursor;
      }
      if (seen !== DESIGNS) throw new Error(`sort "${sortby}": listed ${seen} of ${DESIGNS}`);
      perSort[sortby || 'updated'] = {
        p50_ms: round1(percentile(times, 50)),
        p95_ms: round1(percentile(times, 95)),
        pages: times.length,
      };
    }
    const deep = await get(new URLSearchParams({ sortby: 'name', page: String(DEEP_PAGE) }));

    const requests = all.length;
    const result: DashboardResult = {
      designs: DESIGNS,
      page_size: 15,
      requests,
      list_p50_ms: round1(percentile(all, 50)),
      list_p95_ms: round1(percentile(all, 95)),
      list_queries_per_request: Math.max(...queries),
      dynamodb_calls_per_request: Object.fromEntries(
        [...calls].map(([k, v]) => [k, Math.round((v / requests) * 100) / 100]),
      ),
      targets_met: { one_query_per_page: queries.every((q) => q === TARGET_QUERIES) },
      per_sort: perSort,
      deep_page_without_cursor: {
        page: DEEP_PAGE,
        ms: round1(deep.ms),
        queries: deep.counts.Query ?? 0,
      },
      machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? '', node: process.version },
      measured_at: new Date().toISOString(),
    };
    await mkdir(RESULTS_DIR, { recursive: true });
    await writeFile(join(RESULTS_DIR, 'dashboard.json'), `${JSON.stringify(result, null, 2)}\n`);
    printTable(result);
    return result;
  } finally {
    counter.remove();
  }
}

function printTable(result: DashboardResult): void {
  const rows: Array<Record<string, string | number>> = Object.entries(result.per_sort).map(
    ([sort, s]) => ({
      measure: `GET /getActive sortby=${sort === 'updated' ? '' : sort} (${s.pages} pages)`,
      'p50 ms': s.p50_ms,
      'p95 ms': s.p95_ms,
    }),
  );
  rows.push({
    measure: `all ${result.requests} list requests`,
    'p50 ms': result.list_p50_ms,
    'p95 ms': result.list_p95_ms,
    queries: result.list_queries_per_request,
    target: `${TARGET_QUERIES} query`,
    met: result.targets_met.one_query_per_page ? '✓' : '✗',
  });
  rows.push({
    measure: `page ${result.deep_page_without_cursor.page} without its cursor (reads from the start)`,
    'p50 ms': result.deep_page_without_cursor.ms,
    queries: result.deep_page_without_cursor.queries,
  });
  console.log(
    `\nDashboard lists, a team with ${result.designs} designs:\n${formatTable(
      ['measure', 'p50 ms', 'p95 ms', 'queries', 'target', 'met'],
      rows,
    )}`,
  );
  console.log(
    `DynamoDB calls per list request (sign-in check included): ${JSON.stringify(result.dynamodb_calls_per_request)}`,
  );
  console.log('wrote bench-results/dashboard.json');
}

// Alone: `tsx test/bench/dashboard.ts` starts its own stack.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.env.STAGE = 'test';
  const { startLocalStack } = await import('#infra/local/stack.ts');
  const stack = await startLocalStack({ port: 0, web: 'none', warmChromium: false });
  try {
    await runDashboardBench(stack);
  } finally {
    await stack.stop();
  }
}
