/**
 * Stock-photo search and import (docs/decisions.md; docs/adr/0027-editor-extras-and-stock-photos.md
 * "Editor extras and stock photos" `GET /api/search-images/{query}`), through the real local stack.
 * Unsplash and Pixabay cannot be reached offline, so a local HTTP server answers as they do (their
 * documented JSON shapes), and every call still goes through the SSRF guard (its loopback test port
 * is the only one allowed). Checked: the offline mode, the requests each service receives (key,
 * paging, filters), the attribution kept, the import storing our own re-encoded copy, and failures
 * that store nothing and leak no key.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/config.ts';
import { TestClient } from '../support/client.ts';
import { useLocalStack } from '../support/stack.ts';

const UNSPLASH_KEY = 'unsplash-access-0123';
const PIXABAY_KEY = 'pixabay-key-4567';
const PHOTO = readFileSync(
  fileURLToPath(new URL('../../infra/seed/photos/autumn.jpg', import.meta.url)),
);

const seen: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
let service: Server;
let port = 0;
/** What the fake image host serves at /img/broken: set per test. */
let broken: { type: string; body: Buffer } = { type: 'text/html', body: Buffer.from('<p>') };

const origin = () => `http://127.0.0.1:${port}`;

/** An Unsplash photo object (api.unsplash.com, "Get a photo" / search results). */
const unsplashPhoto = (id: string, raw = `${origin()}/img/${id}?ixid=abc`) => ({
  id,
  width: 4000,
  height: 2500,
  description: null,
  alt_description: 'autumn trees by a lake',
  urls: { raw, full: raw, regular: raw, small: `${raw}&w=400`, thumb: `${raw}&w=200` },
  links: {
    self: `${origin()}/unsplash/photos/${id}`,
    html: `https://unsplash.com/photos/${id}`,
    download: `${origin()}/unsplash/photos/${id}/download`,
    download_location: `${origin()}/unsplash/photos/${id}/download?ixid=abc`,
  },
  user: { name: 'Ana Photographer', username: 'ana', links: { html: 'https://unsplash.com/@ana' } },
});

/** A Pixabay hit (pixabay.com/api/). */
const pixabayHit = (id: number) => ({
  id,
  pageURL: `https://pixabay.com/photos/lake-${id}/`,
  type: 'photo',
  tags: 'lake, autumn, trees',
  previewURL: `${origin()}/img/p${id}?w=150`,
  webformatURL: `${origin()}/img/p${id}?w=640`,
  largeImageURL: `${origin()}/img/p${id}?w=1280`,
  imageWidth: 5000,
  imageHeight: 3000,
  user_id: 42,
  user: 'Bo',
});

function answer(url: URL, headers: IncomingHttpHeaders): [number, string, Buffer | unknown] {
  const unsplashAuth = headers.authorization === `Client-ID ${UNSPLASH_KEY}`;
  if (url.pathname === '/unsplash/search/photos') {
    if (!unsplashAuth) return [401, 'application/json', { errors: ['OAuth error'] }];
    return [
      200,
      'application/json',
      {
        total: 2,
        total_pages: 3,
        results: [unsplashPhoto('u-lake'), unsplashPhoto('u-hill')],
      },
    ];
  }
  const photo = /^\/unsplash\/photos\/([\w-]+)(\/download)?$/.exec(url.pathname);
  if (photo) {
    if (!unsplashAuth) return [401, 'application/json', {}];
    if (photo[2]) return [200, 'application/json', { url: 'https://images.example/dl' }];
    if (photo[1] === 'u-missing') return [404, 'application/json', {}];
    if (photo[1] === 'u-ssrf')
      return [200, 'application/json', unsplashPhoto('u-ssrf', 'http://169.254.169.254/latest')];
    if (photo[1] === 'u-broken')
      return [200, 'application/json', unsplashPhoto('u-broken', `${origin()}/img/broken?x=1`)];
    return [200, 'application/json', unsplashPhoto(photo[1]!)];
  }
  if (url.pathname === '/pixabay/api/') {
    if (url.searchParams.get('key') !== PIXABAY_KEY) return [400, 'text/plain', '[ERROR 400]'];
    const id = url.searchParams.get('id');
    return [
      200,
      'application/json',
      { total: 60, totalHits: 60, hits: id ? [pixabayHit(Number(id))] : [pixabayHit(7)] },
    ];
  }
  if (url.pathname === '/img/broken') return [200, broken.type, broken.body];
  if (url.pathname.startsWith('/img/')) return [200, 'image/jpeg', PHOTO];
  return [404, 'application/json', {}];
}

