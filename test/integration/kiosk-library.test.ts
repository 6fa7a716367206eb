/**
 * The global image library in the kiosk (docs/kiosk.md "The global image library"): an admin adds a
 * photo through the upload pipeline, users find it in the library, its tags are edited and
 * searched, and a removed photo leaves the library while designs that use it keep drawing it: the
 * render reads its bytes, the editor's `/files/…` URL still answers.
 *
 * Mutation check (run): with the removal also deleting the original (`deleteUserFile`), the
 * removal test fails (the photo's URL answers 404).
 */
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../support/client.ts';
import { createDesign, signedIn } from '../support/designs.ts';
import { disguisedImages } from '../support/disguised.ts';
import { fetchImage, meanDifference, useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();
const PHOTO = new URL('../../infra/seed/photos/ladybird.jpg', import.meta.url);

let admin: TestClient;
let demo: TestClient;
beforeAll(async () => {
  admin = await signedIn(stack().url, 'admin@example.com');
  demo = await signedIn(stack().url, 'demo@example.com');
});

interface KioskImage {
  id: string;
  title: string;
  thumb: string | null;
  url: string | null;
  tags: string[];
}

function photoForm(bytes: Buffer, name: string, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  form.append('image', new Blob([Uint8Array.from(bytes)]), name);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
}

async function addPhoto(fields: Record<string, string>): Promise<KioskImage> {
  const res = await admin.request(
    'POST',
    '/spark/kiosk/library',
    photoForm(await readFile(PHOTO), 'ladybird.jpg', fields),
  );
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  expect(res.json.message).toBe('The photo was added to the library.');
  return (res.json as { image: KioskImage }).image;
}

const globalIds = async (client: TestClient) =>
  (
    (await client.request('GET', '/getGlobalImages')).json as { data: Array<{ id: string }> }
  ).data.map((i) => i.id);

const kioskList = async (search = '') =>
  (await admin.request('GET', `/spark/kiosk/library?search=${encodeURIComponent(search)}`))
    .json as { data: KioskImage[]; total: number };

describe('the global library in the kiosk', () => {
  it('adds a photo users then find, with its title and tags, and edits the tags', async () => {
    const image = await addPhoto({ title: 'Ladybird on a leaf', tags: 'Insect, red ,insect' });
    expect(image).toMatchObject({
      title: 'Ladybird on a leaf',
      tags: ['insect', 'red'],
      thumb: expect.stringMatching(/^\/files\/.+\.jpg$/),
      url: expect.stringMatching(/^\/files\/.+\.jpg$/),
    });
    expect((await fetch(`${stack().url}${image.thumb}`)).status).toBe(200);
    expect(await globalIds(demo)).toContain(image.id);
    expect((await kioskList('insect')).data.map((i) => i.id)).toEqual([image.id]);

    const saved = await admin.request('PUT', `/spark/kiosk/library/${image.id}/tags`, {
      tags: ['  Garden  Bug ', 'spring', 'SPRING', ''],
    });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    expect(saved.json).toMatchObject({
      message: 'The tags were saved.',
      image: { id: image.id, tags: ['garden bug', 'spring'] },
    });
    expect((await kioskList('garden bug')).data.map((i) => i.id)).toEqual([image.id]);
    expect((await kioskList('insect')).data).toEqual([]);

    const tooLong = await admin.request('PUT', `/spark/kiosk/library/${image.id}/tags`, {
      tags: ['x'.repeat(51)],
    });
    expect(tooLong.status).toBe(422);
    expect(tooLong.json.message).toBe('A tag may not be greater than 50 characters.');
  });

  it('removes a photo from the library; a design that uses it keeps drawing it', async () => {
    const image = await addPhoto({ title: 'Ladybird kept' });
    const design = await createDesign(demo, { image_id: image.id, title: 'Bug sale' });

    const removed = await admin.request('DELETE', `/spark/kiosk/library/${image.id}`);
    expect(removed.status, JSON.stringify(removed.json)).toBe(200);
    expect(removed.json.message).toBe(
      'The photo was removed from the library. Designs that use it keep drawing it.',
    );
    expect(await globalIds(demo)).not.toContain(image.id);
    expect((await kioskList()).data.map((i) => i.id)).not.toContain(image.id);
    expect((await demo.request('GET', `/image/${image.id}`)).status).toBe(404);
    // No new design can choose it; the kiosk cannot edit or remove it again.
    expect(
      (await demo.request('POST', '/api/pic-snippet', { image_id: image.id })).status,
    ).toBeGreaterThanOrEqual(400);
    expect(
      (await admin.request('PUT', `/spark/kiosk/library/${image.id}/tags`, { tags: ['x'] })).status,
    ).toBe(404);
    expect((await admin.request('DELETE', `/spark/kiosk/library/${image.id}`)).status).toBe(404);

    // The editor shows the photo from its URL, and the render (first drawn after the removal)
    // reads its bytes: the rendered image is the ladybird.
    expect((await fetch(`${stack().url}${image.url}`)).status).toBe(200);
    const render = await fetchImage(`${stack().url}/r/${design.public_id}.png`);
    expect(render.res.status).toBe(200);
    const expected = await sharp(await readFile(PHOTO))
      .resize(render.width, render.height, { fit: 'fill' })
      .removeAlpha()
      .raw()
      .toBuffer();
    const whole = { left: 0, top: 0, width: render.width, height: render.height };
    expect(meanDifference(render.pixels, expected, render.width, whole)).toBeLessThan(12);
  });

  it('refuses files the upload rules refuse, storing nothing', async () => {
    const before = (await kioskList()).total;
    for (const [label, bytes, name] of await disguisedImages()) {
      const res = await admin.request('POST', '/spark/kiosk/library', photoForm(bytes, name));
      expect(res.status, label).toBe(422);
    }
    const missing = await admin.request('POST', '/spark/kiosk/library', new FormData());
    expect(missing.json.message).toBe('The image field is required.');
    expect((await kioskList()).total).toBe(before);
  });

  it("leaves teams' own uploads alone and is for platform admins only", async () => {
    const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#08f' } })
      .png()
      .toBuffer();
    const own = (
      (await demo.request('POST', '/image', photoForm(png, 'own.png'))).json as {
        image: { id: string };
      }
    ).image;
    expect((await admin.request('DELETE', `/spark/kiosk/library/${own.id}`)).status).toBe(404);
    expect(
      (await admin.request('PUT', `/spark/kiosk/library/${own.id}/tags`, { tags: [] })).status,
    ).toBe(404);
    expect((await demo.request('GET', '/spark/kiosk/library')).status).toBe(403);
    expect((await demo.request('DELETE', '/spark/kiosk/library/library-kite')).status).toBe(403);
  });
});
