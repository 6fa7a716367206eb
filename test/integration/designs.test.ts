/**
 * The design calls of docs/adr/0019-design-api-shapes.md "Design API shapes": "Design actions"
 * (docs/adr/0019-design-api-shapes.md "Design API shapes") through the local stack: create, read,
 * rename and save, archive and activate, clone, create from a template, the base photo, effects,
 * options, stickers and the cropped image; the team and frozen-team rules.
 */
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../support/client.ts';
import {
  createDesign,
  LIBRARY_IMAGE,
  ownTeam,
  signedIn,
  type DesignJson,
} from '../support/designs.ts';
import { fetchImage, useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();
const { db } = await import('#lib/db/index.ts');

let demo: TestClient;
let admin: TestClient;
beforeAll(async () => {
  demo = await signedIn(stack().url, 'demo@example.com');
  admin = await signedIn(stack().url, 'admin@example.com');
});

const TOO_LONG = 'The title may not be greater than 255 characters';

/** The demo design's document as the seed wrote it, with its `Hello {{first_name}}!` snippet. */
const seededDocument = async () =>
  (await db().Design.get({ designId: 'design-demo-welcome' }).go()).data!.document;

/** A design of the demo team holding the seeded document (parameters and all). */
async function demoCopy(): Promise<DesignJson> {
  const created = await createDesign(demo, { title: 'Parameters' });
  await db()
    .Design.patch({ designId: created.id })
    .set({ document: await seededDocument() })
    .go();
  return (await demo.request('GET', `/api/pic-snippet/${created.id}`)).json as DesignJson;
}

describe('POST /api/pic-snippet', () => {
  it('creates a design on a library photo whose render URL renders', async () => {
    const design = await createDesign(demo, { title: 'Autumn sale' });
    expect(design).toMatchObject({
      title: 'Autumn sale',
      status: 'active',
      version: 1,
      counter: 0,
      isTemplate: false,
      image_id: LIBRARY_IMAGE,
      archived_at: null,
      showurl: `/pic-snippet/${design.id}`,
      editurl: `/pic-snippet/${design.id}/edit`,
      archiveurl: `/api/pic-snippet/${design.id}/archive`,
      unarchiveurl: `/api/pic-snippet/${design.id}/unarchive`,
      text_snippets: [],
      graphics_data: [],
    });
    expect(design.public_id).toMatch(/^[A-Za-z0-9_-]{11}$/);
    expect(design.base_url).toBe(`${stack().url}/r/${design.public_id}`);
    // The canvas takes the photo's aspect ratio, at most 1056 px wide (docs/editor.md "Constants").
    expect(design.canvas_width).toBeLessThanOrEqual(1056);
    const image = await fetchImage(`${design.base_url}.jpg`);
    expect(image.res.status).toBe(200);
    expect(image.res.headers.get('content-type')).toBe('image/jpeg');
    // A real render, not the fallback the service sends when it fails.
    expect(image.res.headers.get('cache-control')).not.toContain('no-store');
    expect([image.width, image.height]).toEqual([design.canvas_width, design.canvas_height]);
  });

  it('titles a design without a title after the photo, and refuses a title over 255', async () => {
    const untitled = await createDesign(demo, { title: '   ' });
    expect(untitled.title).toBe('Autumn');
    const long = await demo.request('POST', '/api/pic-snippet', {
      image_id: LIBRARY_IMAGE,
      title: 'x'.repeat(256),
    });
    expect(long.status).toBe(422);
    expect(long.json).toMatchObject({ message: TOO_LONG, errors: { title: [TOO_LONG] } });
  });

  it('refuses a missing or unknown image', async () => {
    const missing = await demo.request('POST', '/api/pic-snippet', {});
    expect(missing.status).toBe(422);
    expect(missing.json.errors).toEqual({ image_id: ['The image id field is required.'] });
    const unknown = await demo.request('POST', '/api/pic-snippet', { image_id: 'no-such' });
    expect(unknown.status).toBe(422);
    expect(unknown.json.errors).toEqual({ image_id: ['The selected image is invalid.'] });
  });
});

describe('GET and PUT /api/pic-snippet/{id}', () => {
  it('reads a design of the current team and 404s for another team', async () => {
    const design = await createDesign(demo);
    const own = await demo.request('GET', `/api/pic-snippet/${design.id}`);
    expect(own.status).toBe(200);
    expect(own.json).toMatchObject({ id: design.id, base_url: design.base_url });
    expect((await admin.request('GET', `/api/pic-snippet/${design.id}`)).status).toBe(404);
    expect((await demo.request('GET', '/api/pic-snippet/no-such-design')).status).toBe(404);
  });

  it('renames by the title rules of spec 000 §5', async () => {
    const design = await createDesign(demo, { title: 'Before' });
    const path = `/api/pic-snippet/${design.id}`;
    const renamed = await demo.request('PUT', path, { title: '  After  ', version: 1 });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toMatchObject({ success: true, title: 'After', version: 2 });
    // Blank keeps the old title; the same title is not saved (the version stays).
    for (const title of ['', '   ', 'After']) {
      const same = await demo.request('PUT', path, { title });
      expect(same.json).toMatchObject({ title: 'After', version: 2 });
    }
    const long = await demo.request('PUT', path, { title: 'y'.repeat(256) });
    expect(long.status).toBe(422);
    expect(long.json).toMatchObject({ message: TOO_LONG, errors: { title: [TOO_LONG] } });
    // 255 characters is allowed.
    const max = await demo.request('PUT', path, { title: 'z'.repeat(255) });
    expect(max.json).toMatchObject({ title: 'z'.repeat(255), version: 3 });
  });

  it('answers a stale version with 409 and the current version, keeping the saved title', async () => {
    const design = await createDesign(demo, { title: 'Kept' });
    const path = `/api/pic-snippet/${design.id}`;
    expect((await demo.request('PUT', path, { title: 'Winner', version: 1 })).status).toBe(200);
    const stale = await demo.request('PUT', path, { title: 'Loser', version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.json).toMatchObject({ version: 2, message: expect.stringContaining('Reload') });
    expect((await demo.request('GET', path)).json).toMatchObject({ title: 'Winner', version: 2 });
  });

  it('saves the full JSON (the document fields) and refuses an invalid one whole', async () => {
    const design = (await demo.request('GET', `/api/pic-snippet/${(await demoCopy()).id}`))
      .json as DesignJson;
    const path = `/api/pic-snippet/${design.id}`;
    const saved = await demo.request('PUT', path, {
      ...design,
      title: 'Full save',
      flip_x: true,
      canvas_width: 800,
    });
    expect(saved.status).toBe(200);
    expect((await demo.request('GET', path)).json).toMatchObject({
      title: 'Full save',
      flip_x: true,
      canvas_width: 800,
      text_snippets: [expect.objectContaining({ text: 'Hello {{first_name}}!' })],
    });
    // The GET's `version` goes back with the full JSON: the save above made it 2.
    const bad = await demo.request('PUT', path, {
      ...design,
      version: 2,
      canvas_width: 5000,
      title: 'No',
    });
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toHaveProperty('canvas_width');
    // The base photo only moves through replace/saveImageId, which check the image is usable.
    const moved = await demo.request('PUT', path, {
      ...design,
      version: 2,
      base_image_key: 'static-layers/another-design/v1.png',
    });
    expect(moved.status).toBe(422);
    expect(moved.json.errors).toEqual({
      image_id: ['The base image changes through PUT /api/pic-snippet/{id}/replace.'],
    });
    expect((await demo.request('GET', path)).json).toMatchObject({
      title: 'Full save',
      canvas_width: 800,
    });
  });

  it('saves one text snippet and the title with /pso', async () => {
    const design = await demoCopy();
    const snippet = (design.text_snippets as Array<Record<string, unknown>>)[0]!;
    const res = await demo.request('PUT', `/api/pic-snippet/${design.id}/pso`, {
      title: 'Snippet saved',
      snippet: { ...snippet, fontSize: 40, fill: '#ff0000' },
    });
    expect(res.status).toBe(200);
    const read = (await demo.request('GET', `/api/pic-snippet/${design.id}`)).json;
    expect(read).toMatchObject({
      title: 'Snippet saved',
      text_snippets: [expect.objectContaining({ id: snippet.id, fontSize: 40, fill: '#ff0000' })],
    });
    const bad = await demo.request('PUT', `/api/pic-snippet/${design.id}/pso`, {
      snippet: { ...snippet, fontSize: 500 },
    });
    expect(bad.status).toBe(422);
  });
});

describe('archive, activate, clone', () => {
  it('archives and activates, keeping archived_at', async () => {
    const design = await createDesign(demo, { title: 'To archive' });
    const archived = await demo.request('PUT', `/api/pic-snippet/${design.id}/archive`, {});
    expect(archived.status).toBe(200);
    expect(archived.json).toMatchObject({
      success: true,
      archived: { id: design.id, status: 'archived', archived_at: expect.any(String) },
    });
    const inArchive = (await demo.request('GET', '/getArchived')).json.archived as {
      data: Array<{ id: string }>;
    };
    expect(inArchive.data.map((d) => d.id)).toContain(design.id);
    const active = await demo.request('PUT', `/api/pic-snippet/${design.id}/unarchive`, {});
    expect(active.json).toMatchObject({
      success: true,
      active: { id: design.id, status: 'active', archived_at: null },
    });
    const activeList = (await demo.request('GET', '/getActive')).json.active as {
      data: Array<{ id: string }>;
    };
    expect(activeList.data[0]!.id).toBe(design.id);
  });

  it("clones with 'Copy of - ' and renamed parameters whose placeholders follow", async () => {
    const design = await demoCopy();
    const res = await demo.request('PUT', `/pic-snippet/${design.id}/copy`);
    expect(res.status).toBe(201);
    const copyId = res.json.newPicSnippetId as string;
    const copy = (await demo.request('GET', `/api/pic-snippet/${copyId}`)).json as DesignJson & {
      text_snippets: Array<{ text: string; parameters: Array<{ param_name: string }> }>;
    };
    expect(copy.title).toBe('Copy of - Parameters');
    expect(copy.public_id).not.toBe(design.public_id);
    expect(copy.text_snippets[0]!.parameters[0]!.param_name).toBe('first_name_copy1');
    expect(copy.text_snippets[0]!.text).toBe('Hello {{first_name_copy1}}!');
    // The copy renders with its own parameter name.
    const render = await fetch(`${copy.base_url}.jpg?first_name_copy1=Ana`);
    expect(render.status).toBe(200);
    expect(render.headers.get('cache-control')).not.toContain('no-store');
  });

  it('cuts the copy title at 255 characters', async () => {
    const design = await createDesign(demo, { title: 'w'.repeat(255) });
    const res = await demo.request('PUT', `/pic-snippet/${design.id}/copy`);
    const copy = (await demo.request('GET', `/api/pic-snippet/${res.json.newPicSnippetId}`)).json;
    expect(copy.title).toBe(`Copy of - ${'w'.repeat(245)}`);
  });
});

describe('templates', () => {
  it('lists enabled templates across teams and creates a design of the caller from one', async () => {
    const design = await createDesign(admin, { title: 'Admin template' });
    const { updateDesign } = await import('#functions/designs/store.ts');
    await updateDesign('team-admin', design.id, undefined, () => ({ isTemplate: true }));
    // A template leaves its team's lists and shows in everyone's template list.
    const adminActive = (await admin.request('GET', '/getActive')).json.active as {
      data: Array<{ id: string }>;
    };
    expect(adminActive.data.map((d) => d.id)).not.toContain(design.id);
    const templates = await demo.request('GET', '/getHomeTemplates');
    expect(templates.status).toBe(200);
    // Other files' templates share the list (one stack per worker): this one is on the first page.
    expect(templates.json.templates).toMatchObject({ current_page: 1 });
    expect((templates.json.templates as { data: unknown[] }).data).toContainEqual(
      expect.objectContaining({ id: design.id, isTemplate: true }),
    );

    const made = await demo.request('POST', `/pic-snippet/${design.id}/createFromTemplate`);
    expect(made.status).toBe(201);
    const id = made.json.newPicSnippetId as string;
    expect((await demo.request('GET', `/api/pic-snippet/${id}`)).json).toMatchObject({
      title: 'Admin template',
      isTemplate: false,
      status: 'active',
    });
    // A design that is not a template cannot be used as one.
    const plain = await createDesign(admin);
    expect((await demo.request('POST', `/pic-snippet/${plain.id}/createFromTemplate`)).status).toBe(
      404,
    );
  });
});

describe('base photo, effects, options', () => {
  it('replaces the base photo and saves an image id, refusing images of other teams', async () => {
    const design = await createDesign(demo);
    const replaced = await demo.request('PUT', `/api/pic-snippet/${design.id}/replace`, {
      imageId: 'library-garden',
    });
    expect(replaced.status, JSON.stringify(replaced.json)).toBe(200);
    expect(replaced.json.success).toBe(true);
    const read = (await demo.request('GET', `/api/pic-snippet/${design.id}`)).json;
    expect(read.image_id).toBe('library-garden');
    const bad = await demo.request('PUT', `/api/pic-snippet/${design.id}/replace`, {
      imageId: 'nope',
    });
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toEqual({ imageId: ['The selected image is invalid.'] });
    const saved = await demo.request('PUT', `/api/pic-snippet/${design.id}/saveImageId`, {
      image_id: LIBRARY_IMAGE,
    });
    expect(saved.status).toBe(200);
    expect((await demo.request('GET', `/api/pic-snippet/${design.id}`)).json.image_id).toBe(
      LIBRARY_IMAGE,
    );
  });

  it('saves the enhance and filters maps with their ranges', async () => {
    const design = await createDesign(demo);
    const path = `/api/pic-snippet/${design.id}/effects`;
    expect((await demo.request('PUT', path, { filters: { Sepia: true, Invert: 0 } })).status).toBe(
      200,
    );
    expect((await demo.request('PUT', path, { enhance: { Hue: -1.5, Blur: 0.2 } })).status).toBe(
      200,
    );
    expect((await demo.request('GET', `/api/pic-snippet/${design.id}`)).json).toMatchObject({
      filters: { Sepia: true, Invert: false },
      enhance: { Hue: -1.5, Blur: 0.2 },
    });
    const out = await demo.request('PUT', path, { enhance: { Hue: 3 } });
    expect(out.status).toBe(422);
    expect(out.json.errors).toEqual({ 'enhance.Hue': ['The Hue must be between -2 and 2.'] });
    const unknown = await demo.request('PUT', path, { filters: { Glow: true } });
    expect(unknown.json.errors).toEqual({ 'filters.Glow': ['The filter Glow is unknown.'] });
  });

  it('saves options (unit, flips, rotation, canvas size)', async () => {
    const design = await createDesign(demo);
    const res = await demo.request('PUT', `/api/pic-snippet/${design.id}/options`, {
      size_option: 'mm',
      flip_y: true,
      image_angle: 90,
    });
    expect(res.status).toBe(200);
    expect((await demo.request('GET', `/api/pic-snippet/${design.id}`)).json).toMatchObject({
      size_option: 'mm',
      flip_y: true,
      image_angle: 90,
    });
    const bad = await demo.request('PUT', `/api/pic-snippet/${design.id}/options`, {
      size_option: 'ft',
    });
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toHaveProperty('size_option');
  });
});

describe('stickers', () => {
  const qr = { uuid: 'qr-1', dynamicStickerType: 'qrCode', dynamicStickerUrl: 'https://x.test' };

  it('saves a generated QR code, its colour, margin and value', async () => {
    const design = await createDesign(demo);
    const base = `/api/pic-snippet/${design.id}`;
    const saved = await demo.request('POST', `${base}/saveGeneratedDynamicSticker`, {
      sticker: qr,
    });
    expect(saved.status).toBe(200);
    expect(saved.json.data).toEqual({
      currentSticker: expect.objectContaining({
        uuid: 'qr-1',
        stickerType: 'dynamicSticker',
        dynamicStickerParamName: 'qrCode1',
        width: 512,
        scaleX: 0.1,
        top: 10,
      }),
    });
    const second = await demo.request('POST', `${base}/saveGeneratedDynamicSticker`, {
      sticker: { ...qr, uuid: 'qr-2' },
    });
    expect(
      (second.json.data as { currentSticker: { dynamicStickerParamName: string } }).currentSticker
        .dynamicStickerParamName,
    ).toBe('qrCode2');

    const colour = await demo.request('PUT', `/pic-snippet/${design.id}/qrCodeColor`, {
      stickerId: 'qr-1',
      qrCodeColor: '#ff0000',
    });
    expect(colour.status).toBe(200);
    const badColour = await demo.request('PUT', `/pic-snippet/${design.id}/qrCodeColor`, {
      stickerId: 'qr-1',
      qrCodeColor: 'red',
    });
    expect(badColour.status).toBe(422);
    const value = await demo.request('PUT', `${base}/qrCode`, {
      stickerId: 'qr-1',
      dynamicStickerUrl: 'Scan me',
      marginSize: 4,
    });
    expect(value.status).toBe(200);
    const sticker = (
      (await demo.request('GET', base)).json.graphics_data as Array<Record<string, unknown>>
    )[0];
    expect(sticker).toMatchObject({
      qrCodeColor: '#ff0000',
      dynamicStickerUrl: 'Scan me',
      marginSize: 4,
    });
    const tooLong = await demo.request('PUT', `${base}/qrCode`, {
      stickerId: 'qr-1',
      dynamicStickerUrl: 'v'.repeat(256),
    });
    expect(tooLong.json.errors).toEqual({
      dynamicStickerUrl: ['Value may not be greater than 255 character!'],
    });
    const unknown = await demo.request('PUT', `${base}/qrCode`, { stickerId: 'none' });
    expect(unknown.json.errors).toEqual({ stickerId: ['The selected sticker is invalid.'] });
  });

  it('checks gravatar, hosted image and screenshot fallbacks with the spec messages', async () => {
    const design = await createDesign(demo);
    const base = `/api/pic-snippet/${design.id}`;
    const add = (sticker: Record<string, unknown>) =>
      demo.request('POST', `${base}/saveGeneratedDynamicSticker`, { sticker });
    expect(
      (await add({ uuid: 'g', dynamicStickerType: 'gravatar', dynamicStickerUrl: 'a@b.co' }))
        .status,
    ).toBe(200);
    const badMail = await demo.request('POST', `${base}/gravatarMail`, {
      stickerId: 'g',
      email: 'not-an-email',
    });
    expect(badMail.status).toBe(422);
    expect(badMail.json.errors).toEqual({ email: ['Invalid email'] });
    const mail = await demo.request('POST', `${base}/gravatarMail`, {
      stickerId: 'g',
      email: 'ana@example.com',
    });
    expect(mail.status).toBe(200);

    const hosted = { uuid: 'h', dynamicStickerType: 'hostedImage' };
    expect((await add({ ...hosted, dynamicStickerUrl: 'ftp://x.test/a.png' })).json.errors).toEqual(
      { dynamicStickerUrl: ['Invalid URL'] },
    );
    expect(
      (await add({ ...hosted, dynamicStickerUrl: 'https://x.test/a.bmp' })).json.errors,
    ).toEqual({ dynamicStickerUrl: ['Image not found. We support jpg, jpeg, png, gif and svg'] });
    expect((await add({ ...hosted, dynamicStickerUrl: 'https://x.test/a.png' })).status).toBe(200);

    const shot = { uuid: 's', dynamicStickerType: 'screenShot' };
    expect((await add({ ...shot, dynamicStickerUrl: 'example' })).json.errors).toEqual({
      dynamicStickerUrl: ['Invalid URL'],
    });
    const added = await add({ ...shot, dynamicStickerUrl: 'https://example.com' });
    expect(added.json.data).toMatchObject({
      currentSticker: { width: 910, height: 512, dynamicStickerParamName: 'screenIcon1' },
    });
    const type = await demo.request('POST', `${base}/saveScreenShotType`, {
      stickerId: 's',
      isMobile: true,
      dynamicStickerType: 'screenShot',
    });
    expect(type.status).toBe(200);
    const stickers = (await demo.request('GET', base)).json.graphics_data as Array<{
      uuid: string;
      isMobile: boolean;
      dynamicStickerUrl: string;
    }>;
    expect(stickers.find((s) => s.uuid === 's')!.isMobile).toBe(true);
    expect(stickers.find((s) => s.uuid === 'g')!.dynamicStickerUrl).toBe('ana@example.com');
  });
});

describe('POST /saveCroppedImage', () => {
  const form = (bytes: Buffer, designId: string, type = 'image/png') => {
    const data = new FormData();
    data.append('image', new Blob([Uint8Array.from(bytes)], { type }), 'crop.png');
    data.append('pic_snippet_id', designId);
    return data;
  };
  const png = () =>
    sharp({ create: { width: 320, height: 200, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();

  it('stores a PNG crop the design can then use as its photo', async () => {
    const design = await createDesign(demo);
    const res = await demo.request('POST', '/saveCroppedImage', form(await png(), design.id));
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    expect(res.json).toMatchObject({ success: true, width: 320, height: 200 });
    const croppedId = res.json.cropped_image_id as string;
    const saved = await demo.request('PUT', `/api/pic-snippet/${design.id}/saveImageId`, {
      image_id: croppedId,
    });
    expect(saved.status).toBe(200);
    const read = (await demo.request('GET', `/api/pic-snippet/${design.id}`)).json;
    expect(read.image_id).toBe(croppedId);
    // The crop is served and the design renders on it.
    const served = await fetch(`${stack().url}${new URL(read.base_image_url as string).pathname}`);
    expect(served.headers.get('content-type')).toBe('image/png');
    const render = await fetch(`${read.base_url as string}.jpg`);
    expect(render.headers.get('cache-control')).not.toContain('no-store');
    // Another team cannot use the crop.
    const other = await createDesign(admin);
    const refused = await admin.request('PUT', `/api/pic-snippet/${other.id}/saveImageId`, {
      image_id: croppedId,
    });
    expect(refused.status).toBe(422);
  });

  it('refuses a non-PNG, a missing file and another team’s design', async () => {
    const design = await createDesign(demo);
    const jpeg = await sharp(await png())
      .jpeg()
      .toBuffer();
    const notPng = await demo.request('POST', '/saveCroppedImage', form(jpeg, design.id));
    expect(notPng.status).toBe(422);
    expect(notPng.json.errors).toEqual({ image: ['The image must be a PNG image.'] });
    // A PNG name and type on other bytes is judged by its bytes.
    const fake = await demo.request(
      'POST',
      '/saveCroppedImage',
      form(Buffer.from('not an image at all'), design.id),
    );
    expect(fake.status).toBe(422);
    const noFile = new FormData();
    noFile.append('pic_snippet_id', design.id);
    expect((await demo.request('POST', '/saveCroppedImage', noFile)).json.errors).toEqual({
      image: ['Please choose an image to upload.'],
    });
    expect(
      (await admin.request('POST', '/saveCroppedImage', form(await png(), design.id))).status,
    ).toBe(404);
  });
});

describe('team rules', () => {
  it('answers 404 to every design call on another team’s design', async () => {
    const design = await createDesign(demo, { title: 'Private' });
    const id = design.id;
    const calls: Array<[string, string, unknown?]> = [
      ['GET', `/api/pic-snippet/${id}`],
      ['PUT', `/api/pic-snippet/${id}`, { title: 'Hacked' }],
      ['PUT', `/api/pic-snippet/${id}/pso`, { title: 'Hacked' }],
      ['PUT', `/api/pic-snippet/${id}/archive`, {}],
      ['PUT', `/api/pic-snippet/${id}/unarchive`, {}],
      ['PUT', `/pic-snippet/${id}/copy`],
      ['PUT', `/api/pic-snippet/${id}/replace`, { imageId: LIBRARY_IMAGE }],
      ['PUT', `/api/pic-snippet/${id}/saveImageId`, { image_id: LIBRARY_IMAGE }],
      ['PUT', `/api/pic-snippet/${id}/effects`, { filters: { Sepia: true } }],
      ['PUT', `/api/pic-snippet/${id}/options`, { flip_x: true }],
      ['PUT', `/pic-snippet/${id}/qrCodeColor`, { stickerId: 'a', qrCodeColor: '#000' }],
      ['PUT', `/api/pic-snippet/${id}/qrCode`, { stickerId: 'a' }],
      ['POST', `/api/pic-snippet/${id}/gravatarMail`, { stickerId: 'a', email: 'a@b.co' }],
      [
        'POST',
        `/api/pic-snippet/${id}/saveGeneratedDynamicSticker`,
        { sticker: { uuid: 'q', dynamicStickerType: 'qrCode' } },
      ],
      [
        'POST',
        `/api/pic-snippet/${id}/saveScreenShotType`,
        { stickerId: 'a', isMobile: true, dynamicStickerType: 'screenShot' },
      ],
    ];
    for (const [method, path, body] of calls) {
      const res = await admin.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await demo.request('GET', `/api/pic-snippet/${id}`)).json).toMatchObject({
      title: 'Private',
      version: 1,
      status: 'active',
    });
  });

  it('refuses create, archive, clone and activate for a frozen team, with a clear message', async () => {
    const owner = await ownTeam(stack().url, 'frozen-owner@example.org');
    const design = await createDesign(owner, { title: 'Before the freeze' });
    const archived = await createDesign(owner, { title: 'Archived before' });
    await owner.request('PUT', `/api/pic-snippet/${archived.id}/archive`, {});
    const me = (await owner.request('GET', '/settings/companies/current')).json;
    // The admin freezes the team through the kiosk (docs/adr/0044-the-api-contract.md "The API
    // contract").
    const freeze = await admin.request(
      'POST',
      `/custom/teams/${me.id as string}/additional_permissions`,
      { frozen: true },
    );
    expect(freeze.status, JSON.stringify(freeze.json)).toBe(200);

    const refused: Array<[string, string, unknown?, string?]> = [
      ['POST', '/api/pic-snippet', { image_id: LIBRARY_IMAGE }, 'create'],
      ['PUT', `/api/pic-snippet/${design.id}/archive`, {}, 'archive'],
      ['PUT', `/pic-snippet/${design.id}/copy`, undefined, 'clone'],
      ['PUT', `/api/pic-snippet/${archived.id}/unarchive`, {}, 'activate'],
    ];
    for (const [method, path, body, action] of refused) {
      const res = await owner.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.json.message).toBe(
        `Your team's account is frozen, so you cannot ${action} PicSnippets. ` +
          'Check the subscription in the team settings or contact support.',
      );
    }
    // Nothing changed, and editing still works.
    expect((await owner.request('GET', '/getActive')).json.active).toMatchObject({
      data: [expect.objectContaining({ id: design.id })],
    });
    const renamed = await owner.request('PUT', `/api/pic-snippet/${design.id}`, {
      title: 'Edited',
    });
    expect(renamed.status).toBe(200);
  });
});
