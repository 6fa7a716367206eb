/**
 * The export round trip with real renders (docs/export.md): for every provider, the demo
 * design's URL as the export builds it (with Generate's cache id), with a recipient's value
 * substituted the way that platform does (test/support/platforms.ts), draws exactly what the
 * render URL draws for the plain value, and not the fallback. Chromium, DynamoDB Local and
 * s3rver are real.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRenderUrl, type RenderUrlInput } from '#shared/export-url.ts';
import { PROVIDERS, type Provider } from '#shared/providers/index.ts';
import { signedIn } from '../support/designs.ts';
import { deliver } from '../support/platforms.ts';
import { fetchImage, meanDifference, useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();
/** Where "Hello {first_name}!" is drawn on the demo design, px. */
const textBand = { left: 50, top: 200, width: 900, height: 220 };

/** The demo design's first_name mapped to the provider's first field (or a typed tag). */
function exportOf(provider: Provider, cacheId?: string): RenderUrlInput {
  const value =
    provider.source === 'page'
      ? 'fname'
      : provider.source === 'text'
        ? '{first_name}'
        : provider.catalogue()[0]!.merge_tag_value;
  return {
    base_url: `${stack().url}/r/demo-welcome`,
    ...(cacheId ? { cacheId } : {}),
    provider: provider.value,
    parameters: [{ param_name: 'first_name', merge_tag_value: value }],
  };
}

/** The URL the render service gets, followed through ManyChat's JSON answer when it is one. */
async function imageUrlFor(provider: Provider, value: string, cacheId?: string): Promise<string> {
  const url = deliver(provider, exportOf(provider, cacheId), [value]).href;
  if (provider.urlForm !== 'manychat') return url;
  const res = await fetch(url);
  expect(res.headers.get('content-type')).toContain('application/json');
  const body = (await res.json()) as { content: { messages: Array<{ url: string }> } };
  return body.content.messages[0]!.url;
}

/** Values with the hard characters each kind of platform can carry (raw ones lose +, %, #, &=). */
const valueFor = (provider: Provider) =>
  provider.substitution === 'raw' ? 'Zoë & Ana María' : 'Zoë & C++ 😀 שלום';

describe('a substituted URL draws what the plain value draws (docs/export.md)', () => {
  /** The cache id Generate gets for the demo design, as every exported URL carries one. */
  let generated = '';
  beforeAll(async () => {
    const demo = await signedIn(stack().url, 'demo@example.com');
    const res = await demo.request('POST', '/api/pic-snippet/design-demo-welcome/cache-id', {});
    expect(res.status).toBe(200);
    generated = res.json.cache_id as string;
  });

  it.each(PROVIDERS.map((p) => [p.label, p] as const))('%s', async (_label, provider) => {
    const value = valueFor(provider);
    const url = await imageUrlFor(provider, value, generated);
    expect(new URL(url).pathname).toBe(`/r/demo-welcome/${generated}`);
    const substituted = await fetchImage(url);
    const plain = await fetchImage(
      `${stack().url}/r/demo-welcome?first_name=${encodeURIComponent(value)}`,
    );
    const fallback = await fetchImage(`${stack().url}/r/demo-welcome`);
    expect(substituted.res.status).toBe(200);
    expect(substituted.res.headers.get('cache-control')).toBe(
      'public, max-age=31536000, immutable',
    );
    expect([substituted.width, substituted.height]).toEqual([plain.width, plain.height]);
    expect(meanDifference(substituted.pixels, plain.pixels, plain.width, textBand)).toBe(0);
    expect(
      meanDifference(substituted.pixels, fallback.pixels, plain.width, textBand),
    ).toBeGreaterThan(2);
  });

  it('a URL with the current cache id is immutable for a year', async () => {
    const klaviyo = PROVIDERS.find((p) => p.value === 'klaviyo')!;
    // The demo design's current version: 1 as seeded, more when a file before this one on the
    // same stack saved it (docs/testing.md "One stack per worker").
    const { db } = await import('#lib/db/index.ts');
    const current = `v${(await db().Design.get({ designId: 'design-demo-welcome' }).go()).data!.version}`;
    const url = await imageUrlFor(klaviyo, 'Ana', current);
    expect(new URL(url).pathname).toBe(`/r/demo-welcome/${current}`);
    const res = await fetch(url);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('a Klaviyo recipient without the field gets the design’s fallback', async () => {
    // Klaviyo's `default:''` writes nothing: `first_name=` reaches the render service.
    const url = buildRenderUrl(exportOf(PROVIDERS.find((p) => p.value === 'klaviyo')!)).replace(
      /\{\{[^{}]*\}\}/,
      '',
    );
    const empty = await fetchImage(url);
    const fallback = await fetchImage(`${stack().url}/r/demo-welcome`);
    expect(meanDifference(empty.pixels, fallback.pixels, fallback.width, textBand)).toBe(0);
  });
});
