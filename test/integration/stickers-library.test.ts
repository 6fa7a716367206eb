/**
 * The sticker library (docs/adr/0021-sticker-library.md "Sticker library" `POST /getStickers`,
 * `/getFavorites`, `/getUploads`, `/getPacksStickers`, `/addToFavorite`, `/deleteUploadSticker`,
 * `POST /image` with `type=asIcon`; docs/adr/0014-the-design-document-versions-and-restore.md "The
 * design document: versions and restore" shapes; docs/adr/0021-sticker-library.md "Sticker
 * library"): the seeded real packs with their licences, drill-down, search, paging, favourites per
 * user, uploads per team, seeded and uploaded stickers drawn in a real render, and the kiosk's pack
 * calls (docs/kiosk.md "Sticker packs" Kiosk packs).
 */
import { readFile } from 'node:fs/promises';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { disguisedImages, sharpReads } from '../support/disguised.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../support/client.ts';
import { createDesign, ownTeam, signedIn } from '../support/designs.ts';
import { fetchImage, useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();
const url = (path: string) => `${stack().url}${path}`;

interface Item {
  id: string;
  type: string;
  pack_id: string | null;
  icon_url: string;
  is_favorite: boolean;
  name?: string;
  url?: string;
  [field: string]: unknown;
}
interface ListAnswer {
  success: boolean;
  data: Item[];
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
  dynamic?: Item[];
  pack?: Item;
}

const SEEDED_PACKS = ['Celebration', 'Food & Drink', 'Shopping', 'Arrows & Badges'];

let demo: TestClient;
let admin: TestClient;
beforeAll(async () => {
  demo = await signedIn(stack().url, 'demo@example.com');
  admin = await signedIn(stack().url, 'admin@example.com');
});

async function list(
  client: TestClient,
  path: string,
  body: Record<string, unknown> = {},
  page?: number,
): Promise<ListAnswer> {
  const res = await client.request('POST', page ? `${path}?page=${page}` : path, body);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json as unknown as ListAnswer;
}

/** Fetches a served image and checks it is a PNG with nosniff; returns its size in px. */
async function servedPng(path: string) {
  const res = await fetch(url(path));
  expect(res.status, path).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/png');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
  return { width: meta.width, height: meta.height, format: meta.format };
}

const ids = (answer: ListAnswer) => answer.data.map((i) => i.id);

describe('the library (POST /getStickers)', () => {
  it('lists the seeded packs in order, with served covers, and the five dynamic stickers', async () => {
    const answer = await list(demo, '/getStickers');
    expect(answer).toMatchObject({ success: true, current_page: 1, last_page: 1, per_page: 24 });
    expect(answer.data.map((p) => p.pack_name)).toEqual(SEEDED_PACKS);
    expect(answer.total).toBe(SEEDED_PACKS.length);
    const celebration = answer.data[0]!;
    expect(celebration).toEqual({
      id: 'pack-celebration',
      type: 'pack',
      pack_id: 'pack-celebration',
      pack_name: 'Celebration',
      cover_image: expect.stringMatching(/^\/files\/stickers\/pack-celebration\/.+\.png$/),
      icon_url: celebration.cover_image,
      is_favorite: false,
      sticker_count: 45,
      attribution: expect.stringContaining('CC BY 4.0'),
    });
    for (const pack of answer.data) {
      expect(pack.sticker_count).toBeGreaterThanOrEqual(30);
      expect(await servedPng(pack.cover_image as string)).toMatchObject({ width: 512 });
    }

    expect(answer.dynamic!.map((d) => d.sticker_type)).toEqual([
      'qrCode',
      'gravatar',
      'hostedImage',
      'screenShot',
      'countdown',
      'poll',
      'weather',
    ]);
    const screenshot = answer.dynamic![3]!;
    expect(screenshot).toEqual({
      id: 'dynamic-screenShot',
      type: 'dynamic sticker',
      sticker_name: 'Screenshot',
      description: expect.any(String),
      sticker_type: 'screenShot',
      icon_url: expect.stringMatching(/^data:image\/svg\+xml;base64,/),
      width: 910,
      height: 512,
    });
    const svg = Buffer.from(screenshot.icon_url.split(',')[1]!, 'base64');
    expect((await sharp(svg).metadata()).format).toBe('svg');
  });

  it('ships each seeded pack with its licence and attribution', async () => {
    const licences = {
      celebration: ['Twemoji', 'Attribution 4.0 International'],
      'food-drink': ['OpenMoji', 'Attribution-ShareAlike 4.0 International'],
      shopping: ['Tabler Icons', 'MIT License'],
      'arrows-badges': ['Tabler Icons', 'MIT License'],
    };
    for (const [dir, words] of Object.entries(licences)) {
      const text = await readFile(
        new URL(`../../infra/seed/stickers/${dir}/LICENSE`, import.meta.url),
        'utf8',
      );
      for (const w of words) expect(text, dir).toContain(w);
    }
  });

  it('searches pack names and sticker names and keywords, best matches first', async () => {
    const shop = await list(demo, '/getStickers', { search: 'shop' });
    expect(shop.data[0]).toMatchObject({ type: 'pack', pack_name: 'Shopping' });
    const names = shop.data.filter((i) => i.type === 'icon').map((i) => i.name);
    expect(names).toContain('shopping cart');

    // "tada" is only a keyword of the party popper; case and accents do not matter.
    const tada = await list(demo, '/getStickers', { search: '  TÁDA ' });
    expect(tada.data.map((i) => i.name)).toContain('party popper');
    expect(tada.data.every((i) => i.type === 'icon')).toBe(true);

    const cake = await list(demo, '/getStickers', { search: 'birthday cake' });
    expect(cake.data[0]).toMatchObject({ type: 'icon', name: 'birthday cake' });
    expect(
      new Set(cake.data.filter((i) => i.name === 'birthday cake').map((i) => i.pack_id)),
    ).toEqual(new Set(['pack-celebration', 'pack-food-drink']));

    const qr = await list(demo, '/getStickers', { search: 'qr' });
    expect(qr.dynamic!.map((d) => d.sticker_type)).toEqual(['qrCode']);

    const none = await list(demo, '/getStickers', { search: 'zzzzqx' });
    expect(none).toMatchObject({ data: [], total: 0, current_page: 1, last_page: 1, dynamic: [] });

    const long = await demo.request('POST', '/getStickers', { search: 'x'.repeat(101) });
    expect(long.status).toBe(422);
    expect(long.json.errors).toEqual({
      search: ['The search may not be greater than 100 characters.'],
    });
  });

  it('is for signed-in users only', async () => {
    const { TestClient } = await import('../support/client.ts');
    const anonymous = new TestClient(stack().url);
    expect((await anonymous.request('POST', '/getStickers', {})).status).toBe(401);
  });
});

describe("a pack's stickers (POST /getPacksStickers)", () => {
  it('pages the pack in its order, 24 a page, with served 512 px images', async () => {
    const first = await list(demo, '/getPacksStickers', { id: 'pack-celebration' });
    expect(first).toMatchObject({
      success: true,
      current_page: 1,
      last_page: 2,
      per_page: 24,
      total: 45,
      pack: { id: 'pack-celebration', pack_name: 'Celebration', is_favorite: false },
    });
    expect(first.data).toHaveLength(24);
    const popper = first.data[0]!;
    expect(popper).toEqual({
      id: 'icon-celebration-party-popper',
      type: 'icon',
      pack_id: 'pack-celebration',
      name: 'party popper',
      icon_url: `/${popper.url}`,
      url: expect.stringMatching(/^files\/stickers\/pack-celebration\/party-popper-\w+\.png$/),
      sticker_type: 'plain',
      width: 512,
      height: 512,
      is_favorite: false,
    });
    expect(await servedPng(`/${popper.url}`)).toMatchObject({ width: 512, height: 512 });

    const second = await list(demo, '/getPacksStickers', { id: 'pack-celebration' }, 2);
    expect(second.data).toHaveLength(21);
    const all = [...ids(first), ...ids(second)];
    expect(new Set(all).size).toBe(45);
    const past = await list(demo, '/getPacksStickers', { id: 'pack-celebration' }, 3);
    expect(past).toMatchObject({ data: [], current_page: 3, last_page: 2 });

    const searched = await list(demo, '/getPacksStickers', { id: 'pack-shopping', search: 'cart' });
    expect(searched.data.length).toBeGreaterThan(0);
    expect(searched.data.every((i) => i.pack_id === 'pack-shopping')).toBe(true);
  });

  it('answers 404 for an unknown pack and 422 for a missing id or a bad page', async () => {
    const unknown = await demo.request('POST', '/getPacksStickers', { id: 'pack-nope' });
    expect(unknown.status).toBe(404);
    expect(unknown.json.message).toBe('Sticker pack not found.');
    const missing = await demo.request('POST', '/getPacksStickers', {});
    expect(missing.status).toBe(422);
    expect(missing.json.errors).toEqual({ id: ['The pack id is required.'] });
    const bad = await demo.request('POST', '/getPacksStickers?page=0', { id: 'pack-shopping' });
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toEqual({ page: ['The page must be at least 1.'] });
  });
});

describe('favourites (POST /addToFavorite, /getFavorites)', () => {
  it('toggles a sticker and a pack for the user only, newest first', async () => {
    const user = await ownTeam(stack().url, 'fav-fan@example.org');
    expect((await list(user, '/getFavorites')).data).toEqual([]);

    const on = await user.request('POST', '/addToFavorite', {
      id: 'icon-celebration-party-popper',
      type: 'icon',
    });
    expect(on.status).toBe(200);
    expect(on.json).toEqual({
      success: true,
      id: 'icon-celebration-party-popper',
      type: 'icon',
      is_favorite: true,
      message: 'Added to favorites.',
    });
    await user.request('POST', '/addToFavorite', { id: 'pack-shopping', type: 'pack' });

    const favorites = await list(user, '/getFavorites');
    expect(favorites.data.map((i) => [i.type, i.id, i.is_favorite])).toEqual([
      ['pack', 'pack-shopping', true],
      ['icon', 'icon-celebration-party-popper', true],
    ]);
    const pack = await list(user, '/getPacksStickers', { id: 'pack-celebration' });
    expect(pack.data.find((i) => i.id === 'icon-celebration-party-popper')!.is_favorite).toBe(true);
    expect(pack.data.filter((i) => i.is_favorite)).toHaveLength(1);
    const library = await list(user, '/getStickers');
    expect(library.data.filter((p) => p.is_favorite).map((p) => p.id)).toEqual(['pack-shopping']);
    const searched = await list(user, '/getFavorites', { search: 'popper' });
    expect(ids(searched)).toEqual(['icon-celebration-party-popper']);

    // Someone else's favourites are their own.
    expect(ids(await list(demo, '/getFavorites'))).not.toContain('icon-celebration-party-popper');

    // Setting the state is idempotent; toggling again removes it.
    const set = await user.request('POST', '/addToFavorite', {
      id: 'pack-shopping',
      type: 'pack',
      is_favorite: true,
    });
    expect(set.json.is_favorite).toBe(true);
    const off = await user.request('POST', '/addToFavorite', {
      id: 'icon-celebration-party-popper',
      type: 'icon',
    });
    expect(off.json).toMatchObject({ is_favorite: false, message: 'Removed from favorites.' });
    expect(ids(await list(user, '/getFavorites'))).toEqual(['pack-shopping']);
  });

  it('refuses unknown items and types', async () => {
    const unknown = await demo.request('POST', '/addToFavorite', { id: 'icon-x', type: 'icon' });
    expect(unknown.status).toBe(404);
    expect(unknown.json.message).toBe('Sticker not found.');
    // A pack id is not a sticker id.
    const wrongKind = await demo.request('POST', '/addToFavorite', {
      id: 'pack-shopping',
      type: 'icon',
    });
    expect(wrongKind.status).toBe(404);
    const badType = await demo.request('POST', '/addToFavorite', {
      id: 'pack-shopping',
      type: 'x',
    });
    expect(badType.status).toBe(422);
    expect(badType.json.errors).toEqual({
      type: ['The type must be one of: pack, icon, custom_sticker.'],
    });
  });
});

function stickerUpload(bytes: Uint8Array, name: string) {
  const data = new FormData();
  data.append('type', 'asIcon');
  data.append('image', new Blob([Uint8Array.from(bytes)]), name);
  return data;
}

/** Uploads a solid `size` px square PNG of `colour` as the demo team's sticker. */
async function uploadSolid(colour: string, name: string, size = 64): Promise<Item> {
  const png = await sharp({
    create: { width: size, height: size, channels: 4, background: colour },
  })
    .png()
    .toBuffer();
  const res = await demo.request('POST', '/image', stickerUpload(png, name));
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return (res.json as { sticker: Item }).sticker;
}

/** Keys the assets bucket holds under a prefix. */
async function storedKeys(prefix: string): Promise<string[]> {
  const { s3Client } = await import('#lib/clients.ts');
  const res = await s3Client().send(
    new ListObjectsV2Command({ Bucket: process.env.ASSETS_BUCKET, Prefix: prefix }),
  );
  return (res.Contents ?? []).map((o) => o.Key!).sort();
}

describe('sticker uploads (POST /image type=asIcon, /getUploads, /deleteUploadSticker)', () => {
  it('stores an upload for the team as a PNG within 512 px, with its alpha', async () => {
    const wide = await sharp({
      create: {
        width: 800,
        height: 400,
        channels: 4,
        background: { r: 0, g: 160, b: 80, alpha: 0.5 },
      },
    })
      .webp({ lossless: true })
      .toBuffer();
    const res = await demo.request('POST', '/image', stickerUpload(wide, 'Summer sale.webp'));
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    const sticker = (res.json as { sticker: Item }).sticker;
    expect(sticker).toEqual({
      id: expect.stringMatching(/^custom-/),
      type: 'custom_sticker',
      pack_id: null,
      image_name: 'Summer sale',
      name: 'Summer sale',
      icon_url: expect.stringMatching(/^\/files\/stickers\/uploads\/team-demo\/.+\.png$/),
      url: expect.stringMatching(/^files\/stickers\/uploads\/team-demo\/.+\.png$/),
      sticker_type: 'upload',
      width: 512,
      height: 256,
      is_favorite: false,
      created_at: expect.any(String),
    });
    expect(await servedPng(sticker.icon_url)).toMatchObject({ width: 160, height: 80 });
    const full = await fetchImage(url(`/${sticker.url}`));
    expect([full.width, full.height]).toEqual([512, 256]);
    expect((await sharp(full.bytes).metadata()).hasAlpha).toBe(true);

    const uploads = await list(demo, '/getUploads');
    expect(uploads.data[0]).toEqual(sticker);
    expect(ids(await list(demo, '/getUploads', { search: 'summer' }))).toContain(sticker.id);
    expect(ids(await list(demo, '/getUploads', { search: 'winter' }))).not.toContain(sticker.id);

    // A favourite of the team's own upload shows in Favorites.
    await demo.request('POST', '/addToFavorite', { id: sticker.id, type: 'custom_sticker' });
    expect(ids(await list(demo, '/getFavorites'))).toContain(sticker.id);
  });

  it("keeps teams apart: another team's upload is not listed and answers 404", async () => {
    const sticker = await uploadSolid('#123456', 'private.png');
    expect(ids(await list(admin, '/getUploads'))).not.toContain(sticker.id);
    const del = await admin.request('POST', '/deleteUploadSticker', { id: sticker.id });
    expect(del.status).toBe(404);
    expect(del.json.message).toBe('Sticker not found.');
    const fav = await admin.request('POST', '/addToFavorite', {
      id: sticker.id,
      type: 'custom_sticker',
    });
    expect(fav.status).toBe(404);
    expect(ids(await list(demo, '/getUploads'))).toContain(sticker.id);
  });

  it('deletes an upload from My Uploads and Favorites; its image stops being served', async () => {
    const sticker = await uploadSolid('#654321', 'gone.png');
    await demo.request('POST', '/addToFavorite', { id: sticker.id, type: 'custom_sticker' });
    expect((await fetch(url(`/${sticker.url}`))).status).toBe(200);
    const del = await demo.request('POST', '/deleteUploadSticker', { id: sticker.id });
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ success: true, message: 'The sticker was deleted.' });
    expect(ids(await list(demo, '/getUploads'))).not.toContain(sticker.id);
    expect(ids(await list(demo, '/getFavorites'))).not.toContain(sticker.id);
    expect((await fetch(url(sticker.icon_url))).status).toBe(404);
    expect((await fetch(url(`/${sticker.url}`))).status).toBe(404);
    expect((await demo.request('POST', '/deleteUploadSticker', { id: sticker.id })).status).toBe(
      404,
    );
  });

  it('keeps an upload a design draws, naming the design', async () => {
    const sticker = await uploadSolid('#2040e0', 'badge.png');
    const design = await createDesign(demo, { title: 'Badge promo' });
    const current = (await demo.request('GET', `/api/pic-snippet/${design.id}`)).json;
    const { id: _id, public_id: _p, base_url: _b, ...fields } = current;
    const saved = await demo.request('PUT', `/api/pic-snippet/${design.id}`, {
      ...fields,
      graphics_data: [{ uuid: 'badge-1', url: `/${sticker.url}`, left: 10, top: 10 }],
    });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    const del = await demo.request('POST', '/deleteUploadSticker', { id: sticker.id });
    expect(del.status).toBe(409);
    expect(del.json.message).toBe(
      'This sticker is used by the design "Badge promo". Replace it there first.',
    );
    expect(ids(await list(demo, '/getUploads'))).toContain(sticker.id);
    expect((await fetch(url(`/${sticker.url}`))).status).toBe(200);
  });

  it.each([
    ['an SVG', '<svg xmlns="http://www.w3.org/2000/svg"/>', 'x.svg', /^Allowed extensions/],
    ['a fake PNG', 'this is text, not a PNG', 'fake.png', /^The image could not be read/],
  ])('refuses %s and stores nothing', async (_name, content, file, message) => {
    const before = await storedKeys('files/stickers/uploads/');
    const listed = ids(await list(demo, '/getUploads'));
    const res = await demo.request(
      'POST',
      '/image',
      stickerUpload(new TextEncoder().encode(content), file),
    );
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual({ image: [expect.stringMatching(message)] });
    expect(await storedKeys('files/stickers/uploads/')).toEqual(before);
    expect(ids(await list(demo, '/getUploads'))).toEqual(listed);
  });

  // Mutation check (run): with the magic-byte type check removed from readImageFile
  // (functions/lib/uploads.ts), the TIFF and the AVIF are stored and this test fails.
  it('refuses images sharp can read but the rules do not allow (SVG, TIFF, AVIF), storing nothing', async () => {
    const before = await storedKeys('files/stickers/uploads/');
    const listed = ids(await list(demo, '/getUploads'));
    for (const [label, bytes, name] of await disguisedImages()) {
      expect(await sharpReads(bytes), label).toBeDefined();
      const res = await demo.request('POST', '/image', stickerUpload(bytes, name));
      expect(res.status, label).toBe(422);
      expect(res.json.errors, label).toEqual({
        image: [expect.stringMatching(/^The image could not be read/)],
      });
    }
    expect(await storedKeys('files/stickers/uploads/')).toEqual(before);
    expect(ids(await list(demo, '/getUploads'))).toEqual(listed);
  });
});

