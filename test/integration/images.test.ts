/**
 * The global image library (spec 000 §7 `GET /getGlobalImages` → data, last_page; issue:
 * libraries §1 "seeded from the fixture photos"), served same-origin under `/files/`.
 */
import { readdir } from 'node:fs/promises';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.ts';
import { useLocalStack } from '../support/stack.ts';

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
    const photos = (await readdir(PHOTOS)).filter((f) => f.endsWith('.jpg'));
    const data = res.json.data as Image[];
    expect(data.map((i) => i.id).sort()).toEqual(
      photos.map((f) => `library-${f.replace(/\.jpg$/, '')}`).sort(),
    );
    expect(res.json).toMatchObject({ current_page: 1, last_page: 1 });

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
    const past = await demo.request('GET', '/getGlobalImages?page=2');
    expect(past.json).toMatchObject({ data: [], current_page: 2, last_page: 1 });
    const bad = await demo.request('GET', '/getGlobalImages?page=zero');
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toEqual({ page: ['The page must be a number.'] });
  });

  it('is for signed-in users only', async () => {
    const anonymous = new TestClient(stack().url);
    expect((await anonymous.request('GET', '/getGlobalImages')).status).toBe(401);
  });
});
