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

  it('fits in a CloudFront Function', () => {
    expect(Buffer.byteLength(RENDER_QUERY_NORMALISER_CODE)).toBeLessThan(MAX_FUNCTION_CODE_BYTES);
  });
});
