/**
 * The render service's own rules, with its collaborators injected (the integration tests run
 * the same service against DynamoDB Local, s3rver and Chromium).
 */
import { describe, expect, it, vi } from 'vitest';
import { DesignDocumentSchema } from '#shared/design.ts';
import { createRenderService, type RenderServiceDeps } from '#functions/render/service.ts';
import { DEFAULT_LIMITS, TokenBuckets } from '#functions/render/budgets.ts';
import { IMMUTABLE_CACHE, QUOTA_FALLBACK_CACHE, SHORT_CACHE } from '#functions/render/answer.ts';
import { MemoryCache } from '#functions/render/cached-draw.ts';
import { ViewCounter } from '#functions/render/view-counter.ts';
import { normaliseValues } from '#functions/render/open-time.ts';
import { renderCacheKey } from '#functions/render/cache-key.ts';
import { mailProxyOf } from '#functions/render/mail-proxies.ts';
import { RecentFallbacks } from '#functions/render/recent-fallbacks.ts';
import { RenderUsage } from '#functions/render/usage.ts';

const doc = DesignDocumentSchema.parse({
  image_id: 'i',
  base_image_key: 'k',
  text_snippets: [
    {
      id: 's',
      text: '{{first_name}} {{city}}',
      left: 0,
      top: 0,
      width: 500,
      parameters: [
        { id: 'a', param_name: 'first_name' },
        { id: 'b', param_name: 'city' },
      ],
    },
  ],
  graphics_data: [
    {
      uuid: 'q',
      stickerType: 'dynamicSticker',
      dynamicStickerType: 'qrCode',
      dynamicStickerParamName: 'qrCode1',
      left: 0,
      top: 0,
    },
  ],
});
const design = { designId: 'd1', teamId: 't1', version: 3, document: doc };

function service(overrides: Partial<RenderServiceDeps> = {}) {
  const stored = new Map<string, Buffer>();
  const render = vi.fn(async (_d: unknown, values: Record<string, string>, format: string) => ({
    body: Buffer.from(`${format}:${JSON.stringify(values)}`),
    contentType: 'image/jpeg' as const,
  }));
  const deps: RenderServiceDeps = {
    findDesign: async (id) => (id === 'pub' ? design : undefined),
    teamCanExportPdf: async () => false,
    render,
    placeholder: async () => Buffer.from('placeholder'),
    store: { get: async (k) => stored.get(k), put: async (k, b) => void stored.set(k, b) },
    countView: () => undefined,
    publicUrl: 'https://cdn.example',
    timeoutMs: 1000,
    ...overrides,
  };
  return { svc: createRenderService(deps), render, stored };
}
const req = (rawPath: string, rawQueryString = '', sourceIp = '1.2.3.4') => ({
  rawPath,
  rawQueryString,
  sourceIp,
});
const bodyOf = (r: { body?: string }) => Buffer.from(r.body ?? '', 'base64').toString();

describe('normaliseValues', () => {
  it('keeps declared parameters only, sorted, cut at 255', () => {
    expect(normaliseValues(doc, { z: '1', first_name: 'Ana', qrCode1: 'x'.repeat(300) })).toEqual([
      ['first_name', 'Ana'],
      ['qrCode1', 'x'.repeat(255)],
    ]);
  });

  it("maps fixyourfunnel's txt= to the first parameter without a value", () => {
    expect(normaliseValues(doc, { txt: 'Ana' })).toEqual([['first_name', 'Ana']]);
    expect(normaliseValues(doc, { first_name: 'Bo', txt: 'Oslo' })).toEqual([
      ['city', 'Oslo'],
      ['first_name', 'Bo'],
    ]);
  });

  it('gives one cache key whatever the order, and another per version and format', () => {
    const a = renderCacheKey(
      design,
      normaliseValues(doc, { first_name: 'Ana', city: 'Oslo' }),
      'jpeg',
    );
    const b = renderCacheKey(
      design,
      normaliseValues(doc, { city: 'Oslo', first_name: 'Ana', utm: '1' }),
      'jpeg',
    );
    expect(a).toBe(b);
    expect(renderCacheKey({ ...design, version: 4 }, [], 'jpeg')).not.toBe(
      renderCacheKey(design, [], 'jpeg'),
    );
    expect(renderCacheKey(design, [], 'png')).not.toBe(renderCacheKey(design, [], 'jpeg'));
  });
});

