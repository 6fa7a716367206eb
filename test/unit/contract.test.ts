/**
 * The API contract (shared/contract; docs/adr/0044-the-api-contract.md "The API contract"): every
 * contract names a real route with exactly its path parameters; answers that break it are caught;
 * and the SPA reaches the network only through its one client.
 *
 * The round trip itself (every answer a handler gives parses with its route's answer schema) is
 * checked by the handlers on every call in the test stack (`CONTRACT_CHECK` strict), so every
 * integration and e2e test that calls a route with a contract is also a contract test. Mutation
 * check (run): with `counter` declared a string in `DesignCardSchema`, the designs integration
 * test "creates a design on a library photo …" fails with the 500 below.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Context } from 'aws-lambda';
import { conflict, notFound } from '#lib/errors.ts';
import { checkAnswer, featureHandler, json, route, type ApiEvent } from '#lib/http.ts';
import {
  CONTRACT,
  NoJsonAnswer,
  pathPlaceholders,
  type RouteContract,
} from '#shared/contract/index.ts';
import { FEATURES, ROUTES, routeKey } from '#shared/routes.ts';
import { callPath } from '../../web/src/api/client.ts';

const contracts = Object.entries(CONTRACT) as Array<[string, RouteContract]>;

describe('the contract', () => {
  it('names only routes of the route table', () => {
    const keys = new Set(ROUTES.map(routeKey));
    expect(contracts.map(([key]) => key).filter((key) => !keys.has(key))).toEqual([]);
  });

  it.each(FEATURES)('covers every route of the %s feature', (feature) => {
    const keys = ROUTES.filter((r) => r.feature === feature).map(routeKey);
    expect(keys.filter((key) => !(key in CONTRACT))).toEqual([]);
  });

  it.each(contracts)('%s takes exactly its path parameters', (key, contract) => {
    const placeholders = pathPlaceholders(key.slice(key.indexOf(' ') + 1)).sort();
    const declared =
      contract.params instanceof z.ZodObject ? Object.keys(contract.params.shape).sort() : [];
    expect(declared).toEqual(placeholders);
  });
});

describe('checkAnswer (the test stack is strict)', () => {
  const contract: RouteContract = {
    answer: z.object({ success: z.literal(true), version: z.number() }),
  };

  it('lets an answer that keeps the contract through unchanged', () => {
    const answer = json(200, { success: true, version: 3 });
    expect(checkAnswer('PUT /x', contract, answer)).toBe(answer);
  });

  it('turns an answer that breaks it into a 500 naming the route and the field', () => {
    const out = checkAnswer('PUT /x', contract, json(200, { success: true, version: '3' }));
    expect(out.statusCode).toBe(500);
    expect(JSON.parse(out.body!)).toEqual({
      message: 'The answer of PUT /x does not match its contract.',
      issues: ['version: Invalid input: expected number, received string'],
    });
  });

  it('checks error answers for a message', () => {
    expect(checkAnswer('PUT /x', contract, json(422, { message: 'No.' })).statusCode).toBe(422);
    expect(checkAnswer('PUT /x', contract, json(404, { error: 'gone' })).statusCode).toBe(500);
  });

  it("refuses an error status that is neither every route's nor declared by the route", () => {
    const out = checkAnswer('PUT /x', contract, json(409, { message: 'Changed meanwhile.' }));
    expect(out.statusCode).toBe(500);
    expect(JSON.parse(out.body!).issues).toEqual([
      "status 409: not among the route's error statuses",
    ]);
    const declared = { ...contract, errors: [409] };
    const conflictAnswer = json(409, { message: 'Changed meanwhile.' });
    expect(checkAnswer('PUT /x', declared, conflictAnswer)).toBe(conflictAnswer);
  });

  it('checks the answers of errors a handler throws as it checks those it returns', async () => {
    const context = { getRemainingTimeInMillis: () => 30_000 } as Context;
    const get = {
      version: '2.0',
      routeKey: 'GET /api/health',
      rawPath: '/api/health',
      rawQueryString: '',
      headers: { accept: 'application/json' },
      requestContext: {
        http: { method: 'GET', path: '/api/health', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1' },
        requestId: 'req-1',
      },
      isBase64Encoded: false,
    } as unknown as ApiEvent;
    const throwing = (error: Error) =>
      featureHandler('system', {
        'GET /api/health': route({
          handle: () => Promise.reject(error),
        }),
      });
    // A 404 is every route's: the chain answers it as before.
    const missing = await throwing(notFound())(get, context);
    expect(missing.statusCode).toBe(404);
    expect(JSON.parse(missing.body!)).toMatchObject({ message: 'Not found.' });
    // The health route declares no 409, so a thrown one breaks its contract.
    const taken = await throwing(conflict('Taken.'))(get, context);
    expect(taken.statusCode).toBe(500);
    expect(JSON.parse(taken.body!)).toEqual({
      message: 'The answer of GET /api/health does not match its contract.',
      issues: ["status 409: not among the route's error statuses"],
    });
  });

  it("checks a status of the route's errorAnswers with its own shape, the others for a message", () => {
    const health: RouteContract = {
      answer: z.object({ ok: z.literal(true) }),
      errorAnswers: { 503: z.object({ ok: z.literal(false), waiting: z.array(z.string()) }) },
    };
    const report = json(503, { ok: false, waiting: ['s3: timeout'] });
    expect(checkAnswer('GET /health', health, report)).toBe(report);
    // The 503 has the report's shape, not a message's, and the other statuses keep theirs.
    const out = checkAnswer('GET /health', health, json(503, { message: 'Down.' }));
    expect(out.statusCode).toBe(500);
    expect(JSON.parse(out.body!).issues).toEqual([
      'ok: Invalid input: expected false',
      'waiting: Invalid input: expected array, received undefined',
    ]);
    expect(
      checkAnswer('GET /health', health, json(429, { message: 'Slow down.' })).statusCode,
    ).toBe(429);
  });

  it('does not read answers that are not JSON (a redirect, a file, a 204)', () => {
    const redirect = { statusCode: 302, headers: { location: '/x' }, body: '' };
    const script = { statusCode: 200, headers: { 'content-type': 'text/javascript' }, body: '1' };
    const none = { statusCode: 204, headers: {}, body: '' };
    for (const answer of [redirect, script, none])
      expect(checkAnswer('GET /x', { answer: NoJsonAnswer }, answer)).toBe(answer);
    expect(checkAnswer('GET /x', { answer: NoJsonAnswer }, json(200, {})).statusCode).toBe(500);
  });
});

describe('the typed client', () => {
  it('fills path parameters encoded and leaves empty query values out', () => {
    expect(
      callPath('/api/pic-snippet/{id}/copy', { id: 'a b/c' }, { page: 2, cursor: undefined }),
    ).toBe('/api/pic-snippet/a%20b%2Fc/copy?page=2');
    expect(callPath('/getActive', undefined, { sortby: '', page: 1 })).toBe('/getActive?page=1');
    expect(() => callPath('/api/pic-snippet/{id}', {}, undefined)).toThrow('no value for {id}');
  });

  it('is the only code of the SPA that calls fetch', async () => {
    const root = new URL('../../web/src/', import.meta.url).pathname;
    const callers: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) await walk(path);
        else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
          const source = await readFile(path, 'utf8');
          if (/(?<![\w.])fetch\(/.test(source)) callers.push(path.slice(root.length));
        }
      }
    };
    await walk(root);
    expect(callers).toEqual(['api/client.ts']);
  });
});
