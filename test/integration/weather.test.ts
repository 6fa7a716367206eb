/**
 * Weather conditions of rule sets through the local stack (docs/weather.md): the recorded
 * answers (offline, the local default) choose the rule for a recipient's city and for the
 * reader's place from the CDN's viewer-location headers; then Open-Meteo's answers from a local
 * stand-in (online, through the SSRF guard): a provider that is down shows the default and is
 * answered `no-store`, and its real answers choose the rule again. The image and its link agree.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/config.ts';
import { VIEWER_LATITUDE_HEADER, VIEWER_LONGITUDE_HEADER } from '#functions/render/rule-context.ts';
import { currentTeamId, demoDesignCopyIn, ownTeam, uniqueEmail } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();

/** The stand-in's state: down answers 503 to everything. */
let down = false;
const asked: string[] = [];
let service: Server;
let origin = '';

beforeAll(async () => {
  service = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    asked.push(url.pathname + url.search);
    const send = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (down) return send(503, { error: true, reason: 'maintenance' });
    if (url.pathname === '/geocoding') {
      const name = url.searchParams.get('name') ?? '';
      return send(
        200,
        name === 'Lyon'
          ? { results: [{ name: 'Lyon', latitude: 45.7485, longitude: 4.8467, country: 'France' }] }
          : { generationtime_ms: 0.1 },
      );
    }
    if (url.pathname === '/forecast')
      return send(200, {
        latitude: Number(url.searchParams.get('latitude')),
        longitude: Number(url.searchParams.get('longitude')),
        current_units: { temperature_2m: '°C', weather_code: 'wmo code' },
        current: { time: '2026-11-28T15:00', temperature_2m: 7.5, weather_code: 80 },
      });
    return send(404, {});
  });
  const port = await new Promise<number>((ok) =>
    service.listen(0, '127.0.0.1', () => ok((service.address() as AddressInfo).port)),
  );
  origin = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  for (const name of ['SSRF_TEST_PUBLIC_PORTS', 'WEATHER_MODE', 'WEATHER_API_URLS'])
    delete process.env[name];
  resetConfig();
  await new Promise((ok) => service.close(ok));
});

/** A design of its own team with two weather rules: rain in {{city}}, snow where the reader is. */
async function weatherDesign() {
  const base = stack().url;
  const owner = await ownTeam(base, uniqueEmail('weather'));
  const design = await demoDesignCopyIn(await currentTeamId(owner));
  const saved = await owner.request('PUT', `/api/pic-snippet/${design.designId}`, {
    version: 1,
    text_snippets: [
      {
        id: 'headline',
        text: 'Hello {{city}}',
        left: 10,
        top: 10,
        width: 400,
        parameters: [{ id: 'p-city', param_name: 'city', param_default_value: 'there' }],
      },
    ],
    html_link_url: 'https://shop.example/default',
    rules: [
      {
        id: 'rain',
        name: 'Rain in the city',
        conditions: [{ kind: 'weather', param_name: 'city', skies: ['rain', 'drizzle'] }],
        link_url: 'https://shop.example/umbrellas',
      },
      {
        id: 'snow',
        name: 'Snow where the reader is',
        conditions: [{ kind: 'weather', param_name: '', skies: ['snow'] }],
        link_url: 'https://shop.example/boots',
      },
    ],
  });
  expect(saved.status, JSON.stringify(saved.json)).toBe(200);
  return design;
}

/** The image's rule and cache answer, and where its link goes, for a city and a reader's place. */
async function open(
  design: { publicId: string; render: string },
  city: string,
  at?: { lat: string; lon: string },
) {
  const headers: Record<string, string> = at
    ? { [VIEWER_LATITUDE_HEADER]: at.lat, [VIEWER_LONGITUDE_HEADER]: at.lon }
    : {};
  const query = `?city=${encodeURIComponent(city)}`;
  const image = await fetch(`${stack().url}${design.render}${query}`, { headers });
  await image.arrayBuffer();
  const link = await fetch(`${stack().url}/l/${design.publicId}${query}`, {
    headers,
    redirect: 'manual',
  });
  return {
    status: image.status,
    rule: image.headers.get('x-render-rule'),
    cache: image.headers.get('cache-control'),
    link: link.headers.get('location'),
  };
}

describe('weather conditions', () => {
  it('choose the rule from the recorded weather of the city and of the reader’s place', async () => {
    const design = await weatherDesign();
    // Paris: rain (recorded); Madrid: clear; the reader in Oslo: snow.
    expect(await open(design, 'Paris')).toMatchObject({
      status: 200,
      rule: 'rule:rain',
      link: 'https://shop.example/umbrellas',
    });
    const madrid = await open(design, 'Madrid');
    expect(madrid.rule).toBe('default');
    expect(madrid.link).toBe('https://shop.example/default');
    expect(await open(design, 'Madrid', { lat: '59.9127', lon: '10.7461' })).toMatchObject({
      rule: 'rule:snow',
      link: 'https://shop.example/boots',
    });
    // The reader's place is read from the request: the CDN must not share the answer.
    expect(madrid.cache).toBe('private, no-cache');
    // A place nobody recorded: no weather, the default, and not a failure.
    expect((await open(design, 'Atlantis')).rule).toBe('default');
  });

  it('asks Open-Meteo online: down shows the default uncached, up chooses the rule', async () => {
    process.env.SSRF_TEST_PUBLIC_PORTS = origin.split(':').at(-1)!;
    process.env.WEATHER_MODE = 'online';
    process.env.WEATHER_API_URLS = `forecast=${origin}/forecast,geocoding=${origin}/geocoding`;
    resetConfig();
    try {
      const design = await weatherDesign();
      down = true;
      const failed = await open(design, 'Lille');
      expect(failed).toMatchObject({ status: 200, rule: 'default' });
      expect(failed.cache).toBe('no-store');
      down = false;
      asked.length = 0;
      expect(await open(design, 'Lyon')).toMatchObject({
        rule: 'rule:rain',
        link: 'https://shop.example/umbrellas',
      });
      // One place lookup and one forecast for the image and its link together (the cache).
      expect(asked.filter((a) => a.startsWith('/geocoding'))).toEqual([
        '/geocoding?name=Lyon&count=1&format=json',
      ]);
      expect(asked.filter((a) => a.startsWith('/forecast'))).toEqual([
        '/forecast?latitude=45.75&longitude=4.85&current=temperature_2m%2Cweather_code&timezone=UTC',
      ]);
    } finally {
      down = false;
      for (const name of ['SSRF_TEST_PUBLIC_PORTS', 'WEATHER_MODE', 'WEATHER_API_URLS'])
        delete process.env[name];
      resetConfig();
    }
  });
});
