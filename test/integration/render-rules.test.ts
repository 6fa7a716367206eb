/**
 * Rule sets through the real local stack (docs/rules.md): a design saved with one rule per
 * condition kind; each kind matches and misses through the render URL, and the link endpoint
 * `/l/{publicId}` redirects to the link of the rule the image shows for the same request, random
 * splits included. The image names its rule (`x-render-rule`); the matched variant is really
 * drawn, and two viewers matching one rule share one cached render whatever their headers.
 *
 * The clock is fixed by the test-only header (STAGE=test), Tuesday 2026-11-24 12:00 UTC. On the
 * local stack the loopback addresses stand in for the mail proxies' ranges
 * (functions/render/mail-proxies.ts `LOCAL_PROXY_STAND_INS`), so Gmail's agent from here is
 * Gmail's proxy.
 */
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_NOW_HEADER } from '../../functions/render/countdown-gif.ts';
import type { TestClient } from '../support/client.ts';
import { createDesign, signedIn, type DesignJson } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();
const TUESDAY_NOON = '2026-11-24T12:00:00Z';
const SHOP = 'https://shop.example.com';

const AGENTS = {
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  windows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
  gmail:
    'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
  other: 'rules-test/1.0',
};

/** A rule whose link is `${SHOP}/{id}`. */
const rule = (id: string, conditions: unknown[], variant: Record<string, unknown> = {}) => ({
  id,
  name: id,
  conditions,
  variant,
  link_url: `${SHOP}/${id}`,
});

const RULES = [
  rule('country', [{ kind: 'country', countries: ['FR'] }], {
    base_image: { image_id: 'library-garden' },
    texts: { headline: 'Bonjour {{plan}}' },
  }),
  rule('gmail', [{ kind: 'mail_client', clients: ['gmail'] }]),
  rule('mobile', [{ kind: 'device', devices: ['mobile'] }]),
  rule('windows', [{ kind: 'os', systems: ['windows'] }]),
  rule('gold', [{ kind: 'parameter', param_name: 'plan', operator: 'equals', value: 'Gold' }]),
  rule('vip', [{ kind: 'parameter', param_name: 'plan', operator: 'contains', value: 'vip' }]),
  rule('window', [
    {
      kind: 'time_window',
      start: '2030-01-01T00:00',
      end: '2030-01-02T00:00',
      time_zone: 'Europe/Paris',
    },
  ]),
  rule('sunday', [{ kind: 'day_of_week', days: [0], time_zone: 'UTC' }]),
  rule('split-a', [
    { kind: 'parameter', param_name: 'group', operator: 'not_empty' },
    { kind: 'split', from: 0, to: 50 },
  ]),
  rule('split-b', [
    { kind: 'parameter', param_name: 'group', operator: 'not_empty' },
    { kind: 'split', from: 50, to: 100 },
  ]),
];

let demo: TestClient;
let design: DesignJson;

beforeAll(async () => {
  demo = await signedIn(stack().url, 'demo@example.com');
  design = await createDesign(demo, { title: 'Rules' });
  const saved = await demo.request('PUT', `/api/pic-snippet/${design.id}`, {
    version: design.version,
    canvas_width: 300,
    canvas_height: 200,
    html_link_url: `${SHOP}/default`,
    text_snippets: [
      {
        id: 'headline',
        text: 'Hi {{plan}} {{group}}',
        left: 10,
        top: 10,
        width: 280,
        fill: '#ffffff',
        parameters: [
          { id: 'p-plan', param_name: 'plan', param_default_value: 'friend' },
          { id: 'p-group', param_name: 'group', param_default_value: ' ' },
        ],
      },
    ],
    rules: RULES,
  });
  expect(saved.status, JSON.stringify(saved.json)).toBe(200);
  design.version += 1;
});

interface Viewer {
  query?: string;
  agent?: string;
  country?: string;
  now?: string;
}

