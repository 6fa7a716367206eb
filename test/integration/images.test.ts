/**
 * The global image library (docs/adr/0017-user-files.md "User files" `GET /getGlobalImages` → data,
 * last_page), seeded from the fixture photos (docs/adr/0007-seed-photos.md "Seed photos") and
 * served same-origin under `/files/` (docs/adr/0017-user-files.md "User files").
 */
import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { encode as encodeBmp } from 'bmp-ts';
import { LIBRARY_PAGE_SIZE } from '#functions/images/handler.ts';
import { TestClient } from '../support/client.ts';
import {
  currentTeamId,
  OWN_TEAM_PASSWORD,
  ownTeam,
  setTeamPlan,
  uniqueEmail,
} from '../support/designs.ts';
import { readFile } from 'node:fs/promises';
import { fetchImage, useLocalStack } from '../support/stack.ts';
import { disguisedImages, sharpReads } from '../support/disguised.ts';

const stack = useLocalStack({ warmChromium: false });
const PHOTOS = new URL('../../infra/seed/photos/', import.meta.url);

interface Image {
  id: string;
  title: string;
  thumb: string;
  url: string;
  width: number;
  height: number;
  author: string | null;
  licence: string | null;
}

describe('global image library', () => {
  it('lists every seeded photo with a served thumbnail, original and credit', async () => {
    const demo = new TestClient(stack().url);
    await demo.login('demo@example.com');
    const res = await demo.request('GET', '/getGlobalImages');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ current_page: 1 });
    // Other files on the same stack add photos to the library (the kiosk's): every page is read,
    // and the seed's photos are all there, each once.
    const lastPage = res.json.last_page as number;
    const data = [...(res.json.data as Image[])];
    for (let page = 2; page <= lastPage; page++) {
      const next = await demo.request('GET', `/getGlobalImages?page=${page}`);
      expect(next.json).toMatchObject({ current_page: page, last_page: lastPage });
      data.push(...(next.json.data as Image[]));
    }
    expect(lastPage).toBe(Math.max(1, Math.ceil(data.length / LIBRARY_PAGE_SIZE)));
    const seeded = (await readdir(PHOTOS))
      .filter((f) => f.endsWith('.jpg'))
      .map((f) => `library-${f.replace(/\.jpg$/, '')}`);
    expect(
      data
        .map((i) => i.id)
        .filter((id) => seeded.includes(id))
        .sort(),
    ).toEqual(seeded.sort());

    const autumn = data.find((i) => i.id === 'library-autumn')!;
    expect(autumn.title).toBe('Autumn');
    expect(autumn.author).toEqual(expect.any(String));
    const thumb = await fetch(`${stack().url}${autumn.thumb}`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
    expect(thumb.headers.get('x-content-type-options')).toBe('nosniff');
    const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect(meta.width).toBe(400);
    const original = await fetch(`${stack().url}${autumn.url}`);
    expect((await sharp(Buffer.from(await original.arrayBuffer())).metadata()).width).toBe(
      autumn.width,
    );
  });

  it('answers an empty page past the end and refuses a bad page number', async () => {
    const demo = new TestClient(stack().url);
    await demo.login('demo@example.com');
    const lastPage = (await demo.request('GET', '/getGlobalImages')).json.last_page as number;
    const past = await demo.request('GET', `/getGlobalImages?page=${lastPage + 1}`);
    expect(past.json).toMatchObject({ data: [], current_page: lastPage + 1, last_page: lastPage });
    const bad = await demo.request('GET', '/getGlobalImages?page=zero');
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toEqual({ page: ['The page must be a number.'] });
  });

  it('is for signed-in users only', async () => {
    const anonymous = new TestClient(stack().url);
    expect((await anonymous.request('GET', '/getGlobalImages')).status).toBe(401);
  });
});

function upload(bytes: Uint8Array, name: string, type = 'application/octet-stream') {
  const data = new FormData();
  data.append('image', new Blob([Uint8Array.from(bytes)], { type }), name);
  return data;
}

async function signedIn(email: string, password?: string) {
  const c = new TestClient(stack().url);
  expect((await c.login(email, password)).status).toBe(200);
  return c;
}

/**
 * The uploads' team: a team of this file's own, on Pro as data as the seed puts the demo team
 * (no product watermark on its renders), so what is uploaded and made here stays out of the
 * seeded demo team's library and design lists (docs/testing.md "One stack per worker").
 */
const UPLOADER = uniqueEmail('images');
let uploadTeam = '';

beforeAll(async () => {
  uploadTeam = await currentTeamId(await ownTeam(stack().url, UPLOADER));
  await setTeamPlan(uploadTeam, 'pro-monthly');
});

