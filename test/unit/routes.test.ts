import { describe, expect, it } from 'vitest';
import {
  FEATURES,
  ROUTES,
  isApiRequest,
  matchRoute,
  routeKey,
  routesOf,
  type Feature,
} from '#shared/routes.ts';

/**
 * Every call of docs/adr/0019-design-api-shapes.md "Design API shapes" and
 * docs/adr/0044-the-api-contract.md "The API contract", transcribed as concrete requests ("{teams}"
 * is `companies`). The table must answer each with exactly one route.
 */
const SPEC_CALLS: Array<[string, string]> = [
  // docs/adr/0019-design-api-shapes.md "Design API shapes" Dashboard lists
  ['GET', '/getActive'],
  ['GET', '/getArchived'],
  ['GET', '/getHomeTemplates'],
  ['POST', '/get-template-bundle'],
  ['POST', '/get-all-template-bundle/'],
  ['GET', '/getTemplates'],
  // Design actions
  ['PUT', '/api/pic-snippet/d1/archive'],
  ['PUT', '/api/pic-snippet/d1/unarchive'],
  ['PUT', '/pic-snippet/d1/copy'],
  ['POST', '/pic-snippet/d1/createFromTemplate'],
  ['PUT', '/api/pic-snippet/d1/replace'],
  ['PUT', '/api/pic-snippet/d1/saveImageId'],
  ['GET', '/api/pic-snippet/d1'],
  ['PUT', '/api/pic-snippet/d1'],
  ['PUT', '/api/pic-snippet/d1/pso'],
  ['PUT', '/api/pic-snippet/d1/effects'],
  ['PUT', '/api/pic-snippet/d1/options'],
  ['PUT', '/pic-snippet/d1/qrCodeColor'],
  ['PUT', '/api/pic-snippet/d1/qrCode'],
  ['POST', '/api/pic-snippet/d1/gravatarMail'],
  ['POST', '/api/pic-snippet/d1/saveGeneratedDynamicSticker'],
  ['POST', '/api/pic-snippet/d1/saveScreenShotType'],
  ['POST', '/saveCroppedImage'],
  // Text snippet parameters
  ['POST', '/api/text-snippet/t1/parameter'],
  ['PUT', '/api/text-snippet/t1/parameter/p1'],
  ['DELETE', '/api/text-snippet/t1/parameter/p1'],
  ['POST', '/api/text-snippet/t1/parameter/p1/checkFormating'],
  ['POST', '/api/text-snippet/t1/parameter/p1/getParameterData'],
  ['DELETE', '/api/text-snippet/delete-parameters'],
  // Templates and bundles (admin)
  ['POST', '/admin/template/changeStatus'],
  ['DELETE', '/admin/template/delete'],
  ['POST', '/admin/template/save'],
  ['POST', '/admin/template/update'],
  ['POST', '/admin/templateBundle/getBundleTeams'],
  ['POST', '/admin/templateBundle/changeBundleStatus'],
  ['POST', '/admin/templateBundle/assignTeams'],
  ['DELETE', '/admin/templateBundle/deleteBundle'],
  ['DELETE', '/admin/templateBundle/deletePicSnippet'],
  // Images, stickers, fonts
  ['GET', '/getGlobalImages'],
  ['GET', '/getImages'],
  ['GET', '/api/search-images/cats'],
  ['DELETE', '/deleteImage'],
  ['GET', '/image/i1'],
  ['GET', '/image/i1/tags'],
  ['POST', '/image'],
  ['POST', '/getStickers'],
  ['POST', '/getFavorites'],
  ['POST', '/getUploads'],
  ['POST', '/getPacksStickers'],
  ['POST', '/addToFavorite'],
  ['POST', '/deleteUploadSticker'],
  ['GET', '/getCustomFonts'],
  ['POST', '/storeFont'],
  // docs/adr/0044-the-api-contract.md "The API contract" Registration and lookups
  ['GET', '/geocode/country'],
  ['GET', '/coupon/SAVE10'],
  ['GET', '/invitations/abc'],
  ['GET', '/spark/plans'],
  ['POST', '/if-mail-exists'],
  ['POST', '/register'],
  ['POST', '/logout'],
  ['POST', '/tax-rate'],
  ['GET', '/coupon/user/u1'],
  ['GET', '/settings/companies/coupon/t1'],
  ['GET', '/stripe/token'],
  // Profile, teams, members
  ['POST', '/settings/photo'],
  ['PUT', '/settings/contact'],
  ['POST', '/settings/companies'],
  ['GET', '/settings/invitations/pending'],
  ['POST', '/settings/invitations/i1/accept'],
  ['POST', '/settings/invitations/i1/reject'],
  ['DELETE', '/settings/invitations/i1'],
  ['DELETE', '/settings/companies/t1/members/u1'],
  ['PUT', '/settings/companies/t1/members/u1'],
  ['DELETE', '/settings/companies/t1'],
  ['GET', '/settings/companies/json/t1'],
  ['POST', '/settings/companies/t1/photo'],
  ['PUT', '/settings/companies/t1/name'],
  ['GET', '/settings/companies/t1/invitations'],
  ['POST', '/settings/companies/t1/invitations'],
  ['GET', '/settings/companies/roles'],
  ['GET', '/user/current'],
  ['GET', '/settings/companies'],
  ['GET', '/settings/companies/current'],
  // Security and tokens
  ['PUT', '/settings/password'],
  ['POST', '/settings/two-factor-auth'],
  ['DELETE', '/settings/two-factor-auth'],
  ['GET', '/settings/api/tokens'],
  ['GET', '/settings/api/token/abilities'],
  ['POST', '/settings/api/token'],
  ['PUT', '/settings/api/token/k1'],
  ['DELETE', '/settings/api/token/k1'],
  ['PUT', '/spark/token'],
  // Subscription and payment
  ['POST', '/settings/subscription'],
  ['PUT', '/settings/subscription'],
  ['DELETE', '/settings/subscription'],
  ['POST', '/settings/companies/t1/subscription'],
  ['PUT', '/settings/companies/t1/subscription'],
  ['DELETE', '/settings/companies/t1/subscription'],
  ['PUT', '/settings/companies/t1/metaData'],
  ['PUT', '/settings/payment-method'],
  ['PUT', '/settings/companies/t1/payment-method'],
  ['PUT', '/settings/payment-method/vat-id'],
  ['PUT', '/settings/companies/t1/payment-method/vat-id'],
  ['POST', '/settings/payment-method/coupon'],
  ['POST', '/settings/companies/t1/payment-method/coupon'],
  ['PUT', '/settings/companies/t1/update-payment-method'],
  ['GET', '/settings/invoices'],
  ['GET', '/settings/companies/t1/invoices'],
  ['GET', '/settings/invoice/in1'],
  ['PUT', '/settings/extra-billing-information'],
  // Export and merge tags
  ['GET', '/api/merge-tag/providers'],
  ['GET', '/api/merge-tag/storeFront'],
  ['POST', '/api/merge-tag'],
  ['PUT', '/api/pic-snippet/d1/provider'],
  ['PUT', '/api/pic-snippet/d1/choices'],
  ['PUT', '/api/pic-snippet/d1/link'],
  ['GET', '/js/picsnippets.js'],
  ['GET', '/r/demo-welcome'],
  ['GET', '/r/demo-welcome/v3/pdf'],
  // Notifications and support
  ['GET', '/notifications/recent'],
  ['PUT', '/notifications/read'],
  ['PUT', '/user/last-read-announcements-at'],
  ['POST', '/support/email'],
  // Kiosk
  ['GET', '/spark/kiosk/announcements'],
  ['POST', '/spark/kiosk/announcements'],
  ['PUT', '/spark/kiosk/announcements/a1'],
  ['DELETE', '/spark/kiosk/announcements/a1'],
  ['GET', '/spark/kiosk/performance-indicators'],
  ['GET', '/spark/kiosk/performance-indicators/revenue'],
  ['GET', '/spark/kiosk/performance-indicators/plans'],
  ['GET', '/spark/kiosk/performance-indicators/trialing'],
  ['POST', '/spark/kiosk/users/search'],
  ['GET', '/spark/kiosk/users/u1/profile'],
  ['POST', '/spark/kiosk/users/impersonate/u1'],
  ['POST', '/spark/kiosk/users/discount/u1'],
  ['POST', '/teams/search'],
  ['GET', '/custom/teams/t1'],
  ['POST', '/custom/teams/t1/additional_permissions'],
  ['GET', '/spark/cancelReasons'],
  ['POST', '/packs/search'],
  ['GET', '/packs/getPacks'],
  ['POST', '/packs/download'],
  ['PATCH', '/packs/restorePack'],
  ['DELETE', '/packs/removePack'],
];