describe('stickers in a render', () => {
  it('draws a seeded sticker and an uploaded one where the design places them', async () => {
    const badges = await list(demo, '/getPacksStickers', {
      id: 'pack-arrows-badges',
      search: 'square check',
    });
    const seeded = badges.data.find((i) => i.name === 'square check')!;
    const uploaded = await uploadSolid('#ff00ff', 'magenta.png', 300);

    const design = await createDesign(demo);
    const saved = await demo.request('PUT', `/api/pic-snippet/${design.id}`, {
      version: design.version,
      graphics_data: [
        {
          uuid: 's1',
          url: seeded.url,
          stickerType: 'plain',
          left: 40,
          top: 40,
          scaleX: 0.5,
          scaleY: 0.5,
        },
        {
          uuid: 's2',
          url: uploaded.url,
          stickerType: 'upload',
          width: uploaded.width,
          height: uploaded.height,
          left: 400,
          top: 40,
          scaleX: 0.4,
          scaleY: 0.4,
        },
      ],
    });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);

    const img = await fetchImage(url(`/r/${design.public_id}.png`));
    expect(img.res.status).toBe(200);
    expect(img.res.headers.get('cache-control')).not.toBe('no-store');
    const at = (x: number, y: number) => [
      ...img.pixels.subarray((y * img.width + x) * 3, (y * img.width + x) * 3 + 3),
    ];
    const close = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) <= 12);

    // The seeded sticker, 256 px at (40, 40): compare with its own pixels where it is opaque.
    const source = await sharp(
      Buffer.from(await (await fetch(url(`/${seeded.url}`))).arrayBuffer()),
    )
      .raw()
      .toBuffer({ resolveWithObject: true });
    let compared = 0;
    for (const [u, v] of [
      [0.2, 0.2],
      [0.5, 0.2],
      [0.8, 0.5],
      [0.5, 0.8],
      [0.2, 0.5],
    ] as const) {
      const sx = Math.round(u * 511);
      const sy = Math.round(v * 511);
      const i = (sy * 512 + sx) * 4;
      if (source.data[i + 3] !== 255) continue;
      const expected = [source.data[i]!, source.data[i + 1]!, source.data[i + 2]!];
      expect(at(40 + Math.round(u * 256), 40 + Math.round(v * 256))).toSatisfy((p: number[]) =>
        close(p, expected),
      );
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(3);

    // The uploaded sticker: 300 px at scale 0.4 = 120 px of magenta at (400, 40).
    expect(at(460, 100)).toSatisfy((p: number[]) => close(p, [255, 0, 255]));
    expect(at(540, 100)).not.toSatisfy((p: number[]) => close(p, [255, 0, 255]));
  });
});

