/**
 * Design bounds through the local stack (docs/security.md "Design bounds"): a write past a
 * bound answers 422 JSON naming the field and stores nothing, whichever route writes (the full
 * PUT, saveGeneratedDynamicSticker, options); and the full PUT checks the link as
 * `PUT …/link` does, so it cannot store a `javascript:` link the export screen would put in
 * HTML (mutation check: without that check the javascript: test fails, the full PUT answering
 * 200 and storing the link).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../support/client.ts';
import { createDesign, signedIn, type DesignJson } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();

let demo: TestClient;
beforeAll(async () => {
  demo = await signedIn(stack().url, 'demo@example.com');
});

const read = async (id: string) =>
  (await demo.request('GET', `/api/pic-snippet/${id}`)).json as DesignJson;

/** The design as the editor holds it: the document's fields, title and version. */
const editable = (design: DesignJson) => {
  const { id: _id, public_id: _publicId, base_url: _baseUrl, ...fields } = design;
  return fields;
};

const snippet = (id: string, text = 'Hello') => ({ id, text, left: 10, top: 10, width: 200 });
const sticker = (uuid: string, extra: Record<string, unknown> = {}) => ({
  uuid,
  url: '/files/stickers/star.png',
  left: 10,
  top: 10,
  ...extra,
});

/**
 * Sends a full save that breaks one bound and expects 422 JSON with `field`'s message, and
 * the design read back unchanged.
 */
async function refusedFullSave(change: Record<string, unknown>, field: string, message: string) {
  const design = await createDesign(demo, { title: 'Bounds' });
  const before = await read(design.id);
  const res = await demo.request('PUT', `/api/pic-snippet/${design.id}`, {
    ...editable(before),
    ...change,
  });
  expect(res.status, JSON.stringify(res.json)).toBe(422);
  expect(res.headers.get('content-type')).toContain('application/json');
  expect(res.json).toMatchObject({ success: false, errors: { [field]: [message] } });
  expect(await read(design.id)).toEqual(before);
}

describe('the full save (PUT /api/pic-snippet/{id}) past a bound', () => {
  it('refuses a canvas over 4096 px high', () =>
    refusedFullSave(
      { canvas_height: 4097 },
      'canvas_height',
      'The canvas height may not be greater than 4096.',
    ));

  it('refuses more than 50 text snippets', () =>
    refusedFullSave(
      { text_snippets: Array.from({ length: 51 }, (_, i) => snippet(`s${i}`)) },
      'text_snippets',
      'The text snippets may not have more than 50 items.',
    ));

  it('refuses a text over 1000 characters', () =>
    refusedFullSave(
      { text_snippets: [snippet('s', 'x'.repeat(1001))] },
      'text_snippets.0.text',
      'The text may not be greater than 1000 characters.',
    ));

  it('refuses more than 50 stickers', () =>
    refusedFullSave(
      { graphics_data: Array.from({ length: 51 }, (_, i) => sticker(`p${i}`)) },
      'graphics_data',
      'The stickers may not have more than 50 items.',
    ));

  it('refuses a sticker drawn over 4096 px wide', () =>
    refusedFullSave(
      { graphics_data: [sticker('big', { width: 512, scaleX: 9 })] },
      'graphics_data.0.scaleX',
      'The sticker may not be drawn wider than 4096 px.',
    ));

  it('refuses a sticker scale over 100', () =>
    refusedFullSave(
      { graphics_data: [sticker('big', { width: 1, height: 1, scaleY: 101 })] },
      'graphics_data.0.scaleY',
      'The scale y may not be greater than 100.',
    ));
});

describe('other writes past a bound', () => {
  const qr = (n: number) => ({
    uuid: `qr-${n}`,
    dynamicStickerType: 'qrCode',
    dynamicStickerUrl: 'https://example.com',
  });

  it('saveGeneratedDynamicSticker refuses an 11th dynamic sticker and keeps the ten', async () => {
    const design = await createDesign(demo, { title: 'Ten QR codes' });
    const base = `/api/pic-snippet/${design.id}/saveGeneratedDynamicSticker`;
    for (let n = 1; n <= 10; n++) {
      expect((await demo.request('POST', base, { sticker: qr(n) })).status).toBe(200);
    }
    const before = await read(design.id);
    const res = await demo.request('POST', base, { sticker: qr(11) });
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({
      success: false,
      errors: { graphics_data: ['The stickers may not have more than 10 dynamic stickers.'] },
    });
    expect(await read(design.id)).toEqual(before);
  });

  it('saveGeneratedDynamicSticker refuses a sticker drawn over 4096 px', async () => {
    const design = await createDesign(demo);
    const before = await read(design.id);
    const res = await demo.request(
      'POST',
      `/api/pic-snippet/${design.id}/saveGeneratedDynamicSticker`,
      { sticker: { ...qr(1), scaleX: 50, scaleY: 50 } },
    );
    expect(res.status).toBe(422);
    expect(res.json.errors).toMatchObject({
      scaleX: ['The sticker may not be drawn wider than 4096 px.'],
    });
    expect(await read(design.id)).toEqual(before);
  });

  it('the options call refuses a canvas over 4096 px high', async () => {
    const design = await createDesign(demo);
    const before = await read(design.id);
    const res = await demo.request('PUT', `/api/pic-snippet/${design.id}/options`, {
      canvas_height: 5000,
    });
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual({
      canvas_height: ['The canvas height may not be greater than 4096.'],
    });
    expect(await read(design.id)).toEqual(before);
  });
});

describe('the link of a full save', () => {
  const LINK_MESSAGE = 'The link must be a web address starting with http:// or https://.';

  it('refuses a javascript: link as PUT …/link does, and stores nothing', async () => {
    await refusedFullSave(
      { html_link_url: 'javascript:alert(document.cookie)' },
      'html_link_url',
      LINK_MESSAGE,
    );
    const design = await createDesign(demo);
    const link = await demo.request('PUT', `/api/pic-snippet/${design.id}/link`, {
      html_link_url: 'javascript:alert(document.cookie)',
    });
    expect(link.json.errors).toEqual({ html_link_url: [LINK_MESSAGE] });
  });

  it('normalises a new link, and keeps a link sent as stored', async () => {
    const design = await createDesign(demo);
    const saved = await demo.request('PUT', `/api/pic-snippet/${design.id}`, {
      ...editable(await read(design.id)),
      html_link_url: '  example.com/offer ',
    });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    const after = await read(design.id);
    expect(after.html_link_url).toBe('https://example.com/offer');
    const again = await demo.request('PUT', `/api/pic-snippet/${design.id}`, {
      ...editable(after),
      title: 'Still linked',
    });
    expect(again.status).toBe(200);
    expect((await read(design.id)).html_link_url).toBe('https://example.com/offer');
  });
});