describe('the render service', () => {
  it('renders once, then answers from memory; immutable only for the current cacheId', async () => {
    const { svc, render } = service();
    const first = await svc.handle(req('/r/pub/v3.jpg', 'first_name=Ana'));
    const second = await svc.handle(req('/r/pub/v3.jpg', 'first_name=Ana'));
    expect(render).toHaveBeenCalledTimes(1);
    expect(first.headers?.['cache-control']).toBe(IMMUTABLE_CACHE);
    expect(second.headers?.['x-render-cache']).toBe('memory');
    const other = await svc.handle(req('/r/pub.jpg', 'first_name=Ana'));
    expect(other.headers?.['cache-control']).toBe(SHORT_CACHE);
  });

  it('draws the snapshot a cache id names after later edits (docs/export.md "Cache id")', async () => {
    const older = {
      ...doc,
      text_snippets: [{ ...doc.text_snippets[0]!, text: 'Old {{first_name}}' }],
    };
    const findSnapshot = vi.fn(async (_id: string, version: number) =>
      version === 2 ? older : undefined,
    );
    const { svc, render } = service({ findSnapshot });
    const kept = await svc.handle(req('/r/pub/v2', 'first_name=Ana'));
    expect(kept.statusCode).toBe(200);
    expect(kept.headers?.['cache-control']).toBe(IMMUTABLE_CACHE);
    const [drawn] = render.mock.calls[0]!;
    expect(drawn).toMatchObject({ designId: 'd1', version: 2, document: older });
    // No snapshot of v1, a cache id of no version, or one ahead: the current design, short-lived.
    for (const path of ['/r/pub/v1', '/r/pub/latest', '/r/pub/v9']) {
      const res = await svc.handle(req(path, 'first_name=Ana'));
      expect(res.headers?.['cache-control'], path).toBe(SHORT_CACHE);
      expect(render.mock.calls.at(-1)![0], path).toMatchObject({ version: 3, document: doc });
    }
    expect(findSnapshot.mock.calls.map(([, v]) => v)).toEqual([2, 1]);
  });

  it('draws the current design when the snapshot cannot be read', async () => {
    const { svc, render } = service({
      findSnapshot: async () => Promise.reject(new Error('down')),
    });
    const res = await svc.handle(req('/r/pub/v2', 'first_name=Ana'));
    expect(res.statusCode).toBe(200);
    expect(res.headers?.['cache-control']).toBe(SHORT_CACHE);
    expect(render.mock.calls[0]![0]).toMatchObject({ version: 3 });
  });

  it('answers from the store after a restart of the process', async () => {
    const { svc, stored } = service();
    await svc.handle(req('/r/pub.jpg', 'first_name=Ana'));
    const again = service({
      store: { get: async (k) => stored.get(k), put: async () => undefined },
    });
    const res = await again.svc.handle(req('/r/pub.jpg', 'first_name=Ana'));
    expect(again.render).not.toHaveBeenCalled();
    expect(res.headers?.['x-render-cache']).toBe('store');
  });

  it('serves the all-fallback render, uncached, when the draw fails', async () => {
    const { svc } = service({
      render: async (_d, values) => {
        if (Object.keys(values).length > 0) throw new Error('chromium went away');
        return { body: Buffer.from('all-fallback'), contentType: 'image/jpeg' };
      },
    });
    const res = await svc.handle(req('/r/pub.jpg', 'first_name=Ana'));
    expect(res.statusCode).toBe(200);
    expect(res.headers?.['cache-control']).toBe('no-store');
    expect(bodyOf(res)).toBe('all-fallback');
  });

  it('serves the placeholder when even the fallback cannot be drawn, or a draw times out', async () => {
    const { svc } = service({ render: () => new Promise(() => undefined), timeoutMs: 20 });
    const res = await svc.handle(req('/r/pub.jpg', 'first_name=Ana'));
    expect(res.headers?.['cache-control']).toBe('no-store');
    expect(bodyOf(res)).toBe('placeholder');
  });

  it('limits draws per IP, and a limited request still gets an image', async () => {
    const { svc, render } = service({
      limits: {
        ...DEFAULT_LIMITS,
        perIp: { ratePerSecond: 0.001, burst: 2 },
        perDesign: { ratePerSecond: 100, burst: 100 },
      },
    });
    for (const name of ['a', 'b']) await svc.handle(req('/r/pub.jpg', `first_name=${name}`));
    const limited = await svc.handle(req('/r/pub.jpg', 'first_name=c'));
    expect(limited.statusCode).toBe(200);
    expect(limited.headers?.['cache-control']).toBe('no-store');
    // Cache hits are free, and another IP has its own budget.
    expect((await svc.handle(req('/r/pub.jpg', 'first_name=a'))).headers?.['x-render-cache']).toBe(
      'memory',
    );
    expect(
      (await svc.handle(req('/r/pub.jpg', 'first_name=d', '5.6.7.8'))).headers?.['cache-control'],
    ).toBe(SHORT_CACHE);
    expect(render.mock.calls.map((c) => c[1])).toContainEqual({ first_name: 'd' });
  });

  it('lets a mail proxy wait for its larger budget instead of serving the fallback', async () => {
    const gmail =
      'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';
    const { svc, render } = service({
      limits: {
        ...DEFAULT_LIMITS,
        perIp: { ratePerSecond: 0.001, burst: 1 },
        perProxyAddress: { ratePerSecond: 20, burst: 1 },
        proxyWaitMs: 1000,
      },
    });
    const fromProxy = (name: string) =>
      svc.handle({ ...req('/r/pub.jpg', `first_name=${name}`, '66.249.84.1'), userAgent: gmail });
    // Three recipients behind one proxy address at once: one token, the others queue for theirs.
    const answers = await Promise.all(['a', 'b', 'c'].map(fromProxy));
    expect(answers.map((a) => a.headers?.['cache-control'])).toEqual([
      SHORT_CACHE,
      SHORT_CACHE,
      SHORT_CACHE,
    ]);
    expect(render).toHaveBeenCalledTimes(3);
    // The same address without the proxy's user agent has the small budget: one draw, then none.
    const plain = (name: string) =>
      svc.handle(req('/r/pub.jpg', `first_name=${name}`, '66.249.84.2'));
    expect((await plain('d')).headers?.['cache-control']).toBe(SHORT_CACHE);
    expect((await plain('e')).headers?.['cache-control']).toBe('no-store');
  });

  it('serves a proxy the fallback only past its wait, and an address the edge counted over its budget none', async () => {
    const { svc } = service({
      limits: {
        ...DEFAULT_LIMITS,
        perProxyAddress: { ratePerSecond: 0.001, burst: 1 },
        proxyWaitMs: 100,
      },
    });
    // Gmail's image proxy from an address in its published ranges (shared/mail-proxy-ranges.json).
    const gmail = {
      userAgent:
        'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
    };
    expect(
      (await svc.handle({ ...req('/r/pub.jpg', 'first_name=a', '66.249.84.1'), ...gmail }))
        .headers?.['cache-control'],
    ).toBe(SHORT_CACHE);
    expect(
      (await svc.handle({ ...req('/r/pub.jpg', 'first_name=b', '66.249.84.1'), ...gmail }))
        .headers?.['cache-control'],
    ).toBe('no-store');

    const limited = { ...req('/r/pub.jpg', 'first_name=z', '9.9.9.9'), edgeLimited: true };
    const answer = await svc.handle(limited);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers?.['cache-control']).toBe('no-store');
    // What is already drawn is still served to it: cache hits cost nothing.
    const hit = await svc.handle({
      ...req('/r/pub.jpg', 'first_name=a', '9.9.9.9'),
      edgeLimited: true,
    });
    expect(hit.headers?.['x-render-cache']).toBe('memory');
  });

  // Mutation check: with spendBudget's edgeProxyLimited line removed, the second request draws.
  it('gives a proxy address the edge counted over a proxy’s budget no draw, in any container', async () => {
    const { svc, render } = service();
    const gmail = {
      userAgent:
        'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
    };
    const ok = await svc.handle({ ...req('/r/pub.jpg', 'first_name=a', '66.249.84.1'), ...gmail });
    expect(ok.headers?.['cache-control']).toBe(SHORT_CACHE);
    const over = await svc.handle({
      ...req('/r/pub.jpg', 'first_name=b', '66.249.84.1'),
      ...gmail,
      edgeProxyLimited: true,
    });
    expect(over.headers?.['cache-control']).toBe('no-store');
    expect(render.mock.calls.map((c) => c[1])).not.toContainEqual({ first_name: 'b' });
    // An ordinary address is judged by its own, far lower edge rule, not by the proxy one.
    const plain = await svc.handle({
      ...req('/r/pub.jpg', 'first_name=c', '9.9.9.9'),
      edgeProxyLimited: true,
    });
    expect(plain.headers?.['cache-control']).toBe(SHORT_CACHE);
  });

  it('gives 402 for a PDF the plan does not include, and the PDF when it does', async () => {
    expect((await service().svc.handle(req('/r/pub/pdf'))).statusCode).toBe(402);
    const pro = await service({ teamCanExportPdf: async () => true }).svc.handle(req('/r/pub/pdf'));
    expect(pro.headers?.['content-type']).toBe('application/pdf');
  });
});

