/**
 * Watermarks through the real render path (docs/adr/0057-watermark.md "Watermark"; the local stack
 * with DynamoDB Local, the S3 emulator and Chromium): the product mark on a free team's designs and
 * not on a paid one's, the team's watermark where shared/scene/watermark.ts places it when a design
 * shows it and gone when it does not, and a new render (not a cached one) whenever the plan or the
 * watermark image changes.
 */
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../support/client.ts';
import { createDesign, ownTeam, type DesignJson } from '../support/designs.ts';
import { fetchImage, pollUntil, useLocalStack } from '../support/stack.ts';
import { productMarkBox, teamWatermarkBox } from '#shared/scene/watermark.ts';

const stack = useLocalStack();

let client: TestClient;
let teamId: string;
let design: DesignJson;

beforeAll(async () => {
  client = await ownTeam(stack().url, `watermark-${Date.now()}@example.com`);
  const team = await client.request('GET', '/settings/companies/current');
  teamId = team.json.id as string;
  design = await createDesign(client);
});

/** A solid, opaque PNG of one colour, `width` x `height` px. */
const solid = (width: number, height: number, rgb: [number, number, number]) =>
  sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .png()
    .toBuffer();

async function uploadWatermark(png: Buffer) {
  const form = new FormData();
  form.append('watermark', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'logo.png');
  return client.request('POST', `/settings/companies/${teamId}/watermark`, form);
}

/** The render handler forgets the team's plan and watermark it keeps for a minute. */
async function forgetTeams() {
  const { forgetRenderTeams } = await import('#functions/render/handler.ts');
  forgetRenderTeams();
}

async function setPlan(planId: string) {
  const { db } = await import('#lib/db/index.ts');
  await db().Team.patch({ teamId }).set({ planId }).go();
  await forgetTeams();
}

async function save(fields: Record<string, unknown>) {
  const res = await client.request('PUT', `/api/pic-snippet/${design.id}`, {
    version: design.version,
    ...fields,
  });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  design.version = res.json.version as number;
}

const path = () => `/r/${design.public_id}.png?first_name=Mark`;

/** A PNG render (lossless, so pixels compare exactly), with the service's cache answer. */
async function render() {
  const image = await fetchImage(`${stack().url}${path()}`);
  expect(image.res.status).toBe(200);
  expect(image.res.headers.get('content-type')).toBe('image/png');
  return { ...image, hit: image.res.headers.get('x-render-cache') };
}

type Rendered = Awaited<ReturnType<typeof render>>;

/** The RGB of a pixel. */
const at = (r: Rendered, x: number, y: number) => {
  const i = (Math.round(y) * r.width + Math.round(x)) * 3;
  return [r.pixels[i]!, r.pixels[i + 1]!, r.pixels[i + 2]!];
};

/** The first render at the URL that is not the answer kept in memory from before. */
const newRender = (before: Rendered, what: string) =>
  pollUntil(what, render, (r) => r.hit === 'miss' || !r.bytes.equals(before.bytes));