describe('sticker packs in the kiosk (spec 001 §7, §8)', () => {
  it('lists and searches every pack for an admin, and refuses users', async () => {
    const all = await admin.request('GET', '/packs/getPacks');
    expect(all.status).toBe(200);
    const packs = (all.json as unknown as ListAnswer).data;
    expect(packs.map((p) => p.pack_name)).toEqual(SEEDED_PACKS);
    expect(packs[1]).toEqual({
      id: 'pack-food-drink',
      pack_name: 'Food & Drink',
      cover_image: expect.stringMatching(/^\/files\/stickers\/pack-food-drink\/.+\.png$/),
      sticker_count: 44,
      attribution: expect.stringContaining('OpenMoji'),
      status: 'active',
      position: 2,
      created_at: expect.any(String),
    });
    const found = await admin.request('POST', '/packs/search', { search: 'drink' });
    expect((found.json as unknown as ListAnswer).data.map((p) => p.id)).toEqual([
      'pack-food-drink',
    ]);

    expect((await demo.request('GET', '/packs/getPacks')).status).toBe(403);
    expect((await demo.request('POST', '/packs/search', { search: 'x' })).status).toBe(403);
    expect(
      (await demo.request('DELETE', '/packs/removePack', { packId: 'pack-shopping' })).status,
    ).toBe(403);
    expect(
      (await demo.request('PATCH', '/packs/restorePack', { packId: 'pack-shopping' })).status,
    ).toBe(403);
  });

  it('removes a pack from every library and restores it in its place', async () => {
    const fan = await ownTeam(stack().url, 'pack-fan@example.org');
    await fan.request('POST', '/addToFavorite', { id: 'icon-food-drink-pizza', type: 'icon' });
    expect(ids(await list(fan, '/getFavorites'))).toEqual(['icon-food-drink-pizza']);

    const removed = await admin.request('DELETE', '/packs/removePack', {
      packId: 'pack-food-drink',
    });
    expect(removed.status).toBe(200);
    expect(removed.json).toMatchObject({
      success: true,
      message: 'The pack was successfully deleted.',
      pack: { id: 'pack-food-drink', status: 'removed' },
    });
    expect((await list(fan, '/getStickers')).data.map((p) => p.id)).not.toContain(
      'pack-food-drink',
    );
    const pizza = await list(fan, '/getStickers', { search: 'pizza' });
    expect(pizza.data.filter((i) => i.pack_id === 'pack-food-drink')).toEqual([]);
    const drill = await fan.request('POST', '/getPacksStickers', { id: 'pack-food-drink' });
    expect(drill.status).toBe(404);
    expect(ids(await list(fan, '/getFavorites'))).toEqual([]);
    const kiosk = (await admin.request('GET', '/packs/getPacks')).json as unknown as ListAnswer;
    expect(kiosk.data.find((p) => p.id === 'pack-food-drink')!.status).toBe('removed');

    const restored = await admin.request('PATCH', '/packs/restorePack', {
      packId: 'pack-food-drink',
    });
    expect(restored.json).toMatchObject({
      success: true,
      message: 'The pack was successfully restored.',
      pack: { status: 'active' },
    });
    expect((await list(fan, '/getStickers')).data.map((p) => p.pack_name)).toEqual(SEEDED_PACKS);
    expect(ids(await list(fan, '/getFavorites'))).toEqual(['icon-food-drink-pizza']);
  });

  it("answers the spec's messages for an unknown pack", async () => {
    const remove = await admin.request('DELETE', '/packs/removePack', { packId: 'pack-nope' });
    expect(remove.status).toBe(404);
    expect(remove.json.message).toBe("The pack wasn't deleted.");
    const restore = await admin.request('PATCH', '/packs/restorePack', { packId: 'pack-nope' });
    expect(restore.status).toBe(404);
    expect(restore.json.message).toBe("The pack wasn't restored.");
  });
});