const headersOf = (v: Viewer): Record<string, string> => ({
  [TEST_NOW_HEADER]: v.now ?? TUESDAY_NOON,
  'user-agent': v.agent ?? AGENTS.other,
  ...(v.country ? { 'cloudfront-viewer-country': v.country } : {}),
});

/** The image a viewer gets: the rule it shows, its bytes and cache answer. */
async function image(v: Viewer) {
  const res = await fetch(`${stack().url}/r/${design.public_id}?${v.query ?? ''}`, {
    headers: headersOf(v),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/jpeg');
  return {
    rule: res.headers.get('x-render-rule'),
    cache: res.headers.get('x-render-cache'),
    cacheControl: res.headers.get('cache-control'),
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

/** Where the viewer's click goes: the rule id of the link (`default` for the design's own). */
async function link(v: Viewer): Promise<string> {
  const res = await fetch(`${stack().url}/l/${design.public_id}?${v.query ?? ''}`, {
    headers: headersOf(v),
    redirect: 'manual',
  });
  expect(res.status).toBe(302);
  expect(res.headers.get('cache-control')).toContain('no-store');
  const location = res.headers.get('location')!;
  expect(location.startsWith(`${SHOP}/`)).toBe(true);
  return location.slice(SHOP.length + 1);
}

/** The rule the image shows and the link follows, which must agree. */
async function ruleOf(v: Viewer): Promise<string> {
  const [img, clicked] = await Promise.all([image(v), link(v)]);
  const shown = img.rule === 'default' ? 'default' : img.rule!.replace(/^rule:/, '');
  expect(clicked, `link and image of ${JSON.stringify(v)}`).toBe(shown);
  return shown;
}

describe('rule conditions through the render URL and the link', () => {
  it('a viewer no rule matches gets the default image and the design link', async () => {
    expect(await ruleOf({})).toBe('default');
  });

  it('country: the viewer-country header matches FR, misses DE', async () => {
    expect(await ruleOf({ country: 'FR' })).toBe('country');
    expect(await ruleOf({ country: 'fr' })).toBe('country');
    expect(await ruleOf({ country: 'DE' })).toBe('default');
  });

  it("e-mail client: Gmail's image proxy matches, another agent misses", async () => {
    expect(await ruleOf({ agent: AGENTS.gmail })).toBe('gmail');
    expect(await ruleOf({ agent: AGENTS.other })).toBe('default');
  });

  it('device: a phone matches mobile; OS: a Windows desktop matches windows', async () => {
    expect(await ruleOf({ agent: AGENTS.iphone })).toBe('mobile');
    expect(await ruleOf({ agent: AGENTS.windows })).toBe('windows');
  });

  it('parameter: equals and contains match their value, miss others', async () => {
    expect(await ruleOf({ query: 'plan=gold' })).toBe('gold');
    expect(await ruleOf({ query: 'plan=Super%20VIP' })).toBe('vip');
    expect(await ruleOf({ query: 'plan=silver' })).toBe('default');
  });

  it('time window: inside it matches (Paris time), just before it misses', async () => {
    expect(await ruleOf({ now: '2030-01-01T10:00:00Z' })).toBe('window');
    // 2029-12-31 23:30 UTC is 00:30 in Paris (inside); 22:30 UTC is 23:30 in Paris (a Monday).
    expect(await ruleOf({ now: '2029-12-31T23:30:00Z' })).toBe('window');
    expect(await ruleOf({ now: '2029-12-31T22:30:00Z' })).toBe('default');
  });

  it('day of week: a Sunday matches, the Tuesday misses', async () => {
    expect(await ruleOf({ now: '2026-11-29T09:00:00Z' })).toBe('sunday');
    expect(await ruleOf({ now: TUESDAY_NOON })).toBe('default');
  });

  it('random split: each recipient gets one side, the image and the link agree, both sides occur', async () => {
    const sides = new Map<string, string>();
    for (let i = 0; i < 12; i++) {
      const query = `group=r${i}`;
      const side = await ruleOf({ query });
      expect(['split-a', 'split-b']).toContain(side);
      // The same recipient again lands on the same side.
      expect(await link({ query })).toBe(side);
      sides.set(query, side);
    }
    expect(new Set(sides.values()).size).toBe(2);
  });

  it('draws the variant, keys the cache by the rule (not the headers), and tells the CDN not to share', async () => {
    const fallback = await image({ query: 'plan=silver' });
    const france = await image({ query: 'plan=silver', country: 'FR' });
    expect(france.rule).toBe('rule:country');
    // Another base photo and another text: other bytes.
    expect(france.bytes.equals(fallback.bytes)).toBe(false);
    // The photo itself, below the text: the variant's, not the design's (a layer per photo).
    const photo = (bytes: Buffer) =>
      sharp(bytes).extract({ left: 0, top: 100, width: 300, height: 100 }).raw().toBuffer();
    const [ours, theirs] = await Promise.all([photo(france.bytes), photo(fallback.bytes)]);
    let apart = 0;
    for (let i = 0; i < ours.length; i++) apart += Math.abs(ours[i]! - theirs[i]!);
    expect(apart / ours.length).toBeGreaterThan(20);
    // Another viewer in France, on a phone, matches the same rule: the same cached image.
    const again = await image({ query: 'plan=silver', country: 'FR', agent: AGENTS.iphone });
    expect(again.rule).toBe('rule:country');
    expect(again.cache).not.toBe('miss');
    expect(again.bytes.equals(france.bytes)).toBe(true);
    // The design reads the viewer's headers: not shared by the CDN.
    expect(france.cacheControl).toBe('private, no-cache');
  });
});

describe('the editor preview', () => {
  it('picks a rule with __preview=1&__rule=, and only in a preview', async () => {
    expect((await image({ query: '__preview=1&__rule=gold' })).rule).toBe('rule:gold');
    expect((await image({ query: '__preview=1&__rule=default', country: 'FR' })).rule).toBe(
      'default',
    );
    // A recipient's URL cannot pick: the rules are evaluated.
    expect((await image({ query: '__rule=gold' })).rule).toBe('default');
    expect(await link({ query: '__preview=1&__rule=gold' })).toBe('default');
  });
});

describe('rule links and saves', () => {
  it('answers 404, never a redirect, for an unknown design or one with no link', async () => {
    const unknown = await fetch(`${stack().url}/l/no-such-design`, { redirect: 'manual' });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('location')).toBeNull();

    const plain = await createDesign(demo, { title: 'No link' });
    const res = await fetch(`${stack().url}/l/${plain.public_id}?url=https://evil.example`, {
      redirect: 'manual',
    });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('This link goes nowhere');
  });

  it('refuses a rule link that is not a web link, and a variant photo the team may not use', async () => {
    const fresh = await createDesign(demo, { title: 'Bad rules' });
    const bad = await demo.request('PUT', `/api/pic-snippet/${fresh.id}`, {
      version: fresh.version,
      rules: [{ id: 'x', link_url: 'javascript:alert(1)' }],
    });
    expect(bad.status).toBe(422);
    const photo = await demo.request('PUT', `/api/pic-snippet/${fresh.id}`, {
      version: fresh.version,
      rules: [{ id: 'x', variant: { base_image: { image_id: 'no-such-image' } } }],
    });
    expect(photo.status).toBe(422);
    expect(JSON.stringify(photo.json)).toContain('rules.0.variant.base_image');
  });

  it('stores the variant photo from the image the team may use, whatever key was sent', async () => {
    const read = await demo.request('GET', `/api/pic-snippet/${design.id}`);
    const rules = read.json.rules as Array<{ variant: { base_image: unknown } }>;
    expect(rules[0]!.variant.base_image).toMatchObject({ image_id: 'library-garden' });
    expect((rules[0]!.variant.base_image as { base_image_key: string }).base_image_key).toMatch(
      /garden/,
    );
  });
});
