/**
 * The export screen's saves through the local stack (docs/export.md "What Generate writes": "Export
 * and merge tags": `PUT /api/pic-snippet/{id}/provider`, `/choices`, `/link`; docs/export.md "The
 * screen": "choosing a provider clears all merge values"; docs/export.md "The screen" export
 * validations; sticker fallback rules): what each call saves, that bad
 * input is refused whole (nothing written, the version unchanged), 409 on a stale version, 404 for
 * another team's design.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../support/client.ts';
import { TestClient as Client } from '../support/client.ts';
import { createDesign, ownTeam, signedIn, type DesignJson } from '../support/designs.ts';
import { buildRenderUrl } from '#shared/export-url.ts';
import { fetchImage, meanDifference, pollUntil, useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();
const { db } = await import('#lib/db/index.ts');

let demo: TestClient;
let admin: TestClient;
beforeAll(async () => {
  demo = await signedIn(stack().url, 'demo@example.com');
  admin = await signedIn(stack().url, 'admin@example.com');
});

const KLAVIYO_FIRST_NAME = "{{ first_name|default:'' }}";
const TOO_LONG = 'Value may not be greater than 255 character!';

/** A dynamic sticker of the given kind, fed by the parameter `name` (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore" Sticker). */
const dynamicSticker = (kind: string, name: string) => ({
  uuid: `sticker-${name}`,
  stickerType: 'dynamicSticker',
  dynamicStickerType: kind,
  dynamicStickerParamName: name,
  left: 10,
  top: 10,
});

/**
 * A design of the demo team with the seeded document (`Hello {{first_name}}!`, parameter
 * `param-first-name`) plus a hosted image, a screenshot and a gravatar sticker.
 */
async function exportDesign(): Promise<DesignJson> {
  const created = await createDesign(demo, { title: 'Export' });
  const seeded = (await db().Design.get({ designId: 'design-demo-welcome' }).go()).data!;
  await db()
    .Design.patch({ designId: created.id })
    .set({
      document: {
        ...(seeded.document as Record<string, unknown>),
        graphics_data: [
          dynamicSticker('hostedImage', 'hostedIcon1'),
          dynamicSticker('screenShot', 'screenIcon1'),
          dynamicSticker('gravatar', 'Gravatar1'),
        ],
      },
    })
    .go();
  return read(created.id);
}

async function read(id: string): Promise<DesignJson> {
  const res = await demo.request('GET', `/api/pic-snippet/${id}`);
  expect(res.status).toBe(200);
  return res.json as unknown as DesignJson;
}

/** The first text parameter's saved merge tag value. */
const firstValue = (design: DesignJson) =>
  (design.text_snippets as Array<{ parameters: Array<{ merge_tag_value: string | null }> }>)[0]!
    .parameters[0]!.merge_tag_value;

const put = (client: TestClient, id: string, call: string, body: Record<string, unknown>) =>
  client.request('PUT', `/api/pic-snippet/${id}/${call}`, body);

/** The body the screen sends to `/choices`: the first parameter's value and the choices. */
const choicesBody = (value: string, choices: Array<Record<string, string>> = []) => ({
  text_snippets: [{ parameters: [{ id: 'param-first-name', merge_tag_value: value }] }],
  merge_tag_choices: choices,
});