/** A fresh session of the uploads' team owner. */
const uploader = () => signedIn(UPLOADER, OWN_TEAM_PASSWORD);

const ids = (res: { json: Record<string, unknown> }) => (res.json.data as Image[]).map((i) => i.id);

describe('image uploads', () => {
  it('stores a re-encoded upload for the team, without its metadata, with a thumbnail', async () => {
    const owner = await uploader();
    const photo = await sharp(await readFile(new URL('kite.jpg', PHOTOS)))
      .withMetadata({ exif: { IFD0: { Copyright: 'where-i-live' } } })
      .jpeg()
      .toBuffer();
    const res = await owner.request('POST', '/image', upload(photo, 'My kite.jpg', 'image/jpeg'));
    expect(res.status).toBe(201);
    const image = (res.json as { image: Image }).image;
    expect(image).toMatchObject({
      title: 'My kite',
      url: expect.stringMatching(new RegExp(`^/files/uploads/${uploadTeam}/`)),
    });

    expect(ids(await owner.request('GET', '/getImages'))).toContain(image.id);
    expect((await owner.request('GET', `/image/${image.id}`)).json).toMatchObject({ id: image.id });

    const served = await fetch(`${stack().url}${image.url}`);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(meta.exif).toBeUndefined();
    expect([meta.width, meta.height]).toEqual([image.width, image.height]);
    const thumb = await sharp(
      Buffer.from(await (await fetch(`${stack().url}${image.thumb}`)).arrayBuffer()),
    ).metadata();
    expect(thumb.width).toBe(400);

    // A design can be made from it.
    const design = await owner.request('POST', '/api/pic-snippet', { image_id: image.id });
    expect(design.status).toBe(201);
  });

  it('keeps an animated GIF animated and makes a BMP a PNG with the same pixels', async () => {
    const owner = await uploader();
    const frame = (background: string) =>
      sharp({ create: { width: 40, height: 40, channels: 3, background } })
        .png()
        .toBuffer();
    const gif = await sharp(await Promise.all(['#cc3300', '#00cc33', '#3300cc'].map(frame)), {
      join: { animated: true },
    })
      .gif({ loop: 0, delay: [100, 100, 100] })
      .toBuffer();
    const animated = await sharp(gif, { animated: true }).metadata();
    const res = await owner.request('POST', '/image', upload(gif, 'spin.gif', 'image/gif'));
    expect(res.status).toBe(201);
    const image = (res.json as { image: Image }).image;
    const served = Buffer.from(await (await fetch(`${stack().url}${image.url}`)).arrayBuffer());
    expect(animated.pages).toBe(3);
    expect((await sharp(served, { animated: true }).metadata()).pages).toBe(3);
    expect(image.url).toMatch(/\.gif$/);

    // A 3x2 BMP: red, green, blue / white, black, grey.
    const pixels = [
      [255, 0, 0],
      [0, 255, 0],
      [0, 0, 255],
      [255, 255, 255],
      [0, 0, 0],
      [128, 128, 128],
    ];
    const data = Buffer.alloc(3 * 2 * 4);
    pixels.forEach(([r, g, b], i) => data.set([255, b!, g!, r!], i * 4)); // bmp-ts order: ABGR
    const bmp = encodeBmp({ width: 3, height: 2, data, bitPP: 24 }).data;
    const stored = await owner.request('POST', '/image', upload(bmp, 'old.bmp', 'image/bmp'));
    expect(stored.status).toBe(201);
    const bmpImage = (stored.json as { image: Image }).image;
    expect(bmpImage.url).toMatch(/\.png$/);
    const png = await fetchImage(`${stack().url}${bmpImage.url}`);
    expect([png.width, png.height]).toEqual([3, 2]);
    expect([...png.pixels.subarray(0, 9)]).toEqual([255, 0, 0, 0, 255, 0, 0, 0, 255]);
  });

  it.each([
    [
      'an SVG (with a script)',
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      'x.svg',
      'Allowed extensions are: .jpg, .jpeg, .bmp, .gif, .png',
    ],
    [
      'a PDF named .pdf',
      '%PDF-1.4',
      'doc.pdf',
      'Allowed extensions are: .jpg, .jpeg, .bmp, .gif, .png',
    ],
    [
      'a fake PNG',
      'this is text, not a PNG',
      'fake.png',
      'The image could not be read: it is not a valid JPG, PNG, GIF, WebP or BMP file.',
    ],
    [
      'an SVG named .png',
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      'x.png',
      'The image could not be read: it is not a valid JPG, PNG, GIF, WebP or BMP file.',
    ],
  ])('refuses %s and stores nothing', async (_name, content, file, message) => {
    const owner = await uploader();
    const before = ids(await owner.request('GET', '/getImages'));
    const res = await owner.request(
      'POST',
      '/image',
      upload(new TextEncoder().encode(content), file),
    );
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual({ image: [message] });
    expect(ids(await owner.request('GET', '/getImages'))).toEqual(before);
  });

  // Mutation check (run): with the magic-byte type check removed from readImageFile
  // (functions/lib/uploads.ts), the TIFF and the AVIF are stored and this test fails.
  it('refuses images sharp can read but the rules do not allow (SVG, TIFF, AVIF), storing nothing', async () => {
    const owner = await uploader();
    const before = ids(await owner.request('GET', '/getImages'));
    for (const [label, bytes, name] of await disguisedImages()) {
      expect(await sharpReads(bytes), label).toBeDefined();
      const res = await owner.request('POST', '/image', upload(bytes, name));
      expect(res.status, label).toBe(422);
      expect(res.json.errors, label).toEqual({
        image: ['The image could not be read: it is not a valid JPG, PNG, GIF, WebP or BMP file.'],
      });
    }
    expect(ids(await owner.request('GET', '/getImages'))).toEqual(before);
  });

  it('refuses a decompression bomb and an oversized file', async () => {
    const owner = await uploader();
    const before = ids(await owner.request('GET', '/getImages'));
    // 8000x6000 = 48 MP of one colour: a few hundred kB compressed, 144 MB decoded.
    const bomb = await sharp({
      create: { width: 8000, height: 6000, channels: 3, background: '#fff' },
    })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const res = await owner.request('POST', '/image', upload(bomb, 'bomb.png', 'image/png'));
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual({
      image: ['The image could not be read: it is not a valid JPG, PNG, GIF, WebP or BMP file.'],
    });

    const big = new Uint8Array(9 * 1024 * 1024);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    const huge = await owner.request('POST', '/image', upload(big, 'huge.jpg', 'image/jpeg'));
    expect(huge.status).toBe(422);
    expect(huge.json.errors).toEqual({ image: ['The image may not be greater than 8 MB.'] });
    // Past API Gateway's 10 MB payload limit the gateway itself answers.
    const past = await owner.request(
      'POST',
      '/image',
      upload(new Uint8Array(11 * 1024 * 1024), 'past.jpg', 'image/jpeg'),
    );
    expect(past.status).toBe(413);
    expect(past.json.message).toBe('The request is too large.');
    expect(ids(await owner.request('GET', '/getImages'))).toEqual(before);
  });

  it("keeps teams apart: another team's upload answers 404 and is not listed", async () => {
    const owner = await uploader();
    const png = await sharp({
      create: { width: 30, height: 20, channels: 3, background: '#123456' },
    })
      .png()
      .toBuffer();
    const image = (
      (await owner.request('POST', '/image', upload(png, 'private.png'))).json as { image: Image }
    ).image;
    const admin = await signedIn('admin@example.com');
    expect(ids(await admin.request('GET', '/getImages'))).not.toContain(image.id);
    expect((await admin.request('GET', `/image/${image.id}`)).status).toBe(404);
    expect((await admin.request('DELETE', '/deleteImage', { imageId: image.id })).status).toBe(404);
    expect(
      (await admin.request('DELETE', '/deleteImage', { imageId: 'library-autumn' })).status,
    ).toBe(404);
    expect(ids(await owner.request('GET', '/getImages'))).toContain(image.id);
  });

  it('deletes an unused upload: it leaves the library and stops being served', async () => {
    const owner = await uploader();
    const png = await sharp({
      create: { width: 30, height: 20, channels: 3, background: '#654321' },
    })
      .png()
      .toBuffer();
    const image = (
      (await owner.request('POST', '/image', upload(png, 'gone.png'))).json as { image: Image }
    ).image;
    expect((await fetch(`${stack().url}${image.url}`)).status).toBe(200);
    expect((await owner.request('DELETE', '/deleteImage', { imageId: image.id })).status).toBe(200);
    expect(ids(await owner.request('GET', '/getImages'))).not.toContain(image.id);
    expect((await owner.request('GET', `/image/${image.id}`)).status).toBe(404);
    expect((await fetch(`${stack().url}${image.thumb}`)).status).toBe(404);
    // Mutation check (run): without withdrawUserFile in deleteUpload this answers 200.
    expect((await fetch(`${stack().url}${image.url}`)).status).toBe(404);
  });

  it('keeps an upload a design uses until the design stops using it; kept versions still draw it', async () => {
    const owner = await uploader();
    const red = await sharp({
      create: { width: 300, height: 200, channels: 3, background: '#e01020' },
    })
      .png()
      .toBuffer();
    const image = (
      (await owner.request('POST', '/image', upload(red, 'red.png'))).json as { image: Image }
    ).image;
    const created = await owner.request('POST', '/api/pic-snippet', {
      image_id: image.id,
      title: 'Red sale',
    });
    expect(created.status).toBe(201);
    const design = created.json as { id: string; public_id: string };
    const kept = await owner.request('POST', `/api/pic-snippet/${design.id}/cache-id`, {});
    expect(kept.status).toBe(200);

    const refused = await owner.request('DELETE', '/deleteImage', { imageId: image.id });
    expect(refused.status).toBe(409);
    expect(refused.json.message).toBe(
      'This image is used by the design "Red sale". Replace it there first.',
    );
    expect(ids(await owner.request('GET', '/getImages'))).toContain(image.id);
    expect((await fetch(`${stack().url}${image.url}`)).status).toBe(200);

    const replaced = await owner.request('PUT', `/api/pic-snippet/${design.id}/replace`, {
      imageId: 'library-garden',
    });
    expect(replaced.status).toBe(200);
    expect((await owner.request('DELETE', '/deleteImage', { imageId: image.id })).status).toBe(200);
    expect((await fetch(`${stack().url}${image.url}`)).status).toBe(404);

    // The version kept before the photo changed is what recipients of that send see: still red.
    const render = await fetchImage(
      `${stack().url}/r/${design.public_id}/${String(kept.json.cache_id)}.png`,
    );
    expect(render.res.status).toBe(200);
    expect(render.res.headers.get('cache-control')).not.toContain('no-store');
    const centre = ((render.height >> 1) * render.width + (render.width >> 1)) * 3;
    const [r, g, b] = [...render.pixels.subarray(centre, centre + 3)];
    expect(r).toBeGreaterThan(180);
    expect(g).toBeLessThan(60);
    expect(b).toBeLessThan(80);
  });
});

