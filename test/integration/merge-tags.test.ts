/**
 * The merge-tag calls through the local stack (docs/adr/0022-export-and-merge-tags.md "Export and
 * merge tags"; docs/export.md items 2, 5, 6): the provider and storefront lists, `POST
 * /api/merge-tag` offline and with live adapters against a fake platform server started here, the
 * SSRF rules on a platform base URL, and `/js/picsnippets.js`.
 *
 * No internet: the fake platform listens on a loopback port that the test config marks public
 * (SSRF_TEST_PUBLIC_PORTS, honoured only with STAGE=test); the "victim" listens on another
 * loopback port and must see nothing.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/config.ts';
import { providerList } from '#shared/providers/index.ts';
import { WEB_TRACKING_SCRIPT, WEB_TRACKING_SCRIPT_VERSION } from '#shared/web-tracking-script.ts';
import { TestClient } from '../support/client.ts';
import { useLocalStack } from '../support/stack.ts';

const seen: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
const victimSeen: string[] = [];
let platform: Server;
let victim: Server;
let platformPort = 0;
let victimPort = 0;

const KLAVIYO_KEY = 'pk_test_0123456789';
/** The key the fake Klaviyo accepts (a test revokes it). */
let acceptedKlaviyoKey = KLAVIYO_KEY;

/** What the fake platforms answer, by path; `authorization` must carry the right credential. */
function answer(path: string, headers: IncomingHttpHeaders): [number, unknown] {
  if (path.startsWith('/klaviyo/api/profiles/')) {
    if (headers.authorization !== `Klaviyo-API-Key ${acceptedKlaviyoKey}`)
      return [401, { errors: [] }];
    return [
      200,
      {
        data: [
          {
            type: 'profile',
            id: '01',
            attributes: { properties: { 'Favorite Color': 'green', Address: { city: 'Lisboa' } } },
          },
          {
            type: 'profile',
            id: '02',
            attributes: {
              properties: { 'Favorite Color': 'red', "Kid's name": 'Zoë', Plan: 'pro' },
            },
          },
          { type: 'profile', id: '03', attributes: { properties: null } },
        ],
      },
    ];
  }
  if (path === '/manychat/fb/page/getCustomFields') {
    if (headers.authorization !== 'Bearer page-key') return [401, { status: 'error' }];
    return [200, { status: 'success', data: [{ id: 8423, name: 'Shoe size', type: 'number' }] }];
  }
  if (path === '/keap/crm/rest/v1/contacts/model') {
    if (headers.authorization !== 'Bearer keap-token') return [401, {}];
    return [200, { custom_fields: [{ id: 12, label: 'Favourite Colour', field_type: 'Text' }] }];
  }
  return [404, {}];
}

const listen = (server: Server) =>
  new Promise<number>((ok) =>
    server.listen(0, '127.0.0.1', () => ok((server.address() as AddressInfo).port)),
  );

/** Sets merge-tag settings and lets the handlers read them on the next request. */
function settings(mode: 'online' | 'offline', urls: Record<string, string>) {
  process.env.MERGE_TAGS_MODE = mode;
  process.env.MERGE_TAG_API_URLS = Object.entries(urls)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  resetConfig();
}

const fakeUrls = () => ({
  klaviyo: `http://127.0.0.1:${platformPort}/klaviyo`,
  manychat: `http://127.0.0.1:${platformPort}/manychat`,
  infusionsoft: `http://127.0.0.1:${platformPort}/keap`,
});

beforeAll(async () => {
  platform = createServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    if (req.url === '/redirect/fb/page/getCustomFields') {
      res.writeHead(302, { location: `http://127.0.0.1:${victimPort}/steal` }).end();
      return;
    }
    const [status, body] = answer(req.url ?? '', req.headers);
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  victim = createServer((req, res) => {
    victimSeen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
  });
  [platformPort, victimPort] = await Promise.all([listen(platform), listen(victim)]);
  process.env.SSRF_TEST_PUBLIC_PORTS = String(platformPort);
  settings('online', fakeUrls());
});

afterAll(async () => {
  delete process.env.MERGE_TAGS_MODE;
  delete process.env.MERGE_TAG_API_URLS;
  delete process.env.SSRF_TEST_PUBLIC_PORTS;
  resetConfig();
  await Promise.all([platform, victim].map((s) => new Promise((ok) => s.close(ok))));
});

const stack = useLocalStack();

async function demo(): Promise<TestClient> {
  const client = new TestClient(stack().url);
  expect((await client.login('demo@example.com')).status).toBe(200);
  return client;
}

/** `POST /api/merge-tag` as the demo user. */
const mergeTags = async (body: Record<string, unknown>) =>
  (await demo()).request('POST', '/api/merge-tag', body);

