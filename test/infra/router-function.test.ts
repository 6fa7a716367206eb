/**
 * The CloudFront Functions, run as CloudFront would run them: the generated source is evaluated
 * with a stub `cf` module and real-shaped viewer-request events. The router must decide exactly
 * as `isApiRequest` (shared/routes.ts), which the local gateway uses.
 */
import { describe, expect, it } from 'vitest';
import { ROUTES, isApiRequest, type Method } from '#shared/routes.ts';
import {
  API_ORIGIN_ID,
  MAX_FUNCTION_CODE_BYTES,
  routerFunctionCode,
  routerTable,
} from '#infra/constructs/router-function.ts';
import { RENDER_QUERY_NORMALISER_CODE } from '#infra/constructs/render.ts';
import { checkSignature, signRenderPath } from '#functions/render/signature.ts';
import { parseRenderQuery } from '#shared/render-url.ts';

interface CfEvent {
  request: {
    method: string;
    uri: string;
    headers: Record<string, { value: string }>;
    querystring: Record<string, { value: string; multiValue?: Array<{ value: string }> }> | string;
  };
}
type Handler = (event: CfEvent) => CfEvent['request'];

/** Evaluates cloudfront-js-2.0 source: drops `import cf from 'cloudfront'`, injects `cf`. */
function load(code: string, cf: object = {}): Handler {
  const body = code.replace(/^import cf from 'cloudfront';$/m, '');
  return new Function('cf', `${body}\nreturn handler;`)(cf) as Handler;
}

interface Req {
  method: string;
  path: string;
  accept?: string;
  xRequestedWith?: string;
  authorization?: string;
}

/** Origins the router selected during the current `route` call. */
const selected: string[] = [];
const router = load(routerFunctionCode(ROUTES), {
  selectRequestOriginById: (id: string) => selected.push(id),
});

/** Runs the router for one request: where it goes and the URI S3 would get. */
function route(req: Req): { api: boolean; uri: string } {
  selected.length = 0;
  const headers: Record<string, { value: string }> = {};
  if (req.accept !== undefined) headers.accept = { value: req.accept };
  if (req.xRequestedWith !== undefined) headers['x-requested-with'] = { value: req.xRequestedWith };
  if (req.authorization !== undefined) headers.authorization = { value: req.authorization };
  const out = router({
    request: { method: req.method, uri: req.path, headers, querystring: {} },
  });
  expect(selected.every((id) => id === API_ORIGIN_ID)).toBe(true);
  return { api: selected.length === 1, uri: out.uri };
}

