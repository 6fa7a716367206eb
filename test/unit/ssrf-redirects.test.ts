/**
 * Redirects and a team's secret headers (functions/lib/ssrf.ts rule 7; docs/security.md "SSRF
 * guard"): a web API's `Authorization` or key header goes to the template's origin only. Two
 * loopback servers stand for the API (port A) and another origin it redirects to (port B); the
 * guard's test policy counts only those two ports on loopback as public.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUrlGuard, isBlockedAddress, isDowngrade, type UrlGuard } from '#lib/ssrf.ts';

/** What each server saw: path and request headers. */
const seen: Array<{ server: 'api' | 'other'; path: string; headers: IncomingHttpHeaders }> = [];
let api: Server;
let other: Server;
let A = 0;
let B = 0;
let guard: UrlGuard;

const SECRET = { Authorization: 'Bearer team-secret-token', 'X-Api-Key': 'key-123' };

beforeAll(async () => {
  other = createServer((req, res) => {
    seen.push({ server: 'other', path: req.url ?? '', headers: req.headers });
    res.setHeader('content-type', 'application/json');
    res.end('{"from":"other"}');
  });
  api = createServer((req, res) => {
    seen.push({ server: 'api', path: req.url ?? '', headers: req.headers });
    const path = req.url ?? '/';
    if (path === '/elsewhere') {
      res.writeHead(302, { location: `http://127.0.0.1:${B}/stolen` });
      return res.end();
    }
    if (path === '/same-origin') {
      res.writeHead(301, { location: '/final' });
      return res.end();
    }
    res.setHeader('content-type', 'application/json');
    res.end('{"from":"api"}');
  });
  for (const server of [api, other]) {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  }
  A = (api.address() as AddressInfo).port;
  B = (other.address() as AddressInfo).port;
  guard = createUrlGuard({
    isBlocked: (ip, port) => (port === A || port === B ? false : isBlockedAddress(ip)),
    allowedPorts: [A, B],
  });
});

afterAll(async () => {
  await Promise.all([api, other].map((s) => new Promise((r) => s.close(r))));
});

describe('secret headers', () => {
  it('are sent to the first URL, Authorization included', async () => {
    seen.length = 0;
    const res = await guard.fetch(`http://127.0.0.1:${A}/customers/1`, { secretHeaders: SECRET });
    expect(res.status).toBe(200);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers).toMatchObject({
      authorization: 'Bearer team-secret-token',
      'x-api-key': 'key-123',
    });
  });

  it('follow a redirect within the same origin', async () => {
    seen.length = 0;
    const res = await guard.fetch(`http://127.0.0.1:${A}/same-origin`, { secretHeaders: SECRET });
    expect(JSON.parse(res.body.toString())).toEqual({ from: 'api' });
    expect(seen.map((s) => [s.path, s.headers['x-api-key']])).toEqual([
      ['/same-origin', 'key-123'],
      ['/final', 'key-123'],
    ]);
  });

  it('are dropped on a redirect to another origin, which is still fetched without them', async () => {
    seen.length = 0;
    const res = await guard.fetch(`http://127.0.0.1:${A}/elsewhere`, { secretHeaders: SECRET });
    expect(JSON.parse(res.body.toString())).toEqual({ from: 'other' });
    const stolen = seen.find((s) => s.server === 'other')!;
    expect(stolen.path).toBe('/stolen');
    expect(stolen.headers.authorization).toBeUndefined();
    expect(stolen.headers['x-api-key']).toBeUndefined();
  });

  it('never carry cookies or a Host of the caller’s choosing', async () => {
    seen.length = 0;
    await guard.fetch(`http://127.0.0.1:${A}/customers/2`, {
      secretHeaders: { Cookie: 'session=x', Host: 'evil.test' },
    });
    expect(seen[0]!.headers.cookie).toBeUndefined();
    expect(seen[0]!.headers.host).toBe(`127.0.0.1:${A}`);
  });

  it('plain headers still never carry Authorization', async () => {
    seen.length = 0;
    await guard.fetch(`http://127.0.0.1:${A}/customers/3`, {
      headers: { Authorization: 'Bearer x' },
    });
    expect(seen[0]!.headers.authorization).toBeUndefined();
  });
});

describe('isDowngrade', () => {
  it.each([
    ['https://api.example.com/a', 'http://api.example.com/b', true],
    ['https://api.example.com/a', 'http://other.example.com/b', true],
    ['https://api.example.com/a', 'https://other.example.com/b', false],
    ['http://api.example.com/a', 'https://api.example.com/b', false],
    ['http://api.example.com/a', 'http://other.example.com/b', false],
  ])('%s → %s: %s', (from, to, refused) => {
    expect(isDowngrade(new URL(from), new URL(to))).toBe(refused);
  });
});