describe('image search', () => {
  /** Uploads a small PNG named `name` for `client`'s team; answers its id. */
  const uploaded = async (client: TestClient, name: string) => {
    const png = await sharp({ create: { width: 24, height: 16, channels: 3, background: '#4a6' } })
      .png()
      .toBuffer();
    const res = await client.request('POST', '/image', upload(png, name));
    expect(res.status).toBe(201);
    return (res.json as { image: Image }).image.id;
  };

  it("finds the team's uploads by title or tag, case and accents folded, and no other team's", async () => {
    const owner = await uploader();
    const word = `Zebra${randomUUID().slice(0, 6)}`;
    const zebra = await uploaded(owner, `${word} Crossing.png`);
    const tagged = await uploaded(owner, 'holiday.png');
    const other = await uploaded(owner, 'unrelated.png');
    // A tag, as the kiosk gives a library photo its search words (lower case).
    const { db } = await import('#lib/db/index.ts');
    await db()
      .LibraryImage.patch({ imageId: tagged })
      .set({ tags: [word.toLowerCase(), 'beach'] })
      .go();
    const stranger = await ownTeam(stack().url, uniqueEmail('images-search'));
    const theirs = await uploaded(stranger, `${word}.png`);

    const found = await owner.request(
      'GET',
      `/getImages?search=${encodeURIComponent(`  ${word.toUpperCase()} `)}`,
    );
    expect(found.status).toBe(200);
    // The title match first, then the tag match; nothing else, and never the other team's.
    expect(ids(found)).toEqual([zebra, tagged]);
    expect(found.json).toMatchObject({ current_page: 1, last_page: 1 });
    expect(ids(await owner.request('GET', `/getImages?search=${word}%20cróssing`))).toEqual([
      zebra,
    ]);
    expect(ids(await owner.request('GET', '/getImages?search=nothing-like-this'))).toEqual([]);
    expect(ids(await owner.request('GET', '/getImages?search='))).toEqual(
      expect.arrayContaining([zebra, tagged, other]),
    );
    expect(ids(await stranger.request('GET', `/getImages?search=${word}`))).toEqual([theirs]);
  });

  it('searches the global library by title, paged, and refuses a search over 100 characters', async () => {
    const demo = await signedIn('demo@example.com');
    const res = await demo.request('GET', '/getGlobalImages?search=autumn&page=1');
    expect(res.status).toBe(200);
    expect(ids(res)).toContain('library-autumn');
    expect((res.json.data as Image[]).every((i) => /autumn/i.test(i.title))).toBe(true);
    const past = await demo.request('GET', '/getGlobalImages?search=autumn&page=2');
    expect(past.json).toMatchObject({ data: [], current_page: 2, last_page: 1 });

    const long = await demo.request('GET', `/getGlobalImages?search=${'a'.repeat(101)}`);
    expect(long.status).toBe(422);
    expect(long.json.errors).toEqual({
      search: ['The search may not be greater than 100 characters.'],
    });
  });
});