const NAVIGATION = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('router function (default behaviour: API or SPA)', () => {
  it.each([
    [
      'navigation to a team page',
      { method: 'GET', path: '/settings/companies/abc', accept: NAVIGATION },
      false,
      '/index.html',
    ],
    [
      'XHR GET of the current team',
      {
        method: 'GET',
        path: '/settings/companies/current',
        accept: 'application/json',
        xRequestedWith: 'XMLHttpRequest',
      },
      true,
      '/settings/companies/current',
    ],
    [
      'navigation to the current-team URL',
      { method: 'GET', path: '/settings/companies/current', accept: NAVIGATION },
      false,
      '/index.html',
    ],
    [
      'POST /register',
      { method: 'POST', path: '/register', accept: 'application/json' },
      true,
      '/register',
    ],
    [
      'navigation to /register',
      { method: 'GET', path: '/register', accept: NAVIGATION },
      false,
      '/index.html',
    ],
    [
      'navigation to /logout (a POST-only call) is the SPA',
      { method: 'GET', path: '/logout', accept: NAVIGATION },
      false,
      '/index.html',
    ],
    [
      'a built asset',
      { method: 'GET', path: '/assets/x.js', accept: '*/*' },
      false,
      '/assets/x.js',
    ],
    [
      'DELETE a team',
      { method: 'DELETE', path: '/settings/companies/x' },
      true,
      '/settings/companies/x',
    ],
    [
      'navigation to an /api/ GET',
      { method: 'GET', path: '/api/pic-snippet/abc', accept: NAVIGATION },
      true,
      '/api/pic-snippet/abc',
    ],
    [
      'GET with a bearer token',
      { method: 'GET', path: '/getActive', accept: NAVIGATION, authorization: 'Bearer t' },
      true,
      '/getActive',
    ],
    ['fetch without Accept', { method: 'GET', path: '/getActive' }, true, '/getActive'],
    ['the root', { method: 'GET', path: '/', accept: NAVIGATION }, false, '/index.html'],
    [
      'a missing file with an extension',
      { method: 'GET', path: '/favicon.ico', accept: '*/*' },
      false,
      '/favicon.ico',
    ],
    [
      'an SPA page no route has',
      { method: 'GET', path: '/editor/abc', accept: NAVIGATION },
      false,
      '/index.html',
    ],
    [
      'a prototype name as first segment',
      { method: 'POST', path: '/constructor' },
      false,
      '/constructor',
    ],
  ] as Array<[string, Req, boolean, string]>)('%s', (_name, req, api, uri) => {
    expect(isApiRequest(req)).toBe(api);
    expect(route(req)).toEqual({ api, uri });
  });

  it('agrees with isApiRequest on every route, method and kind of request', () => {
    const methods: string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
    const kinds: Array<Omit<Req, 'method' | 'path'>> = [
      { accept: NAVIGATION },
      { accept: 'application/json' },
      { accept: NAVIGATION, xRequestedWith: 'XMLHttpRequest' },
      { accept: NAVIGATION, authorization: 'Bearer token' },
      {},
    ];
    const paths = ROUTES.filter((r) => r.feature !== 'render').flatMap((r) => [
      r.path.replace(/\{\w+\+\}/g, 'a/b').replace(/\{\w+\}/g, 'abc'),
      r.path.replace(/\{\w+\+\}/g, 'x').replace(/\{\w+\}/g, 'current') + '/',
    ]);
    let checked = 0;
    for (const path of new Set(paths)) {
      for (const method of methods) {
        for (const kind of kinds) {
          const req = { method, path, ...kind };
          expect({ req, api: route(req).api }).toEqual({ req, api: isApiRequest(req) });
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('picks the most specific GET route as matchRoute does (ties keep table order)', () => {
    // Both /spark/kiosk/users/impersonate/{id} (POST only) and /spark/kiosk/users/{id}/profile
    // match this path with equal specificity.
    const req = {
      method: 'GET',
      path: '/spark/kiosk/users/impersonate/profile',
      accept: NAVIGATION,
    };
    expect(route(req).api).toBe(isApiRequest(req));
  });

  it('leaves the render routes to their own behaviour', () => {
    expect(Object.keys(routerTable(ROUTES))).not.toContain('r');
  });

  it('fits in a CloudFront Function (10 KB)', () => {
    const bytes = Buffer.byteLength(routerFunctionCode(ROUTES), 'utf8');
    expect(bytes).toBeLessThan(MAX_FUNCTION_CODE_BYTES);
  });

  it('refuses a route whose first segment is a parameter', () => {
    const bad = {
      method: 'GET' as Method,
      path: '/{id}/x',
      feature: 'designs' as const,
      access: 'user' as const,
      source: 'test',
    };
    expect(() => routerTable([bad])).toThrow(/first path segment must be literal/);
  });
});

describe('render query normaliser (/r/*)', () => {
  const normalise = (querystring: Exclude<CfEvent['request']['querystring'], string>): unknown =>
    load(RENDER_QUERY_NORMALISER_CODE)({
      request: { method: 'GET', uri: '/r/k3f9a2', headers: {}, querystring },
    }).querystring;

  it('sorts parameters by name and drops empty names', () => {
    expect(
      normalise({
        last_name: { value: 'Silva' },
        '': { value: 'ignored' },
        first_name: { value: 'Ana' },
      }),
    ).toBe('first_name=Ana&last_name=Silva');
  });

  it('gives the same key whatever the order', () => {
    const a = normalise({ b: { value: '2' }, a: { value: '1' } });
    const b = normalise({ a: { value: '1' }, b: { value: '2' } });
    expect(a).toBe(b);
  });

  it('keeps repeated values in their order and empty values', () => {
    expect(
      normalise({
        z: { value: '' },
        c: { value: '3', multiValue: [{ value: '3' }, { value: '4' }] },
      }),
    ).toBe('c=3&c=4&z=');
  });

  it('keeps a segment without a value right after the one before it, in URL order', () => {
    expect(
      normalise({
        last_name: { value: 'Silva' },
        first_name: { value: 'Tom%20' },
        '%20Jerry': { value: '' },
        city: { value: '' },
      }),
    ).toBe('first_name=Tom%20&%20Jerry&city&last_name=Silva');
  });

  it('fits in a CloudFront Function', () => {
    expect(Buffer.byteLength(RENDER_QUERY_NORMALISER_CODE)).toBeLessThan(MAX_FUNCTION_CODE_BYTES);
  });
});

describe('signed render URLs through the CDN, values the e-mail platform did not encode', () => {
  const SECRET = 'pss_test-secret-one';
  const NOW = Date.parse('2026-11-24T12:00:00Z');
  const known = new Set(['first_name', 'last_name', 'city']);
  const names = signRenderPath(SECRET, 'names', '/r/abc', [
    { name: 'first_name', value: '*|FNAME|*' },
    { name: 'last_name', value: '*|LNAME|*' },
    { name: 'city', value: '*|CITY|*' },
  ]);

  /**
   * What the render reads when a mail client fetches `url`: the browser's URL parser (spaces
   * encoded, nothing after `#` sent), CloudFront's query object (URL order, a repeated name's
   * values together, a segment without `=` an empty value) and the normaliser.
   */
  function throughCdn(url: string): string {
    const search = new URL(url, 'https://cdn.example').search.slice(1);
    const querystring: Record<string, { value: string; multiValue?: Array<{ value: string }> }> =
      {};
    for (const segment of search.split('&')) {
      const eq = segment.indexOf('=');
      const name = eq < 0 ? segment : segment.slice(0, eq);
      const value = eq < 0 ? '' : segment.slice(eq + 1);
      const entry = querystring[name];
      if (!entry) querystring[name] = { value };
      else entry.multiValue = [...(entry.multiValue ?? [{ value: entry.value }]), { value }];
    }
    const request = { method: 'GET', uri: '/r/abc', headers: {}, querystring };
    return load(RENDER_QUERY_NORMALISER_CODE)({ request }).querystring as string;
  }
  const send = (fname: string, lname: string, city: string) =>
    throughCdn(
      names.replace('*|FNAME|*', fname).replace('*|LNAME|*', lname).replace('*|CITY|*', city),
    );
  const verify = (query: string) => checkSignature('/r/abc', query, [SECRET], NOW, known);

  it('verifies and draws a value with a bare & in it, with or without spaces', () => {
    for (const [value, drawn] of [
      ['Tom & Jerry', 'Tom & Jerry'],
      ['AT&T', 'AT&T'],
      ['rock&roll&more', 'rock&roll&more'],
    ]) {
      const query = send('Ana', value!, 'Paris');
      expect(verify(query), value).toEqual({ ok: true });
      expect(parseRenderQuery(query, known)).toMatchObject({
        first_name: 'Ana',
        last_name: drawn,
        city: 'Paris',
      });
    }
  });

  it('reads an empty value as that parameter, empty, not as part of the value before it', () => {
    const query = send('Ana', '', 'Paris');
    expect(query).toContain('first_name=Ana&last_name');
    expect(verify(query)).toEqual({ ok: true });
    expect(parseRenderQuery(query, known)).toMatchObject({ first_name: 'Ana', last_name: '' });
  });

  it('verifies a URL a # cut short: the signature comes first, the lost names draw their fallback', () => {
    const query = send('A#1', 'Silva', 'Paris');
    expect(verify(query)).toEqual({ ok: true });
    expect(parseRenderQuery(query, known)).toEqual({
      __sf: 'names',
      __sig: expect.any(String),
      first_name: 'A',
    });
  });

  it('still refuses an added, renamed or duplicated parameter, and changed signed values', () => {
    const invalid = { ok: false, reason: 'signature-invalid' };
    const query = send('Ana', 'Silva', 'Paris');
    expect(verify(query)).toEqual({ ok: true });
    expect(verify(`${query}&country=PT`)).toEqual(invalid);
    expect(verify(query.replace('city=', 'town='))).toEqual(invalid);
    expect(verify(`${query}&first_name=Eve`)).toEqual(invalid);
    // A name the URL was not signed for, even one the design declares.
    const short = signRenderPath(SECRET, 'names', '/r/abc', [{ name: 'first_name', value: 'x' }]);
    expect(verify(throughCdn(`${short}&city`))).toEqual(invalid);

    const values = signRenderPath(SECRET, 'values', '/r/abc', [
      { name: 'first_name', value: 'Tom & Jerry' },
      { name: 'city', value: 'A#1' },
    ]);
    expect(verify(throughCdn(values))).toEqual({ ok: true });
    expect(parseRenderQuery(throughCdn(values), known)).toMatchObject({
      first_name: 'Tom & Jerry',
      city: 'A#1',
    });
    // The same value written without encoding is the same value.
    expect(verify(throughCdn(values.replace('Tom%20%26%20Jerry', 'Tom & Jerry')))).toEqual({
      ok: true,
    });
    for (const changed of [
      values.replace('Tom%20%26%20Jerry', 'Tom%20'),
      values.replace('Tom%20%26%20Jerry', 'Tom%20&%20Larry'),
      values.replace('A%231', 'A#1'),
      `${values}&last_name`,
      values.replace(/&city=[^&]*/, ''),
    ])
      expect(verify(throughCdn(changed)), changed).toEqual(invalid);
  });
});