describe('GET /api/merge-tag/providers and /storeFront', () => {
  it('lists the providers with value, label and url, to signed-in users only', async () => {
    const client = await demo();
    const res = await client.request('GET', '/api/merge-tag/providers');
    expect(res.status).toBe(200);
    const list = res.json as unknown as Array<{ value: string; label: string; url: string }>;
    // The module's list (its order and values are checked in test/unit/providers.test.ts).
    expect(list).toEqual(providerList());
    expect(list).toHaveLength(10);
    expect(list.find((p) => p.value === 'klaviyo')).toEqual({
      value: 'klaviyo',
      label: 'Klaviyo',
      url: 'https://www.klaviyo.com',
    });
    const anonymous = await new TestClient(stack().url).request('GET', '/api/merge-tag/providers');
    expect(anonymous.status).toBe(401);
  });

  it('lists the storefronts', async () => {
    const res = await (await demo()).request('GET', '/api/merge-tag/storeFront');
    expect(res.status).toBe(200);
    expect(res.json).toContainEqual({ value: 'shopify', label: 'Shopify' });
  });
});

describe('POST /api/merge-tag without credentials or offline: the built-in catalogue', () => {
  it('answers Klaviyo’s standard fields, free text, and that live fields need a connection', async () => {
    const res = await mergeTags({
      provider: 'klaviyo',
      storeFront: 'shopify',
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      live: false,
      connection_needed: true,
      free_text: true,
      message: 'Live fields need a connection to Klaviyo.',
    });
    expect(res.json.merge_tags).toContainEqual({
      merge_tag_name: 'First name',
      merge_tag_value: "{{ first_name|default:'' }}",
    });
    expect(res.json.merge_tags).toContainEqual({
      merge_tag_name: 'Shopify tags',
      merge_tag_value: "{{ person|lookup:'Shopify Tags'|default:'' }}",
    });
  });

  it('needs no connection for Shopify, whose fields are fixed', async () => {
    const res = await mergeTags({ provider: 'shopify_order' });
    expect(res.json).toMatchObject({ live: false, connection_needed: false });
    expect(res.json).not.toHaveProperty('message');
    expect(res.json.merge_tags).toContainEqual({
      merge_tag_name: 'First name',
      merge_tag_value: '{{ customer.first_name }}',
    });
  });

  it('never calls the platform in offline mode, even with a key', async () => {
    settings('offline', fakeUrls());
    const before = seen.length;
    try {
      const res = await mergeTags({
        provider: 'klaviyo',
        access_token: KLAVIYO_KEY,
      });
      expect(res.json).toMatchObject({
        live: false,
        connection_needed: true,
        message: 'Live fields need a connection to Klaviyo; this installation works offline.',
      });
      expect(seen.length).toBe(before);
    } finally {
      settings('online', fakeUrls());
    }
  });

  it('refuses an unknown provider or storefront with the field named', async () => {
    const client = await demo();
    const bad = await client.request('POST', '/api/merge-tag', { provider: 'mailchimp' });
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toEqual({ provider: ['The selected provider is invalid.'] });
    const store = await client.request('POST', '/api/merge-tag', {
      provider: 'klaviyo',
      storeFront: 'etsy',
    });
    expect(store.status).toBe(422);
    expect(store.json.errors).toEqual({ storeFront: ['The selected store front is invalid.'] });
  });
});

describe('POST /api/merge-tag with credentials: live adapters against the fake platform', () => {
  it('Klaviyo: the private key in its header, properties as lookups, objects flattened', async () => {
    const res = await mergeTags({
      provider: 'klaviyo',
      access_token: KLAVIYO_KEY,
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ live: true, connection_needed: false });
    const tags = res.json.merge_tags as Array<{ merge_tag_name: string; merge_tag_value: string }>;
    expect(tags.slice(4)).toEqual([
      {
        merge_tag_name: 'Favorite Color',
        merge_tag_value: "{{ person|lookup:'Favorite Color'|default:'' }}",
      },
      {
        merge_tag_name: 'Address.city',
        merge_tag_value: "{{ person|lookup:'Address'|lookup:'city'|default:'' }}",
      },
      { merge_tag_name: 'Plan', merge_tag_value: "{{ person|lookup:'Plan'|default:'' }}" },
    ]);
    const call = seen.findLast((s) => s.path.startsWith('/klaviyo/'))!;
    expect(call.headers.revision).toBe('2024-10-15');
    expect(call.path).toBe(
      '/klaviyo/api/profiles/?fields%5Bprofile%5D=properties&page%5Bsize%5D=100',
    );
  });

  it('Klaviyo: a refused key is a 422 on access_token', async () => {
    const res = await mergeTags({
      provider: 'klaviyo',
      access_token: 'pk_wrong',
    });
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual({
      access_token: ['Klaviyo did not accept these credentials.'],
    });
  });

  it.each([
    [
      'ManyChat: custom user fields as {{cuf_<id>}}',
      'manychat',
      'page-key',
      'Shoe size',
      '{{cuf_8423}}',
    ],
    [
      'Keap: the contact model’s custom fields as ~Contact._Name~',
      'infusionsoft',
      'keap-token',
      'Favourite Colour',
      '~Contact._FavouriteColour~',
    ],
  ])('%s', async (_title, provider, token, name, value) => {
    const res = await mergeTags({ provider, access_token: token });
    expect(res.json.live).toBe(true);
    expect(res.json.merge_tags).toContainEqual({ merge_tag_name: name, merge_tag_value: value });
  });
});