describe('PUT /api/pic-snippet/{id}/provider', () => {
  it('saves the platform and the Klaviyo store front', async () => {
    const design = await exportDesign();
    const res = await put(demo, design.id, 'provider', {
      ...design,
      merge_tag_provider: 'klaviyo',
      merge_tag_storefront: 'shopify',
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({
      success: true,
      version: design.version + 1,
      merge_tag_provider: 'klaviyo',
      merge_tag_storefront: 'shopify',
    });
    const after = await read(design.id);
    expect(after.merge_tag_provider).toBe('klaviyo');
    expect(after.merge_tag_storefront).toBe('shopify');
  });

  it('clears every merge value when the platform changes, not when only the store front does', async () => {
    const design = await exportDesign();
    await put(demo, design.id, 'provider', { merge_tag_provider: 'klaviyo' });
    const choices = [
      { key: 'first_name', merge_tag_name: 'First name', merge_tag_value: KLAVIYO_FIRST_NAME },
    ];
    expect(
      (await put(demo, design.id, 'choices', choicesBody(KLAVIYO_FIRST_NAME, choices))).status,
    ).toBe(200);
    // A store front change keeps the mapping.
    await put(demo, design.id, 'provider', {
      merge_tag_provider: 'klaviyo',
      merge_tag_storefront: 'woocommerce',
    });
    let after = await read(design.id);
    expect(firstValue(after)).toBe(KLAVIYO_FIRST_NAME);
    expect(after.merge_tag_choices).toEqual(choices);
    // Another platform clears values and choices (docs/export.md "The screen"), and drops the store
    // front.
    const res = await put(demo, design.id, 'provider', { merge_tag_provider: 'manychat' });
    expect(res.status).toBe(200);
    after = await read(design.id);
    expect(after.merge_tag_provider).toBe('manychat');
    expect(after.merge_tag_storefront).toBeNull();
    expect(firstValue(after)).toBeNull();
    expect(after.merge_tag_choices).toEqual([]);
  });

  it('stores Custom (the empty value) as no platform', async () => {
    const design = await exportDesign();
    await put(demo, design.id, 'provider', { merge_tag_provider: 'shopify' });
    const res = await put(demo, design.id, 'provider', { merge_tag_provider: '' });
    expect(res.status).toBe(200);
    expect((await read(design.id)).merge_tag_provider).toBeNull();
  });

  it("keeps the platform as the team's last, which the current team answers (Custom clears it)", async () => {
    const owner = await ownTeam(stack().url, `export-platform-${Date.now()}@example.com`);
    const design = await createDesign(owner, { title: 'Platform' });
    const team = async () => (await owner.request('GET', '/settings/companies/current')).json;
    expect(await team()).toMatchObject({ export_provider: null, export_storefront: null });
    expect(
      (
        await put(owner, design.id, 'provider', {
          merge_tag_provider: 'klaviyo',
          merge_tag_storefront: 'shopify',
        })
      ).status,
    ).toBe(200);
    expect(await team()).toMatchObject({
      export_provider: 'klaviyo',
      export_storefront: 'shopify',
    });
    await put(owner, design.id, 'provider', { merge_tag_provider: 'manychat' });
    expect(await team()).toMatchObject({ export_provider: 'manychat', export_storefront: null });
    await put(owner, design.id, 'provider', { merge_tag_provider: '' });
    expect(await team()).toMatchObject({ export_provider: null, export_storefront: null });
    // A refused save keeps the team's platform as it was.
    await put(owner, design.id, 'provider', { merge_tag_provider: 'shopify' });
    expect((await put(owner, design.id, 'provider', { merge_tag_provider: 'nope' })).status).toBe(
      422,
    );
    expect(await team()).toMatchObject({ export_provider: 'shopify' });
  });

  it('refuses an unknown platform or store front and writes nothing', async () => {
    const design = await exportDesign();
    const bad = await put(demo, design.id, 'provider', { merge_tag_provider: 'mailchimp' });
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toEqual({ merge_tag_provider: ['The selected platform is invalid.'] });
    const store = await put(demo, design.id, 'provider', {
      merge_tag_provider: 'klaviyo',
      merge_tag_storefront: 'etsy',
    });
    expect(store.status).toBe(422);
    expect(store.json.errors).toEqual({
      merge_tag_storefront: ['The selected store front is invalid.'],
    });
    const after = await read(design.id);
    expect(after.version).toBe(design.version);
    expect(after.merge_tag_provider).toBeNull();
  });

  it('answers 409 with the current version to a stale save', async () => {
    const design = await exportDesign();
    await put(demo, design.id, 'link', { html_link_url: 'example.com' });
    const stale = await put(demo, design.id, 'provider', {
      version: design.version,
      merge_tag_provider: 'klaviyo',
    });
    expect(stale.status).toBe(409);
    expect(stale.json.version).toBe(design.version + 1);
    expect((await read(design.id)).merge_tag_provider).toBeNull();
  });
});

describe('PUT /api/pic-snippet/{id}/choices', () => {
  it('saves each parameter’s merge tag and the choices', async () => {
    const design = await exportDesign();
    await put(demo, design.id, 'provider', { merge_tag_provider: 'klaviyo' });
    const choices = [
      { key: 'first_name', merge_tag_name: 'First name', merge_tag_value: KLAVIYO_FIRST_NAME },
      { key: 'hostedIcon1', merge_tag_name: '', merge_tag_value: 'https://cdn.example.com/a.webp' },
      { key: 'screenIcon1', merge_tag_name: '', merge_tag_value: 'example.com/pricing' },
      { key: 'Gravatar1', merge_tag_name: '', merge_tag_value: 'ana@example.com' },
    ];
    const res = await put(demo, design.id, 'choices', choicesBody(KLAVIYO_FIRST_NAME, choices));
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.merge_tag_values).toEqual({ 'param-first-name': KLAVIYO_FIRST_NAME });
    const after = await read(design.id);
    expect(firstValue(after)).toBe(KLAVIYO_FIRST_NAME);
    expect(after.merge_tag_choices).toEqual(choices);
    // An empty value clears it (the design's fallback shows).
    await put(demo, design.id, 'choices', choicesBody('  '));
    expect(firstValue(await read(design.id))).toBeNull();
  });

  it('refuses a value over 255 characters, and writes none of the body', async () => {
    const design = await exportDesign();
    const long = 'x'.repeat(256);
    const res = await put(
      demo,
      design.id,
      'choices',
      choicesBody(long, [{ key: 'first_name', merge_tag_name: '', merge_tag_value: 'Ana' }]),
    );
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual({ 'parameters.param-first-name': [TOO_LONG] });
    const choice = await put(
      demo,
      design.id,
      'choices',
      choicesBody('Ana', [{ key: 'first_name', merge_tag_name: '', merge_tag_value: long }]),
    );
    expect(choice.status).toBe(422);
    expect(choice.json.errors).toEqual({ 'merge_tag_choices.first_name': [TOO_LONG] });
    const after = await read(design.id);
    expect(after.version).toBe(design.version);
    expect(firstValue(after)).toBeNull();
    expect(after.merge_tag_choices).toEqual([]);
    // 255 characters are fine (emoji count as one).
    const max = '😀'.repeat(255);
    expect((await put(demo, design.id, 'choices', choicesBody(max))).status).toBe(200);
  });

  it('checks dynamic sticker values by kind (spec 000 §5, spec 001 §5)', async () => {
    const design = await exportDesign();
    const res = await put(demo, design.id, 'choices', {
      merge_tag_choices: [
        { key: 'hostedIcon1', merge_tag_name: '', merge_tag_value: 'https://x.example/a.txt' },
        { key: 'screenIcon1', merge_tag_name: '', merge_tag_value: 'not a url at all' },
        { key: 'Gravatar1', merge_tag_name: '', merge_tag_value: 'ana-at-example.com' },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual({
      'merge_tag_choices.hostedIcon1': ['Image not found. We support jpg, jpeg, png, gif and svg'],
      'merge_tag_choices.screenIcon1': ['Invalid URL'],
      'merge_tag_choices.Gravatar1': ['Invalid email'],
    });
    expect((await read(design.id)).version).toBe(design.version);
  });

  it('refuses a parameter or a choice key the design does not have', async () => {
    const design = await exportDesign();
    const res = await put(demo, design.id, 'choices', {
      text_snippets: [{ parameters: [{ id: 'param-gone', merge_tag_value: 'x' }] }],
      merge_tag_choices: [{ key: 'last_name', merge_tag_name: '', merge_tag_value: 'x' }],
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.json.errors as object).sort()).toEqual([
      'merge_tag_choices.last_name',
      'parameters.param-gone',
    ]);
  });

  it('keeps only the fields of a choice', async () => {
    const design = await exportDesign();
    const res = await put(demo, design.id, 'choices', {
      merge_tag_choices: [
        {
          key: 'first_name',
          merge_tag_name: 'First',
          merge_tag_value: 'Ana',
          extra: 'x'.repeat(999),
        },
      ],
    });
    expect(res.status).toBe(200);
    expect((await read(design.id)).merge_tag_choices).toEqual([
      { key: 'first_name', merge_tag_name: 'First', merge_tag_value: 'Ana' },
    ]);
  });
});

describe('PUT /api/pic-snippet/{id}/link', () => {
  it('normalises the link: https:// is added when no scheme is written', async () => {
    const design = await exportDesign();
    const res = await put(demo, design.id, 'link', {
      ...design,
      html_link_url: ' shop.example.com/sale ',
    });
    expect(res.status).toBe(200);
    expect(res.json.html_link_url).toBe('https://shop.example.com/sale');
    expect((await read(design.id)).html_link_url).toBe('https://shop.example.com/sale');
    await put(demo, design.id, 'link', { html_link_url: 'http://plain.example.com/' });
    expect((await read(design.id)).html_link_url).toBe('http://plain.example.com/');
    // A port is not a scheme: `host:8080` gets https:// too.
    await put(demo, design.id, 'link', { html_link_url: 'shop.example.com:8080/sale' });
    expect((await read(design.id)).html_link_url).toBe('https://shop.example.com:8080/sale');
    await put(demo, design.id, 'link', { html_link_url: '' });
    expect((await read(design.id)).html_link_url).toBeNull();
  });

  it.each([
    'javascript:alert(1)',
    'ftp://files.example.com/a',
    'data:text/html,hi',
    'mailto:a@b.co',
  ])('refuses %s and keeps the saved link', async (link) => {
    const design = await exportDesign();
    await put(demo, design.id, 'link', { html_link_url: 'example.com' });
    const res = await put(demo, design.id, 'link', { html_link_url: link });
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual({
      html_link_url: ['The link must be a web address starting with http:// or https://.'],
    });
    expect((await read(design.id)).html_link_url).toBe('https://example.com/');
  });
});

describe('POST /api/pic-snippet/{id}/cache-id (Generate; docs/export.md "Cache id")', () => {
  const IMMUTABLE = 'public, max-age=31536000, immutable';
  /** Above "Hello {first_name}!": the photo only, px. */
  const photoBand = (width: number) => ({ left: 0, top: 0, width, height: 150 });

  it('keeps the design: e-mails sent with its URL draw it after an edit, new exports the edit', async () => {
    const design = await exportDesign();
    const res = await demo.request('POST', `/api/pic-snippet/${design.id}/cache-id`, {});
    expect(res.status).toBe(200);
    expect(res.json.cache_id).toBe(`v${design.version}`);
    const urlFor = (cacheId: string | undefined, name: string) =>
      buildRenderUrl({
        base_url: `${stack().url}/r/${design.public_id}`,
        cacheId: cacheId ?? null,
        provider: null,
        parameters: [{ param_name: 'first_name', merge_tag_value: name }],
      });
    const sentUrl = urlFor(res.json.cache_id as string, 'Ana');
    expect(new URL(sentUrl).pathname).toBe(`/r/${design.public_id}/${res.json.cache_id}`);
    const before = await fetchImage(sentUrl);
    expect(before.res.status).toBe(200);
    expect(before.res.headers.get('content-type')).toBe('image/jpeg');
    expect(before.res.headers.get('cache-control')).toBe(IMMUTABLE);

    // An edit that changes what is drawn: the photo is flipped.
    const edit = await demo.request('PUT', `/api/pic-snippet/${design.id}/options`, {
      flip_x: true,
    });
    expect(edit.status).toBe(200);
    // The render service keeps a design for a second (functions/render/handler.ts): the URL
    // without a cache id draws the edit once that second is over.
    const band = photoBand(before.width);
    const edited = await pollUntil(
      'the edit drawn',
      () => fetchImage(urlFor(undefined, 'Ana')),
      (img) => meanDifference(img.pixels, before.pixels, before.width, band) > 5,
      { timeoutMs: 30_000, intervalMs: 200 },
    );

    const again = await fetchImage(sentUrl);
    expect(again.res.status).toBe(200);
    expect(again.res.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(meanDifference(again.pixels, before.pixels, before.width, band)).toBe(0);
    // Another recipient of that e-mail, drawn for the first time now, sees the kept design too.
    const other = await fetchImage(urlFor(res.json.cache_id as string, 'Bea'));
    expect(meanDifference(other.pixels, before.pixels, before.width, band)).toBeLessThan(1);
    expect(meanDifference(other.pixels, edited.pixels, before.width, band)).toBeGreaterThan(5);

    // Generate after the edit names the new version, which draws the edit.
    const next = await demo.request('POST', `/api/pic-snippet/${design.id}/cache-id`, {});
    expect(next.json.cache_id).not.toBe(res.json.cache_id);
    const fresh = await fetchImage(urlFor(next.json.cache_id as string, 'Ana'));
    expect(fresh.res.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(meanDifference(fresh.pixels, edited.pixels, before.width, band)).toBe(0);
  });

  it('draws the current design, briefly cached, for a cache id nothing was kept for', async () => {
    const design = await exportDesign();
    // An earlier version no Generate kept (edited since), and a version the design never had.
    const edit = await demo.request('PUT', `/api/pic-snippet/${design.id}/options`, {
      flip_x: true,
    });
    expect(edit.status).toBe(200);
    for (const cacheId of [`v${design.version}`, 'v999999']) {
      const res = await fetch(`${stack().url}/r/${design.public_id}/${cacheId}?first_name=Ana`);
      expect(res.status, cacheId).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect(res.headers.get('cache-control'), cacheId).not.toBe(IMMUTABLE);
    }
  });

  it('names the same kept copy again while only the export settings changed', async () => {
    const design = await exportDesign();
    const first = await demo.request('POST', `/api/pic-snippet/${design.id}/cache-id`, {});
    expect(first.status).toBe(200);
    // Saving the platform bumps the version but draws nothing new.
    const provider = await demo.request('PUT', `/api/pic-snippet/${design.id}/provider`, {
      merge_tag_provider: 'klaviyo',
    });
    expect(provider.status).toBe(200);
    expect((await read(design.id)).version).toBeGreaterThan(design.version);
    const second = await demo.request('POST', `/api/pic-snippet/${design.id}/cache-id`, {});
    expect(second.json.cache_id).toBe(first.json.cache_id);
    const kept = await db()
      .DesignSnapshot.query.byVersion({ snapshotOf: design.id })
      .go({ pages: 'all' });
    expect(kept.data).toHaveLength(1);
  });

  it("is 404 for another team's design", async () => {
    const design = await exportDesign();
    const res = await admin.request('POST', `/api/pic-snippet/${design.id}/cache-id`, {});
    expect(res.status).toBe(404);
  });
});

describe('who may save', () => {
  it.each([
    ['provider', { merge_tag_provider: 'klaviyo' }],
    ['choices', choicesBody('Ana')],
    ['link', { html_link_url: 'example.com' }],
  ] as const)('another team’s design is not found (%s)', async (call, body) => {
    const res = await put(admin, 'design-demo-welcome', call, body);
    expect(res.status).toBe(404);
    const design = (await db().Design.get({ designId: 'design-demo-welcome' }).go()).data!;
    const document = design.document as Record<string, unknown>;
    expect(document.merge_tag_provider ?? null).toBeNull();
    expect(document.html_link_url ?? null).toBeNull();
  });

  it('a signed-out caller gets 401', async () => {
    const res = await new Client(stack().url).request(
      'PUT',
      '/api/pic-snippet/design-demo-welcome/link',
      {
        html_link_url: 'example.com',
      },
    );
    expect(res.status).toBe(401);
  });
});
