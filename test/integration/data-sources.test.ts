/**
 * Data sources (docs/data-sources.md) against the real local stack (DynamoDB Local, s3rver):
 * data stores uploaded, looked up, missed and re-uploaded through the team routes; web APIs
 * fetched through the SSRF guard from a JSON server listening on loopback, which the test
 * stack's guard treats as public (SSRF_TEST_PUBLIC_PORTS, honoured only with STAGE=test), with
 * their timeout, their cache and the hostile URL corpus (test/support/hostile-urls.ts) refused;
 * and a design bound to both, rendered: a found record draws its value, a missing one (or a
 * failing API) the parameter's fallback, and a re-upload draws the new value.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/config.ts';
import { UPLOAD_UNDONE_MESSAGE } from '#functions/data-sources/stores.ts';
import { TestClient } from '../support/client.ts';
import {
  currentTeamId,
  OWN_TEAM_PASSWORD,
  ownTeam,
  setTeamPlan,
  uniqueEmail,
} from '../support/designs.ts';
import { hostileUrls } from '../support/hostile-urls.ts';
import { fetchImage, meanDifference, useLocalStack } from '../support/stack.ts';

/** The JSON API: `/products/{sku}` answers a product, `/slow` answers after 5 s. */
const hits: string[] = [];
const api = createServer((req, res) => {
  hits.push(`${req.url} ${req.headers['x-api-key'] ?? '-'}`);
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname === '/slow') {
    setTimeout(() => res.end('{}'), 5000).unref();
    return;
  }
  const sku = decodeURIComponent(url.pathname.split('/')[2] ?? '');
  if (url.pathname.startsWith('/products/') && sku !== 'none') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ items: [{ name: `Product ${sku}`, price: 12.5 }], hit: hits.length }));
    return;
  }
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end('{"error":"no such product"}');
});
/** A loopback server no API may reach (not listed as public). */
const victimHits: string[] = [];
const victim = createServer((req, res) => {
  victimHits.push(req.url ?? '');
  res.end('{}');
});

const listen = (server: Server) =>
  new Promise<number>((ok) =>
    server.listen(0, '127.0.0.1', () => ok((server.address() as AddressInfo).port)),
  );
let port = 0;
let victimPort = 0;

beforeAll(async () => {
  port = await listen(api);
  victimPort = await listen(victim);
  process.env.SSRF_TEST_PUBLIC_PORTS = String(port);
  resetConfig();
});

const stack = useLocalStack();

afterAll(async () => {
  delete process.env.SSRF_TEST_PUBLIC_PORTS;
  resetConfig();
  api.closeAllConnections();
  await Promise.all([api, victim].map((s) => new Promise((ok) => s.close(ok))));
});

/**
 * The stores' and APIs' team: a team of this file's own on Pro as data, as the seed puts the demo
 * team (its stores hold up to 50,000 rows); and a free team of this file's own, for the free
 * plan's limit and as another team. What is stored here stays out of the seeded teams, which
 * serve the files after this one on the same stack (docs/testing.md "One stack per worker").
 */
const OWNER = uniqueEmail('data-sources');
const FREE_OWNER = uniqueEmail('data-sources-free');
let TEAM = '';
let FREE_TEAM = '';
let stores = '';
let apis = '';

beforeAll(async () => {
  TEAM = await currentTeamId(await ownTeam(stack().url, OWNER));
  await setTeamPlan(TEAM, 'pro-monthly');
  FREE_TEAM = await currentTeamId(await ownTeam(stack().url, FREE_OWNER));
  stores = `/settings/companies/${TEAM}/data-stores`;
  apis = `/settings/companies/${TEAM}/web-apis`;
});

async function signedIn(email = OWNER) {
  const c = new TestClient(stack().url);
  expect((await c.login(email, OWN_TEAM_PASSWORD)).status).toBe(200);
  return c;
}

/** A multipart upload: the file, and any other fields. */
function form(file: string, name: string, fields: Record<string, string> = {}) {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  data.append('file', new Blob([file], { type: 'text/csv' }), name);
  return data;
}