beforeAll(async () => {
  service = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push({ path: req.url ?? '', headers: req.headers });
    const [status, type, body] = answer(url, req.headers);
    res
      .writeHead(status, { 'content-type': type })
      .end(Buffer.isBuffer(body) ? body : typeof body === 'string' ? body : JSON.stringify(body));
  });
  port = await new Promise<number>((ok) =>
    service.listen(0, '127.0.0.1', () => ok((service.address() as AddressInfo).port)),
  );
  process.env.SSRF_TEST_PUBLIC_PORTS = String(port);
  process.env.STOCK_API_URLS = `unsplash=${origin()}/unsplash,pixabay=${origin()}/pixabay`;
  resetConfig();
});

afterAll(async () => {
  for (const name of [
    'SSRF_TEST_PUBLIC_PORTS',
    'STOCK_API_URLS',
    'UNSPLASH_ACCESS_KEY',
    'PIXABAY_API_KEY',
  ])
    delete process.env[name];
  resetConfig();
  await new Promise((ok) => service.close(ok));
});

const stack = useLocalStack();

/** Sets or clears the service keys; the handlers read them on the next request. */
function keys(unsplash: string | null, pixabay: string | null) {
  for (const [name, value] of [
    ['UNSPLASH_ACCESS_KEY', unsplash],
    ['PIXABAY_API_KEY', pixabay],
  ] as const) {
    if (value === null) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfig();
}

async function demo(): Promise<TestClient> {
  const client = new TestClient(stack().url);
  expect((await client.login('demo@example.com')).status).toBe(200);
  return client;
}

/** The team's uploads, first page (newest first). */
const uploads = async (client: TestClient) =>
  (await client.request('GET', '/getImages')).json.data as Array<Record<string, unknown>>;

describe('stock-photo search', () => {
  it('says it is not configured when no service has a key, and calls nothing', async () => {
    keys(null, null);
    const client = await demo();
    const before = seen.length;
    const res = await client.request('GET', '/api/search-images/lake');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      configured: false,
      source: null,
      data: [],
      message: 'Stock photo search is not configured on this server.',
    });
    const imported = await client.request('POST', '/api/search-images/import', {
      source: 'unsplash',
      id: 'u-lake',
    });
    expect(imported.status).toBe(422);
    expect(seen.length).toBe(before);
  });

  it('searches Unsplash with its key, pages of 24, and keeps the attribution', async () => {
    keys(UNSPLASH_KEY, PIXABAY_KEY);
    const client = await demo();
    const res = await client.request('GET', '/api/search-images/autumn%20lake?page=2');
    expect(res.status).toBe(200);
    const call = seen.at(-1)!;
    const asked = new URL(call.path, 'http://x');
    expect(asked.pathname).toBe('/unsplash/search/photos');
    expect(Object.fromEntries(asked.searchParams)).toMatchObject({
      query: 'autumn lake',
      page: '2',
      per_page: '24',
      content_filter: 'high',
    });
    expect(call.headers['accept-version']).toBe('v1');
    expect(res.json).toMatchObject({ configured: true, source: 'unsplash', last_page: 3 });
    const [first] = res.json.data as Array<Record<string, unknown>>;
    expect(first).toEqual({
      id: 'u-lake',
      from: 'unsplash',
      thumb: `${origin()}/img/u-lake?ixid=abc&w=400`,
      width: 4000,
      height: 2500,
      description: 'autumn trees by a lake',
      user: {
        name: 'Ana Photographer',
        link: 'https://unsplash.com/@ana?utm_source=picsnippets&utm_medium=referral',
      },
      link: 'https://unsplash.com/photos/u-lake?utm_source=picsnippets&utm_medium=referral',
    });
  });

  it('searches Pixabay when asked, with the key in its query, pages from totalHits', async () => {
    const client = await demo();
    const res = await client.request('GET', '/api/search-images/lake?source=pixabay');
    expect(res.status).toBe(200);
    const asked = new URL(seen.at(-1)!.path, 'http://x');
    expect(Object.fromEntries(asked.searchParams)).toMatchObject({
      key: PIXABAY_KEY,
      q: 'lake',
      page: '1',
      per_page: '24',
      image_type: 'photo',
      safesearch: 'true',
    });
    expect(res.json).toMatchObject({ source: 'pixabay', last_page: 3 });
    expect((res.json.data as unknown[])[0]).toMatchObject({
      id: '7',
      from: 'pixabay',
      user: { name: 'Bo', link: 'https://pixabay.com/users/Bo-42/' },
    });
  });

  it('answers 502 with a plain message when the service refuses the key, and leaks no key', async () => {
    keys('wrong-key', null);
    const client = await demo();
    const res = await client.request('GET', '/api/search-images/lake');
    expect(res.status).toBe(502);
    expect(res.json.message).toBe('Stock photo search is unavailable right now. Try again later.');
    expect(JSON.stringify(res.json)).not.toContain('wrong-key');
    keys(UNSPLASH_KEY, PIXABAY_KEY);
  });

  it('refuses an empty query and signed-out callers', async () => {
    const client = await demo();
    expect((await client.request('GET', '/api/search-images/%20')).status).toBe(422);
    expect((await new TestClient(stack().url).request('GET', '/api/search-images/x')).status).toBe(
      401,
    );
  });
});