describe('saved credentials (encrypted per team)', () => {
  it('keeps an accepted key for the team, sealed, and uses it when none is sent', async () => {
    const first = await mergeTags({ provider: 'klaviyo', access_token: KLAVIYO_KEY });
    expect(first.json).toMatchObject({ live: true, credentials_saved: true });
    const { db } = await import('#lib/db/index.ts');
    const item = (
      await db().ProviderCredential.get({ teamId: 'team-demo', provider: 'klaviyo' }).go()
    ).data!;
    expect(item.sealed).not.toContain(KLAVIYO_KEY);
    expect(JSON.parse(item.sealed)).toMatchObject({ v: 1, keyId: 'local' });

    const before = seen.length;
    const again = await mergeTags({ provider: 'klaviyo' });
    expect(again.json).toMatchObject({ live: true, credentials_saved: true });
    expect(seen.slice(before).map((s) => s.headers.authorization)).toEqual([
      `Klaviyo-API-Key ${KLAVIYO_KEY}`,
    ]);
  });

  it('does not lend a team’s key to another team', async () => {
    const admin = new TestClient(stack().url);
    expect((await admin.login('admin@example.com')).status).toBe(200);
    const res = await admin.request('POST', '/api/merge-tag', { provider: 'klaviyo' });
    expect(res.json).toMatchObject({
      live: false,
      connection_needed: true,
      credentials_saved: false,
    });
  });

  it('forgets a saved key the platform no longer accepts', async () => {
    acceptedKlaviyoKey = 'pk_rotated';
    try {
      const refused = await mergeTags({ provider: 'klaviyo' });
      expect(refused.status).toBe(422);
      expect(refused.json.errors).toEqual({
        access_token: ['Klaviyo no longer accepts the saved credentials; enter them again.'],
      });
      const after = await mergeTags({ provider: 'klaviyo' });
      expect(after.json).toMatchObject({
        live: false,
        credentials_saved: false,
        message: 'Live fields need a connection to Klaviyo.',
      });
    } finally {
      acceptedKlaviyoKey = KLAVIYO_KEY;
    }
  });
});

describe('SSRF rules on a platform base URL', () => {
  it('refuses an override aimed at another loopback port or the metadata address', async () => {
    const client = await demo();
    for (const target of [
      `http://127.0.0.1:${victimPort}`,
      'http://169.254.169.254',
      `http://localhost:${victimPort}`,
    ]) {
      settings('online', { ...fakeUrls(), manychat: target });
      const res = await client.request('POST', '/api/merge-tag', {
        provider: 'manychat',
        access_token: 'page-key',
      });
      expect(res.status, target).toBe(200);
      expect(res.json, target).toMatchObject({
        live: false,
        connection_needed: true,
        message: 'ManyChat could not be reached; its live fields are not listed.',
      });
    }
    settings('online', fakeUrls());
  });

  it('never follows a redirect: the credential goes nowhere else', async () => {
    settings('online', { ...fakeUrls(), manychat: `http://127.0.0.1:${platformPort}/redirect` });
    try {
      const res = await mergeTags({
        provider: 'manychat',
        access_token: 'page-key',
      });
      expect(res.json.live).toBe(false);
    } finally {
      settings('online', fakeUrls());
    }
  });

  it('the victim saw nothing', () => {
    expect(victimSeen).toEqual([]);
  });
});

describe('GET /js/picsnippets.js (spec 001 §7 /js/{product}.js)', () => {
  it('serves the script to any site, with long caching and no cookie', async () => {
    const res = await fetch(`${stack().url}/js/picsnippets.js`, { headers: { accept: '*/*' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('cache-control')).toBe(
      'public, max-age=86400, stale-while-revalidate=604800',
    );
    expect(await res.text()).toBe(WEB_TRACKING_SCRIPT);
    expect(WEB_TRACKING_SCRIPT.length).toBeLessThan(4096);

    const versioned = await fetch(
      `${stack().url}/js/picsnippets.js?v=${WEB_TRACKING_SCRIPT_VERSION}`,
    );
    expect(versioned.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const again = await fetch(`${stack().url}/js/picsnippets.js`, {
      headers: { 'if-none-match': res.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });

  it('answers 404 for any other script', async () => {
    const res = await fetch(`${stack().url}/js/other.js`, { headers: { accept: '*/*' } });
    expect(res.status).toBe(404);
  });
});
