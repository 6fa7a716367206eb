/**
 * The outside-fetch cap of a render (functions/render/fetch-budget.ts, docs/security.md
 * "Design bounds"): at most 4 fetches per render, the stickers past them drawing their kept
 * fallback or nothing, and such a render marked incomplete (not cached). The sticker test runs
 * `stickerImages` against a fixture server on loopback that the SSRF guard treats as public
 * (SSRF_TEST_PUBLIC_PORTS, STAGE=test) and counts what reaches it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  drawWithinBudget,
  FetchBudget,
  FetchBudgetSpent,
  MAX_RENDER_FETCHES,
} from '#functions/render/fetch-budget.ts';
import { DesignDocumentSchema, type DesignDocument } from '#shared/design.ts';

describe('FetchBudget', () => {
  it('gives 4 fetches, then counts the refusals', () => {
    const budget = new FetchBudget();
    expect(MAX_RENDER_FETCHES).toBe(4);
    expect([1, 2, 3, 4, 5, 6].map(() => budget.take())).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(budget.refused).toBe(2);
  });
});

describe('drawWithinBudget', () => {
  /** A draw that has `kept` images cached and `slots` fetches left. */
  const drawer = (kept: string[], slots: number) => {
    const budget = new FetchBudget(slots);
    const asked: string[] = [];
    const draw = async (value: string) => {
      asked.push(value);
      if (kept.includes(value)) return `image of ${value}`;
      if (!budget.take()) throw new FetchBudgetSpent();
      return `fetched ${value}`;
    };
    return { draw, asked };
  };

  it('fetches the value while the budget lasts', async () => {
    const { draw } = drawer([], 1);
    expect(await drawWithinBudget('a.png', 'f.png', draw)).toBe('fetched a.png');
  });

  it('draws the kept fallback past the budget, else nothing', async () => {
    const kept = drawer(['f.png'], 0);
    expect(await drawWithinBudget('a.png', 'f.png', kept.draw)).toBe('image of f.png');
    const none = drawer([], 0);
    expect(await drawWithinBudget('a.png', 'f.png', none.draw)).toBeUndefined();
    expect(none.asked).toEqual(['a.png', 'f.png']);
  });

  it('draws nothing for an empty value and does not ask twice for the same one', async () => {
    const { draw, asked } = drawer([], 0);
    expect(await drawWithinBudget('', 'f.png', draw)).toBeUndefined();
    expect(await drawWithinBudget('f.png', 'f.png', draw)).toBeUndefined();
    expect(asked).toEqual(['f.png']);
  });

  it('lets other failures through', async () => {
    const boom = () => Promise.reject(new Error('boom'));
    await expect(drawWithinBudget('a.png', 'f.png', boom)).rejects.toThrow('boom');
  });
});

describe('stickerImages under the cap', () => {
  let server: Server;
  let base = '';
  const hits: string[] = [];

  beforeAll(async () => {
    const png = (r: number, g: number, b: number) =>
      sharp({ create: { width: 8, height: 8, channels: 3, background: { r, g, b } } })
        .png()
        .toBuffer();
    const [red, green] = await Promise.all([png(200, 30, 30), png(30, 200, 30)]);
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      res
        .writeHead(200, { 'content-type': 'image/png' })
        .end(req.url === '/fallback.png' ? green : red);
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
    process.env.SSRF_TEST_PUBLIC_PORTS = String(port);
    const { resetConfig } = await import('#lib/config.ts');
    resetConfig();
  });

  afterAll(async () => {
    await new Promise((ok) => server?.close(ok));
  });

  /** Six hosted-image stickers, `hostedIcon1`…`hostedIcon6`, fallback `/fallback.png`. */
  const design = (): DesignDocument =>
    DesignDocumentSchema.parse({
      image_id: 'photo',
      base_image_key: 'files/photo.jpg',
      graphics_data: [1, 2, 3, 4, 5, 6].map((n) => ({
        uuid: `s${n}`,
        stickerType: 'dynamicSticker',
        dynamicStickerType: 'hostedImage',
        dynamicStickerParamName: `hostedIcon${n}`,
        dynamicStickerUrl: `${base}/fallback.png`,
        left: n * 10,
        top: 0,
      })),
    });
  const values = (run: string) =>
    Object.fromEntries(
      [1, 2, 3, 4, 5, 6].map((n) => [`hostedIcon${n}`, `${base}/${run}/${n}.png`]),
    );

  it('fetches 4 recipient images, then draws kept fallbacks or nothing', async () => {
    const { stickerImages } = await import('#functions/render/stickers.ts');
    const doc = design();

    // Nothing kept: the first four stickers fetch, the last two draw nothing.
    const first = await stickerImages(doc, values('one'));
    expect([...hits].sort()).toEqual(['/one/1.png', '/one/2.png', '/one/3.png', '/one/4.png']);
    expect(Object.keys(first.images).sort()).toEqual(['s1', 's2', 's3', 's4']);
    expect(first.complete).toBe(false);

    // The all-fallback render: one fetch of the shared fallback, every sticker drawn.
    const fallbacks = await stickerImages(doc, {});
    expect(hits.slice(4)).toEqual(['/fallback.png']);
    expect(Object.keys(fallbacks.images)).toHaveLength(6);
    expect(fallbacks.complete).toBe(true);

    // New recipient values: four fetches again; the last two draw the kept fallback.
    const second = await stickerImages(doc, values('two'));
    expect(hits.slice(5).sort()).toEqual(['/two/1.png', '/two/2.png', '/two/3.png', '/two/4.png']);
    expect(second.images.s5).toBe(fallbacks.images.s5);
    expect(second.images.s6).toBe(fallbacks.images.s6);
    expect(second.images.s1).not.toBe(fallbacks.images.s1);
    expect(second.complete).toBe(false);

    // The same values again: all four kept, so the next two get their turn.
    const third = await stickerImages(doc, values('two'));
    expect(hits.slice(9).sort()).toEqual(['/two/5.png', '/two/6.png']);
    expect(third.complete).toBe(true);
  });
});