describe('route table', () => {
  it.each(SPEC_CALLS)('answers the spec call %s %s with a route', (method, path) => {
    const match = matchRoute(method, path);
    expect(match, `${method} ${path}`).toBeDefined();
    expect(match && 'route' in match).toBe(true);
  });

  it('has each method and path once', () => {
    const keys = ROUTES.map(routeKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('gives every route a known feature, an access level and a source', () => {
    for (const route of ROUTES) {
      expect(FEATURES).toContain(route.feature);
      expect(['public', 'user', 'owner', 'manager', 'admin', 'stripe']).toContain(route.access);
      expect(route.source.length).toBeGreaterThan(5);
    }
  });

  it('keeps the render and webhook routes public to their callers', () => {
    expect(matchRoute('GET', '/r/x.jpg')).toMatchObject({
      route: { feature: 'render', access: 'public' },
    });
    expect(matchRoute('POST', '/stripe/webhook')).toMatchObject({
      route: { feature: 'stripe-webhook', access: 'stripe', rawBody: true },
    });
  });

  // mutation check: without the `sessionOnly` marks (before this), this test failed; the
  // integration test test/integration/api-tokens.test.ts shows tokens refused on them.
  it('keeps API tokens off the account, team deletion, the tokens and the kiosk', () => {
    const sessionOnly = ROUTES.filter((r) => r.sessionOnly).map(routeKey);
    for (const key of [
      'PUT /settings/contact',
      'PUT /settings/password',
      'POST /settings/two-factor-auth',
      'DELETE /settings/two-factor-auth',
      'DELETE /settings/companies/{id}',
      'GET /settings/api/tokens',
      'POST /settings/api/token',
      'PUT /settings/api/token/{id}',
      'DELETE /settings/api/token/{id}',
      'PUT /spark/token',
    ])
      expect(sessionOnly).toContain(key);
    const kiosk = routesOf('kiosk');
    expect(kiosk.length).toBeGreaterThan(20);
    for (const route of kiosk) expect(route.sessionOnly, routeKey(route)).toBe(true);
    // Everyday work stays open to tokens.
    const design = matchRoute('PUT', '/api/pic-snippet/d1');
    expect(design && 'route' in design ? design.route.sessionOnly : 'no route').toBeUndefined();
  });

  it('prefers literal segments over parameters, as API Gateway does', () => {
    expect(matchRoute('GET', '/settings/companies/current')).toMatchObject({
      route: { path: '/settings/companies/current' },
    });
    expect(matchRoute('POST', '/admin/template/changeStatus')).toMatchObject({
      route: { path: '/admin/template/changeStatus' },
    });
    expect(matchRoute('POST', '/admin/template/save')).toMatchObject({
      route: { path: '/admin/template/{action}' },
      params: { action: 'save' },
    });
  });

  it('reports the allowed methods for a known path with another method', () => {
    expect(matchRoute('PATCH', '/register')).toEqual({ methodNotAllowed: ['POST'] });
  });

  it('decodes path parameters and never throws on a bad escape', () => {
    expect(matchRoute('GET', '/api/search-images/red%20cats')).toMatchObject({
      params: { query: 'red cats' },
    });
    expect(matchRoute('GET', '/api/search-images/100%')).toMatchObject({
      params: { query: '100%' },
    });
  });
});

describe('every route has exactly one handler', () => {
  const features = FEATURES.filter((f) => f !== 'render');
  it.each(features)(
    'the %s handler serves exactly its routes of the table',
    async (feature: Feature) => {
      const mod = (await import(`../../functions/${feature}/handler.ts`)) as {
        handler: { feature: Feature; routeKeys: string[]; implemented: string[] };
      };
      expect(mod.handler.feature).toBe(feature);
      expect([...mod.handler.routeKeys].sort()).toEqual(routesOf(feature).map(routeKey).sort());
      for (const key of mod.handler.implemented) expect(mod.handler.routeKeys).toContain(key);
    },
  );

  it('no route belongs to two features', () => {
    const owners = new Map<string, Feature>();
    for (const r of ROUTES) {
      expect(owners.has(routeKey(r))).toBe(false);
      owners.set(routeKey(r), r.feature);
    }
  });
});

describe('API or SPA on one origin', () => {
  const nav = 'text/html,application/xhtml+xml,*/*;q=0.8';
  it.each([
    [
      'navigation to a team settings page is the SPA',
      { method: 'GET', path: '/settings/companies/abc', accept: nav },
      false,
    ],
    [
      'an XHR to the current team is the API',
      {
        method: 'GET',
        path: '/settings/companies/current',
        accept: 'application/json',
        xRequestedWith: 'XMLHttpRequest',
      },
      true,
    ],
    [
      'a navigation to the same call is still the SPA',
      { method: 'GET', path: '/settings/companies/current', accept: nav },
      false,
    ],
    [
      'a fetch without text/html is the API',
      { method: 'GET', path: '/getActive', accept: '*/*' },
      true,
    ],
    ['POST /register is the API', { method: 'POST', path: '/register', accept: nav }, true],
    ['GET /register is the SPA page', { method: 'GET', path: '/register', accept: nav }, false],
    ['a GET /logout navigation is the SPA', { method: 'GET', path: '/logout', accept: nav }, false],
    [
      'a GET /logout call is the API (405: only POST)',
      {
        method: 'GET',
        path: '/logout',
        accept: 'application/json',
        xRequestedWith: 'XMLHttpRequest',
      },
      true,
    ],
    ['/api/* is always the API', { method: 'GET', path: '/api/health', accept: nav }, true],
    [
      '/r/* is always the render',
      { method: 'GET', path: '/r/demo-welcome.jpg', accept: nav },
      true,
    ],
    ['assets are the SPA', { method: 'GET', path: '/assets/index.js', accept: '*/*' }, false],
    [
      'a bearer token makes a GET an API call',
      { method: 'GET', path: '/user/current', accept: nav, authorization: 'Bearer x' },
      true,
    ],
    [
      'DELETE on a team is the API',
      { method: 'DELETE', path: '/settings/companies/x', accept: '*/*' },
      true,
    ],
  ])('%s', (_name, req, api) => {
    expect(isApiRequest(req)).toBe(api);
  });
});