describe('data stores', () => {
  it('uploads a table, looks a key up, misses another, and a re-upload updates by key', async () => {
    const c = await signedIn();
    const created = await c.request(
      'POST',
      stores,
      form('SKU,Name,Price\nA-1,Blue mug,12\nb-2,Red mug,9\n', 'products.csv', {
        name: 'Products',
        key_column: 'sku',
      }),
    );
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const store = created.json.store as { id: string; rows: number; columns: string[] };
    expect(store).toMatchObject({ rows: 2, columns: ['SKU', 'Name', 'Price'], max_rows: 50_000 });
    expect(created.json.report).toMatchObject({ rows: 2, added: 2, updated: 0 });

    const lookup = (key: string) =>
      c.request('GET', `${stores}/${store.id}/record?key=${encodeURIComponent(key)}`);
    expect((await lookup('A-1')).json.record).toEqual({
      key: 'A-1',
      fields: { SKU: 'A-1', Name: 'Blue mug', Price: '12' },
    });
    // keys keep their case: b-2 is there, B-2 is not
    expect((await lookup('b-2')).status).toBe(200);
    const missing = await lookup('B-2');
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBe('The store has no SKU "B-2".');

    const again = await c.request(
      'POST',
      `${stores}/${store.id}/upload`,
      form('sku,name,price\nA-1,Blue mug,15\nC-3,Green mug,7\n', 'products.csv'),
    );
    expect(again.status, JSON.stringify(again.json)).toBe(200);
    expect(again.json.report).toMatchObject({ rows: 2, added: 1, updated: 1 });
    expect((again.json.store as { rows: number }).rows).toBe(3);
    expect(((await lookup('A-1')).json.record as { fields: object }).fields).toMatchObject({
      price: '15',
    });
    expect((await lookup('C-3')).status).toBe(200);
    expect((await lookup('b-2')).status).toBe(200);

    const shown = await c.request('GET', `${stores}/${store.id}`);
    expect(shown.json.sample).toHaveLength(3);
    expect(
      ((await c.request('GET', stores)).json.stores as { id: string }[]).map((s) => s.id),
    ).toContain(store.id);
  });

  it('refuses a bad file with a field error and writes nothing', async () => {
    const c = await signedIn();
    const before = ((await c.request('GET', stores)).json.stores as unknown[]).length;
    const refused = await c.request(
      'POST',
      stores,
      form('sku,name\nA,1\nA,2\n', 'dupes.csv', { name: 'Dupes', key_column: 'sku' }),
    );
    expect(refused.status).toBe(422);
    expect((refused.json.errors as Record<string, string[]>).file).toEqual([
      'The sku "A" is on line 2 and line 3; a key may be given once.',
    ]);
    const noKey = await c.request(
      'POST',
      stores,
      form('id,name\n1,x\n', 'x.csv', { name: 'No key', key_column: 'sku' }),
    );
    expect((noKey.json.errors as Record<string, string[]>).file?.[0]).toMatch(/no column "sku"/);
    const noName = await c.request(
      'POST',
      stores,
      form('sku\n1\n', 'x.csv', { key_column: 'sku' }),
    );
    expect(Object.keys(noName.json.errors as object)).toEqual(['name']);
    expect(((await c.request('GET', stores)).json.stores as unknown[]).length).toBe(before);
  });

  it('keeps the previous upload when a re-upload fails half-way: a bad row, or a write that fails', async () => {
    const c = await signedIn();
    const rows = (n: number, price: string) =>
      Array.from({ length: n }, (_, i) => `K${String(i).padStart(3, '0')},${price}`).join('\n');
    const created = await c.request(
      'POST',
      stores,
      form(`sku,price\n${rows(60, 'old')}\n`, 'prices.csv', { name: 'Prices', key_column: 'sku' }),
    );
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const id = (created.json.store as { id: string }).id;
    const lookup = async (key: string) => {
      const res = await c.request('GET', `${stores}/${id}/record?key=${key}`);
      return res.status === 200
        ? (res.json.record as { fields: { price: string } }).fields.price
        : res.status;
    };
    const unchanged = async () => {
      expect(await lookup('K000')).toBe('old');
      expect(await lookup('K059')).toBe('old');
      expect(await lookup('K080')).toBe(404);
      const shown = await c.request('GET', `${stores}/${id}`);
      expect(shown.json.store).toMatchObject({ rows: 60, columns: ['sku', 'price'] });
    };

    // 200 good rows, then one without its key: refused with its line, nothing written.
    const bad = await c.request(
      'POST',
      `${stores}/${id}/upload`,
      form(`sku,price\n${rows(200, 'new')}\n,9\n`, 'prices.csv'),
    );
    expect(bad.status).toBe(422);
    expect((bad.json.errors as Record<string, string[]>).file).toEqual([
      'Line 202 has no sku: every row needs its key.',
    ]);
    await unchanged();

    // The third batch of 25 records fails to write (DynamoDB answers an error): undone.
    const { dynamoClient } = await import('#lib/clients.ts');
    let batches = 0;
    dynamoClient().middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'BatchWriteItemCommand' && ++batches === 3)
          throw Object.assign(new Error('injected write failure'), { name: 'InternalServerError' });
        return next(args);
      },
      { step: 'initialize', name: 'failThirdBatchWrite' },
    );
    try {
      const failed = await c.request(
        'POST',
        `${stores}/${id}/upload`,
        form(`sku,price\n${rows(100, 'new')}\n`, 'prices.csv'),
      );
      expect(failed.status).toBe(503);
      expect(failed.json.message).toBe(UPLOAD_UNDONE_MESSAGE);
    } finally {
      dynamoClient().middlewareStack.remove('failThirdBatchWrite');
    }
    expect(batches).toBeGreaterThanOrEqual(3);
    await unchanged();

    // Uploaded again, it is written whole.
    const again = await c.request(
      'POST',
      `${stores}/${id}/upload`,
      form(`sku,price\n${rows(100, 'new')}\n`, 'prices.csv'),
    );
    expect(again.status, JSON.stringify(again.json)).toBe(200);
    expect(again.json.report).toMatchObject({ rows: 100, added: 40, updated: 60 });
    expect(await lookup('K080')).toBe('new');
  });

  it('bounds rows by the plan: 1,000 on the free plan', async () => {
    const free = await signedIn(FREE_OWNER);
    const rows = (n: number) => `sku\n${Array.from({ length: n }, (_, i) => `k${i}`).join('\n')}\n`;
    const path = `/settings/companies/${FREE_TEAM}/data-stores`;
    const over = await free.request(
      'POST',
      path,
      form(rows(1001), 'big.csv', { name: 'Big', key_column: 'sku' }),
    );
    expect(over.status).toBe(422);
    expect((over.json.errors as Record<string, string[]>).file).toEqual([
      'The file has more than 1,000 rows, the most your plan allows in a data store. Remove rows, or upgrade for a larger limit.',
    ]);
    const fits = await free.request(
      'POST',
      path,
      form(rows(1000), 'big.csv', { name: 'Big', key_column: 'sku' }),
    );
    expect(fits.status).toBe(201);
    expect(fits.json.store).toMatchObject({ rows: 1000, max_rows: 1000 });
    // The limit is the store's, not one file's: a second file of new keys is refused whole,
    // one that only updates known keys is not.
    const storeId = (fits.json.store as { id: string }).id;
    const more = await free.request(
      'POST',
      `${path}/${storeId}/upload`,
      form(
        `sku
${Array.from({ length: 10 }, (_, i) => `new${i}`).join('\n')}\n`,
        'more.csv',
      ),
    );
    expect(more.status).toBe(422);
    expect((more.json.errors as Record<string, string[]>).file).toEqual([
      'The store has 1,000 rows and this file adds 10 new keys: more than the 1,000 rows your plan allows in one data store. Remove rows from the file, or upgrade for a larger limit.',
    ]);
    const { db } = await import('#lib/db/index.ts');
    const kept = (await db().DataStore.get({ teamId: FREE_TEAM, storeId }).go()).data;
    expect(kept?.rows).toBe(1000);
    const { lookupRecord } = await import('#functions/data-sources/stores.ts');
    expect(await lookupRecord(FREE_TEAM, storeId, 'new0')).toBeUndefined();
    const update = await free.request(
      'POST',
      `${path}/${storeId}/upload`,
      form('sku,name\nk1,One\nk2,Two\n', 'update.csv'),
    );
    expect(update.status).toBe(200);
  });

  it('keeps a store whose records are not all deleted in one call, and finishes on the next', async () => {
    const c = await signedIn();
    const created = await c.request(
      'POST',
      stores,
      form('sku,name\na,A\nb,B\nc,C\nd,D\ne,E\n', 'five.csv', { name: 'Five', key_column: 'sku' }),
    );
    const storeId = (created.json.store as { id: string }).id;
    const { deleteStore, DELETE_UNFINISHED_MESSAGE } =
      await import('#functions/data-sources/stores.ts');
    const { db } = await import('#lib/db/index.ts');
    const records = async () =>
      (await db().DataRecord.query.byStore({ teamId: TEAM, storeId }).go({ pages: 'all' })).data
        .length;
    // Two pages of two records a call: the first call leaves one record and the store.
    await expect(deleteStore(TEAM, storeId, { pages: 2, pageSize: 2 })).rejects.toThrow(
      DELETE_UNFINISHED_MESSAGE,
    );
    expect(await records()).toBe(1);
    expect((await db().DataStore.get({ teamId: TEAM, storeId }).go()).data).not.toBeNull();
    await deleteStore(TEAM, storeId, { pages: 2, pageSize: 2 });
    expect(await records()).toBe(0);
    expect((await db().DataStore.get({ teamId: TEAM, storeId }).go()).data).toBeNull();
  });

  it('answers 404 for another team’s store and deletes a store with its records', async () => {
    const c = await signedIn();
    const created = await c.request(
      'POST',
      stores,
      form('code,label\nx,1\n', 'codes.csv', { name: 'Codes', key_column: 'code' }),
    );
    const id = (created.json.store as { id: string }).id;
    const other = await signedIn(FREE_OWNER);
    const path = `/settings/companies/${FREE_TEAM}/data-stores/${id}`;
    expect((await other.request('GET', path)).status).toBe(404);
    expect((await other.request('GET', `${path}/record?key=x`)).status).toBe(404);
    expect((await other.request('DELETE', path)).status).toBe(404);
    // without the CSRF header a change is refused
    expect((await c.request('DELETE', `${stores}/${id}`, undefined, { csrf: false })).status).toBe(
      419,
    );
    expect((await c.request('DELETE', `${stores}/${id}`)).status).toBe(200);
    expect((await c.request('GET', `${stores}/${id}`)).status).toBe(404);
    const { lookupRecord } = await import('#functions/data-sources/stores.ts');
    expect(await lookupRecord(TEAM, id, 'x')).toBeUndefined();
  });
});