describe('importing a stock photo', () => {
  it('copies the photo into the team uploads with its photographer, after reporting the download', async () => {
    const client = await demo();
    const res = await client.request('POST', '/api/search-images/import', {
      source: 'unsplash',
      id: 'u-lake',
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    // The photo was asked by id, its download reported, then fetched at 2048 px as JPEG.
    const paths = seen.slice(-3).map((s) => new URL(s.path, 'http://x'));
    expect(paths[0]!.pathname).toBe('/unsplash/photos/u-lake');
    expect(paths[1]!.pathname).toBe('/unsplash/photos/u-lake/download');
    expect(paths[2]!.pathname).toBe('/img/u-lake');
    expect(Object.fromEntries(paths[2]!.searchParams)).toMatchObject({ w: '2048', fm: 'jpg' });

    const image = res.json.image as Record<string, unknown>;
    expect(image).toMatchObject({
      title: 'autumn trees by a lake',
      author: 'Ana Photographer',
      author_url: 'https://unsplash.com/@ana?utm_source=picsnippets&utm_medium=referral',
    });
    expect(String(image.licence)).toContain('Unsplash License');
    expect((await uploads(client))[0]!.id).toBe(image.id);
    // Our own copy, served from our origin, a real image.
    const file = await fetch(`${stack().url}${String(image.url)}`);
    expect(file.status).toBe(200);
    const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
    expect(meta.width).toBeGreaterThan(100);
  });

  it('stores nothing when the download is not an image, the photo is gone, or its URL is private', async () => {
    const client = await demo();
    const count = (await uploads(client)).length;

    broken = { type: 'text/html', body: Buffer.from('<p>not a photo</p>') };
    const html = await client.request('POST', '/api/search-images/import', {
      source: 'unsplash',
      id: 'u-broken',
    });
    expect(html.status).toBe(502);

    broken = { type: 'image/jpeg', body: Buffer.from('this is no jpeg at all') };
    const fake = await client.request('POST', '/api/search-images/import', {
      source: 'unsplash',
      id: 'u-broken',
    });
    expect(fake.status).toBe(422);

    const gone = await client.request('POST', '/api/search-images/import', {
      source: 'unsplash',
      id: 'u-missing',
    });
    expect(gone.status).toBe(502);

    const ssrf = await client.request('POST', '/api/search-images/import', {
      source: 'unsplash',
      id: 'u-ssrf',
    });
    expect(ssrf.status).toBe(502);

    const badId = await client.request('POST', '/api/search-images/import', {
      source: 'unsplash',
      id: '../../etc',
    });
    expect(badId.status).toBe(422);
    expect(badId.json.errors).toHaveProperty('id');

    expect((await uploads(client)).length).toBe(count);
  });

  it('imports from Pixabay by id with its licence', async () => {
    const client = await demo();
    const res = await client.request('POST', '/api/search-images/import', {
      source: 'pixabay',
      id: '7',
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    expect(res.json.image).toMatchObject({ author: 'Bo', title: 'lake, autumn, trees' });
    expect(String((res.json.image as Record<string, unknown>).licence)).toContain(
      'Pixabay Content License',
    );
  });
});