describe('watermarks in the render', () => {
  it('draws the product mark for the free plan, the team watermark when shown, and changes the cache key', async () => {
    // Free plan: the product mark sits at the bottom right.
    const free = await render();
    const canvas = { width: free.width, height: free.height };
    const mark = productMarkBox(canvas);
    expect(mark).toMatchObject({ left: canvas.width - 180, top: canvas.height - 60 });
    // The pill's dark background, below the lettering.
    const inPill = { x: mark.left + 80, y: mark.top + 37 };

    // A paid plan: no product mark, and a new draw (the plan is part of the cache key).
    await setPlan('pro-monthly');
    const paid = await newRender(free, 'a render without the product mark');
    expect(paid.hit).toBe('miss');
    const photo = at(paid, inPill.x, inPill.y);
    const marked = at(free, inPill.x, inPill.y);
    // The dark pill at 0.9 × 0.78 opacity over the photo: every channel much darker.
    for (let c = 0; c < 3; c++) {
      expect(marked[c]!).toBeLessThan(photo[c]! * 0.45 + 30);
    }
    // Away from the marks both draws are the same photo.
    expect(at(free, canvas.width / 2, canvas.height / 2)).toEqual(
      at(paid, canvas.width / 2, canvas.height / 2),
    );

    // The team sets a red watermark (400 x 200 px); the design does not show it yet.
    const uploaded = await uploadWatermark(await solid(400, 200, [255, 0, 0]));
    expect(uploaded.status, JSON.stringify(uploaded.json)).toBe(200);
    expect(uploaded.json.watermark).toMatchObject({ width: 400, height: 200 });
    const current = await client.request('GET', '/settings/companies/current');
    expect(current.json).toMatchObject({
      watermark: { url: (uploaded.json.watermark as { url: string }).url },
      product_watermark: false,
    });
    await forgetTeams();
    const hidden = await render();
    expect(hidden.bytes.equals(paid.bytes)).toBe(true);

    // Shown: a 100 x 50 px box at 10,10, red at half opacity over the photo.
    await save({ show_watermark: true });
    const shown = await newRender(paid, 'a render with the watermark');
    const box = teamWatermarkBox({ width: 400, height: 200 }, canvas);
    expect(box).toEqual({ left: 10, top: 10, width: 100, height: 50, opacity: 0.5 });
    for (const [x, y] of [
      [20, 20],
      [60, 35],
      [100, 50],
    ] as const) {
      const [r, g, b] = at(shown, x, y);
      const [pr, pg, pb] = at(paid, x, y);
      expect(Math.abs(r! - (255 + pr!) / 2), `red at ${x},${y}`).toBeLessThanOrEqual(3);
      expect(Math.abs(g! - pg! / 2), `green at ${x},${y}`).toBeLessThanOrEqual(3);
      expect(Math.abs(b! - pb! / 2), `blue at ${x},${y}`).toBeLessThanOrEqual(3);
    }
    // Outside its box the photo is untouched.
    expect(at(shown, 130, 30)).toEqual(at(paid, 130, 30));
    expect(at(shown, 60, 75)).toEqual(at(paid, 60, 75));

    // A new image (blue) for the same design and URL: a new cache key, drawn again.
    await uploadWatermark(await solid(400, 200, [0, 0, 255]));
    await forgetTeams();
    const blue = await newRender(shown, 'a render with the new watermark');
    expect(blue.hit).toBe('miss');
    const [br, , bb] = at(blue, 60, 35);
    const [pr, , pb] = at(paid, 60, 35);
    expect(Math.abs(br! - pr! / 2)).toBeLessThanOrEqual(3);
    expect(Math.abs(bb! - (255 + pb!) / 2)).toBeLessThanOrEqual(3);

    // Switched off on the design: gone again.
    await save({ show_watermark: false });
    const off = await newRender(blue, 'a render without the watermark');
    expect(at(off, 60, 35)).toEqual(at(paid, 60, 35));

    // Back on the free plan: the product mark returns.
    await setPlan('free');
    const again = await newRender(off, 'a render with the product mark again');
    // (The SVG's antialiasing may move a channel by a level between draws.)
    at(again, inPill.x, inPill.y).forEach((v, c) =>
      expect(Math.abs(v - marked[c]!)).toBeLessThanOrEqual(2),
    );
  });

  it('draws a new watermark at once in a design saved after it, without waiting for the kept plan', async () => {
    // The render keeps the team's settings for a minute; this render reads them.
    const before = await render();
    expect(before.res.status).toBe(200);
    const uploaded = await uploadWatermark(await solid(400, 200, [0, 255, 0]));
    expect(uploaded.status, JSON.stringify(uploaded.json)).toBe(200);
    // No forgetting: the save (a later version of a design the kept read served) reads again.
    await save({ show_watermark: true });
    // (The render keeps a design for a second: the first new draw is the saved version's.)
    const shown = await newRender(before, 'a render of the saved design');
    const [r, g] = at(shown, 60, 35);
    expect(g! - r!, 'green over the photo at 60,35').toBeGreaterThan(60);
    await save({ show_watermark: false });
  });

  it('leaves out a watermark it cannot read and keeps that render out of every cache', async () => {
    await setPlan('pro-monthly');
    await uploadWatermark(await solid(300, 100, [0, 160, 0]));
    // The team names a file that is not there: what a render container sees for up to a minute
    // after the team replaced its watermark (the old file is deleted at once), or a failed read.
    // (A name never used, so no render has the image in memory.)
    const { db } = await import('#lib/db/index.ts');
    await db()
      .Team.patch({ teamId })
      .set({ watermarkUrl: `/files/watermarks/gone-${Date.now()}.png` })
      .go();
    await forgetTeams();
    await save({ show_watermark: true });

    // The image still comes (never broken), without the logo, and nothing keeps it. (Polled:
    // the render reads a design for up to a second after a save.)
    const first = await pollUntil('a render of the saved version', render, (r) =>
      (r.res.headers.get('cache-control') ?? '').includes('no-store'),
    );
    const second = await render();
    expect(second.hit).toBe('miss');
    expect(second.res.headers.get('cache-control')).toContain('no-store');

    // A new watermark, read again by the render: drawn and cached as usual.
    await uploadWatermark(await solid(300, 100, [160, 0, 160]));
    await forgetTeams();
    const fixed = await newRender(second, 'a render with the new watermark');
    expect(fixed.res.headers.get('cache-control')).not.toContain('no-store');
    // A 75 x 25 px box at 10,10 (a quarter of 300 x 100).
    const [r, g, b] = at(fixed, 40, 20);
    const [pr, pg, pb] = at(first, 40, 20);
    expect(Math.abs(r! - (160 + pr!) / 2)).toBeLessThanOrEqual(3);
    expect(Math.abs(g! - pg! / 2)).toBeLessThanOrEqual(3);
    expect(Math.abs(b! - (160 + pb!) / 2)).toBeLessThanOrEqual(3);
    await save({ show_watermark: false });
  });

  it('refuses a watermark that is not an image, with a field error, and removes one', async () => {
    const form = new FormData();
    form.append('watermark', new Blob(['not an image'], { type: 'image/png' }), 'logo.png');
    const refused = await client.request('POST', `/settings/companies/${teamId}/watermark`, form);
    expect(refused.status).toBe(422);
    expect(refused.json).toMatchObject({
      errors: { watermark: ['The watermark must be a JPG, PNG, GIF, WebP or BMP image.'] },
    });

    const removed = await client.request('DELETE', `/settings/companies/${teamId}/watermark`);
    expect(removed.status).toBe(200);
    const current = await client.request('GET', '/settings/companies/current');
    expect(current.json.watermark).toBeNull();
  });
});