describe('web APIs', () => {
  it('stores secret headers sealed, fetches with them and reads fields by path', async () => {
    const c = await signedIn();
    const created = await c.request('POST', apis, {
      name: 'Catalogue',
      url: `http://127.0.0.1:${port}/products/{sku}`,
      ttl_seconds: 0,
      headers: [{ name: 'X-Api-Key', value: 'k-secret-1' }],
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const id = (created.json.api as { id: string }).id;
    expect(JSON.stringify((await c.request('GET', apis)).json)).not.toContain('k-secret-1');
    expect((created.json.api as { header_names: string[] }).header_names).toEqual(['X-Api-Key']);
    const { db } = await import('#lib/db/index.ts');
    const stored = (await db().WebApi.get({ teamId: TEAM, apiId: id }).go()).data!;
    expect(stored.headers).not.toContain('k-secret-1');

    const tested = await c.request('POST', `${apis}/${id}/test`, {
      values: { sku: 'A/1 b' },
      paths: ['items[0].name', 'items[0].price', 'items[1].name'],
    });
    expect(tested.json).toMatchObject({
      ok: true,
      status: 200,
      values: { 'items[0].name': 'Product A/1 b', 'items[0].price': '12.5', 'items[1].name': null },
    });
    // the value was URL-encoded into the path, the header sent
    expect(hits.at(-1)).toBe('/products/A%2F1%20b k-secret-1');

    const notFound = await c.request('POST', `${apis}/${id}/test`, { values: { sku: 'none' } });
    expect(notFound.json).toMatchObject({ ok: false, status: 404 });
    const badPath = await c.request('POST', `${apis}/${id}/test`, { paths: ['items[x]'] });
    expect(badPath.status).toBe(422);
    expect(Object.keys(badPath.json.errors as object)).toEqual(['paths.0']);
  });

  it('gives up on a slow API within the budget', async () => {
    const c = await signedIn();
    const created = await c.request('POST', apis, {
      name: 'Slow',
      url: `http://127.0.0.1:${port}/slow?sku={sku}`,
    });
    const id = (created.json.api as { id: string }).id;
    const started = Date.now();
    const tested = await c.request('POST', `${apis}/${id}/test`, { values: { sku: '1' } });
    expect(Date.now() - started).toBeLessThan(4000);
    expect(tested.json).toMatchObject({ ok: false, status: null });
    expect(tested.json.error).toMatch(/timeout/);
  });

  it('keeps answers for the TTL, and none with a TTL of 0', async () => {
    const { apiJson, forgetKeptAnswers } = await import('#functions/data-sources/web-api.ts');
    const { configuredUrlGuard } = await import('#lib/ssrf.ts');
    const api = {
      teamId: TEAM,
      apiId: 'api-cache-test',
      name: 'Cached',
      url: `http://127.0.0.1:${port}/products/{sku}`,
      ttlSeconds: 60,
      updatedAt: new Date().toISOString(),
    };
    const count = () => hits.filter((h) => h.startsWith('/products/cached')).length;
    const first = await apiJson(api, { sku: 'cached' }, configuredUrlGuard());
    expect(first).toMatchObject({ json: { items: [{ name: 'Product cached' }] } });
    expect(await apiJson(api, { sku: 'cached' }, configuredUrlGuard())).toEqual(first);
    expect(count()).toBe(1);
    // another process (memory forgotten) reads the answer kept in S3
    await new Promise((r) => setTimeout(r, 300));
    forgetKeptAnswers();
    expect(await apiJson(api, { sku: 'cached' }, configuredUrlGuard())).toEqual(first);
    expect(count()).toBe(1);
    // a TTL of 0 fetches every time; an edited API does not reuse the old answers
    await apiJson({ ...api, ttlSeconds: 0 }, { sku: 'cached' }, configuredUrlGuard());
    await apiJson({ ...api, updatedAt: 'later' }, { sku: 'cached' }, configuredUrlGuard());
    expect(count()).toBe(3);
    // a 404 is not kept and gives no value: the API has nothing for these values
    expect(await apiJson(api, { sku: 'none' }, configuredUrlGuard())).toEqual({ none: true });
  });

  it('fetches one API at most 20 times a second, whatever the values', async () => {
    const { apiJson } = await import('#functions/data-sources/web-api.ts');
    const { configuredUrlGuard } = await import('#lib/ssrf.ts');
    const api = {
      teamId: TEAM,
      apiId: 'api-flood-test',
      name: 'Flooded',
      url: `http://127.0.0.1:${port}/products/flood-{sku}`,
      ttlSeconds: 0,
    };
    const before = hits.filter((h) => h.startsWith('/products/flood-')).length;
    const answers = await Promise.all(
      Array.from({ length: 45 }, (_, i) => apiJson(api, { sku: String(i) }, configuredUrlGuard())),
    );
    expect(hits.filter((h) => h.startsWith('/products/flood-')).length - before).toBe(20);
    // Past the allowance there is no answer to trust: failed, so the render is not cached.
    expect(answers.filter((a) => 'failed' in a)).toHaveLength(25);
  });

  it('asks for the secret headers again when the URL moves to another origin', async () => {
    const c = await signedIn();
    const created = await c.request('POST', apis, {
      name: 'Keyed',
      url: `http://127.0.0.1:${port}/products/{sku}`,
      headers: [{ name: 'X-Api-Key', value: 'owners-key' }],
    });
    const id = (created.json.api as { id: string }).id;
    // Same origin, another path: the key still belongs there.
    const samePlace = await c.request('PUT', `${apis}/${id}`, {
      url: `http://127.0.0.1:${port}/products/v2/{sku}`,
    });
    expect(samePlace.status).toBe(200);
    // Another host: refused without the headers, nothing changed.
    const moved = await c.request('PUT', `${apis}/${id}`, {
      url: `http://localhost:${port}/products/{sku}`,
    });
    expect(moved.status).toBe(422);
    expect(moved.json.errors).toEqual({
      headers: [
        'Enter the secret headers again for the new address: they are sent only to the address they were entered for.',
      ],
    });
    const listed = (await c.request('GET', apis)).json.apis as Array<{ id: string; url: string }>;
    expect(listed.find((a) => a.id === id)?.url).toBe(`http://127.0.0.1:${port}/products/v2/{sku}`);
    // With the headers entered again, it moves.
    const withHeaders = await c.request('PUT', `${apis}/${id}`, {
      url: `http://localhost:${port}/products/{sku}`,
      headers: [{ name: 'X-Api-Key', value: 'new-key' }],
    });
    expect(withHeaders.status).toBe(200);
  });

  it('never lets values walk up the template’s path (.. raw or encoded), with the team’s headers', async () => {
    const c = await signedIn();
    const created = await c.request('POST', apis, {
      name: 'Customers',
      url: `http://127.0.0.1:${port}/products/v1/customers/{a}/{b}/{c}`,
      ttl_seconds: 0,
      headers: [{ name: 'X-Api-Key', value: 'k-walk' }],
    });
    expect(created.status).toBe(201);
    const id = (created.json.api as { id: string }).id;
    const before = hits.length;
    for (const values of [
      { a: '..', b: '..', c: 'admin' },
      { a: '%2e%2E', b: '.', c: 'admin' },
      { a: 'x', b: '..', c: '..' },
    ]) {
      const tested = await c.request('POST', `${apis}/${id}/test`, { values });
      expect(tested.json, JSON.stringify(values)).toMatchObject({ ok: false, status: null });
    }
    // Nothing reached the API: not /admin, not /products, not anything.
    expect(hits.slice(before)).toEqual([]);
    // A dot inside a value stays one segment and is fetched as such.
    await c.request('POST', `${apis}/${id}/test`, { values: { a: '1.2', b: '...', c: 'x' } });
    expect(hits.slice(before)).toEqual(['/products/v1/customers/1.2/.../x k-walk']);
  });

  it('refuses the hostile URL corpus: never saved, or never fetched', async () => {
    const c = await signedIn();
    const corpus = hostileUrls(victimPort);
    expect(corpus.length).toBeGreaterThanOrEqual(40);
    const saved: string[] = [];
    for (const [url] of corpus) {
      const created = await c.request('POST', apis, { name: 'Hostile', url });
      if (created.status === 422) continue;
      // a name that does not resolve yet is kept; every fetch checks again
      expect(created.status, url).toBe(201);
      const id = (created.json.api as { id: string }).id;
      saved.push(url);
      const tested = await c.request('POST', `${apis}/${id}/test`, {});
      expect(tested.json.ok, url).toBe(false);
      expect(tested.json.status, url).toBeNull();
      await c.request('DELETE', `${apis}/${id}`);
    }
    expect(saved.length).toBeLessThan(10);
    expect(victimHits).toEqual([]);
    const hostHole = await c.request('POST', apis, {
      name: 'Host hole',
      url: 'https://{host}.example.com/x',
    });
    expect(hostHole.status).toBe(422);
  });
});

describe('renders of a bound design', () => {
  /** The public id of this file's design `name` (public ids are shared by every file's designs). */
  const TAG = randomUUID().slice(0, 8);
  const pid = (name: string) => `${name}-${TAG}`;

  /** A copy of the demo design whose `first_name` is filled by `bindings`, as `pid(name)`. */
  async function boundDesign(name: string, bindings: unknown[]) {
    const publicId = pid(name);
    const { db } = await import('#lib/db/index.ts');
    const { DesignDocumentSchema } = await import('#shared/design.ts');
    const demo = (await db().Design.get({ designId: 'design-demo-welcome' }).go()).data!;
    await db()
      .Design.put({
        designId: `design-${publicId}`,
        teamId: TEAM,
        publicId,
        title: 'Bound',
        version: 1,
        document: DesignDocumentSchema.parse({
          ...(demo.document as object),
          data_bindings: bindings,
        }),
      })
      .go();
  }

  const image = async (name: string, query: string) => {
    const img = await fetchImage(`${stack().url}/r/${pid(name)}.png?${query}`);
    expect(img.res.status).toBe(200);
    return img;
  };
  /** Two renders look the same (the same text drawn). */
  const same = (a: Awaited<ReturnType<typeof image>>, b: Awaited<ReturnType<typeof image>>) =>
    meanDifference(a.pixels, b.pixels, a.width, {
      left: 0,
      top: 0,
      width: a.width,
      height: a.height,
    }) < 0.5;

  it('draws a store record’s field, the fallback for a missing key, and the new value after a re-upload', async () => {
    const c = await signedIn();
    const created = await c.request(
      'POST',
      stores,
      form('sku,first name\nA-1,Ada\nB-2,Bob\n', 'people.csv', {
        name: 'People',
        key_column: 'sku',
      }),
    );
    const storeId = (created.json.store as { id: string }).id;
    // bound through the design API's save, as the editor saves
    await boundDesign('bound-store', []);
    const binding = {
      source: 'store',
      source_id: storeId,
      key_param: 'sku',
      fields: [{ field: 'First Name', param: 'first_name' }],
    };
    const saved = await c.request('PUT', `/api/pic-snippet/design-${pid('bound-store')}`, {
      version: 1,
      data_bindings: [binding],
    });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    const read = await c.request('GET', `/api/pic-snippet/design-${pid('bound-store')}`);
    expect(JSON.stringify(read.json)).toContain(storeId);
    const ada = await image('bound-store', 'sku=A-1');
    expect(same(ada, await image('bound-store', 'first_name=Ada'))).toBe(true);
    expect(ada.res.headers.get('cache-control')).not.toContain('immutable');
    const fallback = await image('bound-store', 'first_name=x');
    const missing = await image('bound-store', 'sku=ZZZ');
    expect(same(missing, await image('bound-store', ''))).toBe(true);
    expect(same(missing, fallback)).toBe(false);
    // the URL's own value shows when the key is missing
    expect(same(await image('bound-store', 'sku=ZZZ&first_name=Ada'), ada)).toBe(true);

    await c.request(
      'POST',
      `${stores}/${storeId}/upload`,
      form('sku,first name\nA-1,Zoe\n', 'people.csv'),
    );
    const zoe = await image('bound-store', 'sku=A-1');
    expect(same(zoe, ada)).toBe(false);
    expect(same(zoe, await image('bound-store', 'first_name=Zoe'))).toBe(true);
  });

  it('gives the link the same looked-up value as the image: a rule on it clicks through alike', async () => {
    const c = await signedIn();
    const created = await c.request(
      'POST',
      stores,
      form('sku,first name\nG-1,Gold\nP-2,Plain\n', 'tiers.csv', {
        name: 'Tiers',
        key_column: 'sku',
      }),
    );
    const storeId = (created.json.store as { id: string }).id;
    await boundDesign('bound-rule', []);
    const saved = await c.request('PUT', `/api/pic-snippet/design-${pid('bound-rule')}`, {
      version: 1,
      html_link_url: 'https://example.com/all',
      data_bindings: [
        {
          source: 'store',
          source_id: storeId,
          key_param: 'sku',
          fields: [{ field: 'First Name', param: 'first_name' }],
        },
      ],
      rules: [
        {
          id: 'gold',
          conditions: [{ kind: 'parameter', param_name: 'first_name', value: 'Gold' }],
          link_url: 'https://example.com/gold',
        },
      ],
    });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    const target = async (query: string) => {
      const res = await fetch(`${stack().url}/l/${pid('bound-rule')}?${query}`, {
        redirect: 'manual',
      });
      expect(res.status).toBe(302);
      return res.headers.get('location');
    };
    const rule = async (query: string) =>
      (await image('bound-rule', query)).res.headers.get('x-render-rule');
    // The value comes from the store, not the URL: image and link both see "Gold".
    expect(await rule('sku=G-1')).toBe('rule:gold');
    expect(await target('sku=G-1')).toBe('https://example.com/gold');
    expect(await rule('sku=P-2')).toBe('default');
    expect(await target('sku=P-2')).toBe('https://example.com/all');
  });

  it('draws a web API’s field, and the fallback when it fails or is too slow', async () => {
    const c = await signedIn();
    const created = await c.request('POST', apis, {
      name: 'People API',
      url: `http://127.0.0.1:${port}/products/{sku}`,
      ttl_seconds: 60,
    });
    const apiId = (created.json.api as { id: string }).id;
    const slow = await c.request('POST', apis, {
      name: 'Slow API',
      url: `http://127.0.0.1:${port}/slow`,
    });
    const slowId = (slow.json.api as { id: string }).id;
    await boundDesign('bound-api', [
      {
        source: 'api',
        source_id: apiId,
        fields: [{ field: 'items[0].name', param: 'first_name' }],
      },
    ]);
    await boundDesign('bound-slow', [
      {
        source: 'api',
        source_id: slowId,
        fields: [{ field: 'items[0].name', param: 'first_name' }],
      },
    ]);
    // the same design without bindings, for what the values should draw
    await boundDesign('unbound', []);
    expect(
      same(
        await image('bound-api', 'sku=Q7'),
        await image('unbound', `first_name=${encodeURIComponent('Product Q7')}`),
      ),
    ).toBe(true);
    const empty = await image('unbound', '');
    expect(same(await image('bound-api', 'sku=none'), empty)).toBe(true);
    const started = Date.now();
    const timedOut = await image('bound-slow', 'sku=1');
    expect(Date.now() - started).toBeLessThan(8000);
    expect(same(timedOut, empty)).toBe(true);
    // The API said it has no such product: that fallback may be kept like any render. A lookup
    // that timed out drew the fallback where a value belongs: no cache may keep it.
    expect((await image('bound-api', 'sku=none')).res.headers.get('cache-control')).not.toMatch(
      /no-store/,
    );
    expect(timedOut.res.headers.get('cache-control')).toMatch(/no-store/);
  });
  // docs/security.md "Open-time content", "Counted as the team's renders".
  it('counts each lookup as one of the team’s renders, a cache hit too, and looks nothing up past the quota', async () => {
    const { db } = await import('#lib/db/index.ts');
    const { monthOf } = await import('#functions/render/usage.ts');
    const { QUOTA_FALLBACK_CACHE } = await import('#functions/render/answer.ts');
    const { forgetRenderTeams, flushRenderUsage } = await import('#functions/render/handler.ts');
    const { renderAllowanceOf } = await import('#shared/billing.ts');
    const quota = renderAllowanceOf('pro-monthly').rendersPerMonth;
    const month = monthOf(Date.now());
    const setUsage = async (renders: number) => {
      await flushRenderUsage();
      await db().TeamRenderUsage.upsert({ usageTeam: TEAM, month, renders }).go();
      forgetRenderTeams();
    };
    const used = async () => {
      await flushRenderUsage();
      return (await db().TeamRenderUsage.get({ usageTeam: TEAM, month }).go()).data?.renders;
    };
    const c = await signedIn();
    const created = await c.request(
      'POST',
      stores,
      form('sku,first name\nA-1,Ada\nB-2,Bob\n', 'people.csv', {
        name: 'Counted',
        key_column: 'sku',
      }),
    );
    const storeId = (created.json.store as { id: string }).id;
    await boundDesign('bound-counted', [
      {
        source: 'store',
        source_id: storeId,
        key_param: 'sku',
        fields: [{ field: 'First Name', param: 'first_name' }],
      },
    ]);
    await boundDesign('counted-plain', []);
    const ada = await image('counted-plain', 'first_name=Ada');
    const bob = await image('counted-plain', 'first_name=Bob');
    // Bob's image is drawn and kept: were his key looked up past the quota, a cache would
    // answer it.
    expect(same(await image('bound-counted', 'sku=B-2'), bob)).toBe(true);
    try {
      await setUsage(quota - 2);
      // A lookup and its draw: one render. The same URL again, from the memory cache: the
      // lookup ran again, one more.
      expect(same(await image('bound-counted', 'sku=A-1'), ada)).toBe(true);
      const hit = await image('bound-counted', 'sku=A-1');
      expect(hit.res.headers.get('x-render-cache')).toBe('memory');
      expect(await used()).toBe(quota);
      // Past the quota: no lookup (so not Bob's kept image), the quota's fallback (a JPEG, as
      // every fallback), nothing counted.
      const past = await image('bound-counted', 'sku=B-2');
      expect(same(past, bob)).toBe(false);
      expect(past.res.headers.get('content-type')).toBe('image/jpeg');
      expect(past.res.headers.get('cache-control')).toBe(QUOTA_FALLBACK_CACHE);
      expect(await used()).toBe(quota);
    } finally {
      await setUsage(0);
    }
  });
});