describe('MemoryCache', () => {
  it('evicts the least recently used entries past its byte budget', () => {
    const cache = new MemoryCache(40);
    cache.set('a', Buffer.alloc(10));
    cache.set('b', Buffer.alloc(10));
    cache.get('a');
    cache.set('c', Buffer.alloc(10));
    cache.set('d', Buffer.alloc(10));
    cache.set('e', Buffer.alloc(10));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
  });

  it('does not keep an image larger than a quarter of its budget', () => {
    const cache = new MemoryCache(40);
    cache.set('a', Buffer.alloc(10));
    cache.set('big', Buffer.alloc(11));
    expect(cache.get('big')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
  });
});

describe('mailProxyOf', () => {
  it('recognises the proxies by the user agent they send, and nothing else', () => {
    expect(mailProxyOf('Mozilla/5.0 (via ggpht.com GoogleImageProxy)')).toBe('gmail');
    expect(mailProxyOf('YahooMailProxy; https://help.yahoo.com')).toBe('yahoo');
    expect(mailProxyOf('Mozilla/5.0 (Windows NT 10.0) Chrome/120 Safari/537.36')).toBeUndefined();
    expect(mailProxyOf(undefined)).toBeUndefined();
    expect(mailProxyOf(`${'x'.repeat(600)}GoogleImageProxy`)).toBeUndefined();
  });
});

describe('TokenBuckets', () => {
  it('reserves the next token when it comes within the wait, else refuses', () => {
    let now = 0;
    const buckets = new TokenBuckets({ ratePerSecond: 10, burst: 1 }, () => now);
    expect(buckets.reserve('p', 1000)).toBe(0);
    expect(buckets.reserve('p', 1000)).toBe(100);
    expect(buckets.reserve('p', 1000)).toBe(200);
    expect(buckets.reserve('p', 150)).toBe(-1);
    now = 1000;
    expect(buckets.take('p')).toBe(true);
  });

  it('allows a burst, then the refill rate', () => {
    let now = 0;
    const buckets = new TokenBuckets({ ratePerSecond: 2, burst: 3 }, () => now);
    expect([1, 2, 3, 4].map(() => buckets.take('ip'))).toEqual([true, true, true, false]);
    now = 500;
    expect(buckets.take('ip')).toBe(true);
    expect(buckets.take('ip')).toBe(false);
  });
});

describe('ViewCounter', () => {
  it('writes one aggregated count per design and keeps failed counts for the next flush', async () => {
    const writes: Array<[string, number]> = [];
    let fail = true;
    const counter = new ViewCounter(
      async (id, n) => {
        if (fail) throw new Error('throttled');
        writes.push([id, n]);
      },
      60_000,
      1000,
    );
    for (let i = 0; i < 5; i++) counter.count('d1');
    counter.count('d2');
    await counter.flush();
    expect(writes).toEqual([]);
    fail = false;
    counter.count('d1');
    await counter.flush();
    expect(writes.sort()).toEqual([
      ['d1', 6],
      ['d2', 1],
    ]);
  });
});

describe('recent fallbacks', () => {
  const limited = { ...req('/r/pub.jpg', 'first_name=Ana'), edgeLimited: true };
  const fallbackDraws = (render: { mock: { calls: unknown[][] } }) =>
    render.mock.calls.filter((c) => Object.keys(c[1] as object).length === 0).length;

  it('draws a partial fallback once for concurrent and later requests, answered no-store', async () => {
    const render = vi.fn(async () => {
      await new Promise((r) => setTimeout(r, 5));
      return { body: Buffer.from('partial'), contentType: 'image/jpeg' as const, partial: true };
    });
    const { svc } = service({ render });
    const answers = await Promise.all([1, 2, 3].map(() => svc.handle(limited)));
    answers.push(await svc.handle(limited));
    for (const a of answers) {
      expect(a.headers?.['cache-control']).toBe('no-store');
      expect(bodyOf(a)).toBe('partial');
    }
    expect(fallbackDraws(render)).toBe(1);
  });

  it('answers the placeholder after a failed fallback draw without drawing again', async () => {
    const render = vi.fn(async () => {
      throw new Error('chromium went away');
    });
    const { svc } = service({ render });
    for (let i = 0; i < 3; i++) {
      const res = await svc.handle(limited);
      expect(res.headers?.['cache-control']).toBe('no-store');
      expect(bodyOf(res)).toBe('placeholder');
    }
    expect(fallbackDraws(render)).toBe(1);
  });

  it('keeps a good fallback in the render caches, as before', async () => {
    const { svc, render, stored } = service();
    await svc.handle(limited);
    await svc.handle(limited);
    expect(fallbackDraws(render)).toBe(1);
    expect(stored.size).toBe(1);
  });

  it('bounds the entries and bytes, and forgets an entry after its time', () => {
    const t0 = Date.parse('2026-11-24T10:00:00Z');
    let now = t0;
    const recent = new RecentFallbacks(30_000, 2, 10, () => now);
    recent.set('a', Buffer.from('12345'));
    recent.set('b', undefined);
    recent.set('c', Buffer.from('123'));
    expect(recent.get('a')).toBeUndefined();
    expect(recent.get('b')).toEqual({ body: undefined });
    recent.set('d', Buffer.from('12345678'));
    expect(recent.get('c')).toBeUndefined();
    expect(recent.size).toBeLessThanOrEqual(2);
    recent.set('e', Buffer.from('x'.repeat(11)));
    expect(recent.get('e')).toBeUndefined();
    // Answered for 30 s from the draw; reads do not extend it.
    now = t0 + 30_000;
    expect(recent.get('d')).toEqual({ body: Buffer.from('12345678') });
    now = t0 + 30_001;
    expect(recent.get('d')).toBeUndefined();
  });
});

/** The test design under `designId`, its `first_name` looked up in a store by `email`. */
const storeBound = (designId: string) => ({
  ...design,
  designId,
  document: DesignDocumentSchema.parse({
    ...doc,
    data_bindings: [
      {
        source: 'store',
        source_id: 'store-1',
        key_param: 'email',
        fields: [{ field: 'name', param: 'first_name' }],
      },
    ],
  }),
});

describe('open-time work comes after the budgets', () => {
  const bound = storeBound('d-bound');
  const tight = { ...DEFAULT_LIMITS, perIp: { ratePerSecond: 0.001, burst: 2 } };
  function boundService(limits = tight) {
    const dataValues = vi.fn(async () => ({
      values: [['first_name', 'Looked-up']] as Array<[string, string]>,
      failed: false,
    }));
    const { svc } = service({
      findDesign: async (id) => (id === 'bound' ? bound : undefined),
      dataValues,
      limits,
    });
    return { svc, dataValues };
  }

  it('looks up for an address within its budget, then gives the fallbacks uncached without looking up', async () => {
    const { svc, dataValues } = boundService();
    for (const email of ['a@x.test', 'b@x.test']) {
      const ok = await svc.handle(req('/r/bound.jpg', `email=${email}`));
      expect(bodyOf(ok)).toContain('Looked-up');
      expect(ok.headers?.['cache-control']).not.toBe('no-store');
    }
    const past = await svc.handle(req('/r/bound.jpg', 'email=c@x.test'));
    expect(dataValues).toHaveBeenCalledTimes(2);
    expect(bodyOf(past)).not.toContain('Looked-up');
    expect(past.headers?.['cache-control']).toBe('no-store');
    // Another address has its own budget.
    await svc.handle(req('/r/bound.jpg', 'email=d@x.test', '5.6.7.8'));
    expect(dataValues).toHaveBeenCalledTimes(3);
  });

  it('never looks up for an address the edge counted over its budget, nor on its link', async () => {
    const { svc, dataValues } = boundService(DEFAULT_LIMITS);
    const limited = { ...req('/r/bound.jpg', 'email=a@x.test'), edgeLimited: true };
    const answer = await svc.handle(limited);
    expect(answer.headers?.['cache-control']).toBe('no-store');
    await svc.link({ ...req('/l/bound', 'email=a@x.test'), edgeLimited: true });
    expect(dataValues).not.toHaveBeenCalled();
  });

  it('spends the same budget on the link as on the image', async () => {
    const { svc, dataValues } = boundService();
    await svc.link(req('/l/bound', 'email=a@x.test'));
    await svc.link(req('/l/bound', 'email=b@x.test'));
    await svc.handle(req('/r/bound.jpg', 'email=c@x.test'));
    expect(dataValues).toHaveBeenCalledTimes(2);
  });

  it('never looks up for a proxy address the edge counted over a proxy’s budget', async () => {
    const { svc, dataValues } = boundService(DEFAULT_LIMITS);
    const gmail =
      'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';
    const over = await svc.handle({
      ...req('/r/bound.jpg', 'email=a@x.test', '66.249.84.1'),
      userAgent: gmail,
      edgeProxyLimited: true,
    });
    expect(over.headers?.['cache-control']).toBe('no-store');
    expect(dataValues).not.toHaveBeenCalled();
  });

  it('leaves a send list’s pre-render outside the per-address budget', async () => {
    const { svc, dataValues } = boundService();
    for (let i = 0; i < 4; i++)
      await svc.handle({ ...req('/r/bound.jpg', `email=p${i}@x.test`), prerender: true });
    expect(dataValues).toHaveBeenCalledTimes(4);
  });
});

/**
 * Open-time work as the team's usage (docs/security.md "Counted as the team's renders"): the
 * real month counter (usage.ts) over a store in memory, a team allowed `quota` renders a month.
 */
describe('open-time work counts as the team’s renders', () => {
  const bound = storeBound('d-counted');
  function countedService(quota: number) {
    let total = 0;
    const usage = new RenderUsage(
      {
        read: async () => total,
        add: async (_team, _month, n) => (total += n),
        claimNotice: async () => false,
      },
      async () => undefined,
      { maxPending: 1_000_000 },
    );
    const dataValues = vi.fn(async () => ({
      values: [['first_name', 'Looked-up']] as Array<[string, string]>,
      failed: false,
    }));
    const { svc, render } = service({
      findDesign: async (id) => (id === 'bound' ? bound : id === 'pub' ? design : undefined),
      dataValues,
      usage,
      teamAllowance: async () => ({ rendersPerMonth: quota, rendersPerSecond: 1000, burst: 1000 }),
    });
    return { svc, render, dataValues, used: () => usage.used(design.teamId) };
  }

  // Mutation check: without mayWorkAtOpen's countDraw the cache hit counts nothing (1, not 2).
  it('counts one render per request that looks up, drawn or answered from a cache', async () => {
    const { svc, render, used } = countedService(100);
    const first = await svc.handle(req('/r/bound.jpg', 'email=a@x.test'));
    expect(bodyOf(first)).toContain('Looked-up');
    expect(used()).toBe(1);
    const again = await svc.handle(req('/r/bound.jpg', 'email=a@x.test', '5.6.7.8'));
    expect(again.headers?.['x-render-cache']).toBe('memory');
    expect(render).toHaveBeenCalledTimes(1);
    expect(used()).toBe(2);
    // A design without open-time work counts its draws only, as before.
    await svc.handle(req('/r/pub.jpg', 'first_name=a'));
    await svc.handle(req('/r/pub.jpg', 'first_name=a'));
    expect(used()).toBe(3);
  });

  // Mutation check: without the quota check in mayWorkAtOpen the third request looks up.
  it('looks nothing up past the month’s quota: the fallback, as for any render past it', async () => {
    const { svc, dataValues, used } = countedService(2);
    await svc.handle(req('/r/bound.jpg', 'email=a@x.test'));
    await svc.handle(req('/r/bound.jpg', 'email=b@x.test'));
    expect(used()).toBe(2);
    const past = await svc.handle(req('/r/bound.jpg', 'email=c@x.test'));
    expect(dataValues).toHaveBeenCalledTimes(2);
    expect(bodyOf(past)).not.toContain('Looked-up');
    expect(past.headers?.['cache-control']).toBe(QUOTA_FALLBACK_CACHE);
    expect(used()).toBe(2);
  });

  it('lets the request whose lookup took the last render of the month draw', async () => {
    const { svc, render } = countedService(1);
    const last = await svc.handle(req('/r/bound.jpg', 'email=a@x.test'));
    expect(bodyOf(last)).toContain('Looked-up');
    expect(render).toHaveBeenCalledTimes(1);
    expect(last.headers?.['cache-control']).not.toBe('no-store');
  });
});
