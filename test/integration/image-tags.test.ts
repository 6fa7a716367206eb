/**
 * `GET /image/{imageId}/tags` (docs/adr/0017-user-files.md "User files" → `result.tags[].tag.en`):
 * the tag editor's suggestions for an image, from the tags of templates made from it, most used
 * first, then the words of the image's title; only for images the team can see.
 *
 * Suggestions count every team's templates of a global photo, and other files on the same stack
 * make templates of the seeded photos: the photos here are global photos of this file's own
 * (copies of seeded ones under ids of their own), removed after the file with the templates and
 * the upload it writes (docs/testing.md "One stack per worker").
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();

async function signedIn(email: string): Promise<TestClient> {
  const client = new TestClient(stack().url);
  expect((await client.login(email)).status).toBe(200);
  return client;
}

const TAG = randomUUID().slice(0, 8);
/** This file's global photos: a copy of the seeded autumn photo and one of the kite. */
const AUTUMN = `library-tags-autumn-${TAG}`;
const KITE = `library-tags-kite-${TAG}`;
const DUNE = `library-tags-dune-${TAG}`;
/** The admin team's upload no other team may see. */
const PRIVATE_UPLOAD = `upload-admin-only-${TAG}`;
/** The templates this file writes. */
const TEMPLATES: string[] = [];

beforeAll(async () => {
  const { db } = await import('#lib/db/index.ts');
  for (const [seeded, id] of [
    ['library-autumn', AUTUMN],
    ['library-kite', KITE],
    ['library-dune', DUNE],
  ] as const) {
    const { createdAt: _createdAt, ...photo } = (
      await db().LibraryImage.get({ imageId: seeded }).go()
    ).data!;
    await db()
      .LibraryImage.put({ ...photo, imageId: id })
      .go();
  }
});

afterAll(async () => {
  const { db } = await import('#lib/db/index.ts');
  for (const imageId of [AUTUMN, KITE, DUNE, PRIVATE_UPLOAD])
    await db().LibraryImage.delete({ imageId }).go();
  for (const designId of TEMPLATES) await db().Design.delete({ designId }).go();
});

/** Writes a template of the admin team made from `imageId` with `tags`. */
async function template(name: string, imageId: string, tags: string[]) {
  const { db } = await import('#lib/db/index.ts');
  const { DesignDocumentSchema } = await import('#shared/design.ts');
  const demo = (await db().Design.get({ designId: 'design-demo-welcome' }).go()).data!;
  const designId = `${name}-${TAG}`;
  TEMPLATES.push(designId);
  await db()
    .Design.put({
      designId,
      teamId: 'team-admin',
      publicId: `${designId}-pub`,
      title: designId,
      status: 'active',
      isTemplate: true,
      version: 1,
      document: DesignDocumentSchema.parse({
        ...(demo.document as object),
        image_id: imageId,
        image_tags: tags,
      }),
    })
    .go();
}

describe('GET /image/{id}/tags', () => {
  it('suggests the tags of templates made from the image, most used first, then title words', async () => {
    await template('tpl-tags-1', AUTUMN, ['sale', 'autumn sale']);
    await template('tpl-tags-2', AUTUMN, ['sale', 'welcome']);
    await template('tpl-tags-3', DUNE, ['desert']);
    const demo = await signedIn('demo@example.com');
    const res = await demo.request('GET', `/image/${AUTUMN}/tags`);
    expect(res.status).toBe(200);
    const tags = (res.json.result as { tags: Array<{ confidence: number; tag: { en: string } }> })
      .tags;
    expect(tags.slice(0, 3)).toEqual([
      { confidence: 100, tag: { en: 'sale' } },
      { confidence: 50, tag: { en: 'autumn sale' } },
      { confidence: 50, tag: { en: 'welcome' } },
    ]);
    // The library photo's title ("Autumn") gives a word of its own, after the templates' tags.
    expect(tags.slice(3).map((t) => t.tag.en)).toContain('autumn');
    expect(tags.map((t) => t.tag.en)).not.toContain('desert');
  });

  it('answers an image without templates with its title words only', async () => {
    const demo = await signedIn('demo@example.com');
    const res = await demo.request('GET', `/image/${KITE}/tags`);
    expect(res.status).toBe(200);
    const tags = (res.json.result as { tags: Array<{ confidence: number; tag: { en: string } }> })
      .tags;
    expect(tags.length).toBeGreaterThan(0);
    expect(tags.every((t) => t.confidence === 10)).toBe(true);
  });

  it("answers 404 for another team's upload and 401 when signed out", async () => {
    const { db } = await import('#lib/db/index.ts');
    await db()
      .LibraryImage.put({
        imageId: PRIVATE_UPLOAD,
        scope: 'team-admin',
        key: 'files/uploads/team-admin/x.jpg',
        thumbKey: 'files/uploads/team-admin/x-thumb.jpg',
        contentType: 'image/jpeg',
        width: 10,
        height: 10,
        bytes: 100,
        title: 'Private beach',
      })
      .go();
    const demo = await signedIn('demo@example.com');
    expect((await demo.request('GET', `/image/${PRIVATE_UPLOAD}/tags`)).status).toBe(404);
    const admin = await signedIn('admin@example.com');
    const own = await admin.request('GET', `/image/${PRIVATE_UPLOAD}/tags`);
    expect(own.status).toBe(200);
    expect(JSON.stringify(own.json)).toContain('beach');
    expect((await new TestClient(stack().url).request('GET', `/image/${KITE}/tags`)).status).toBe(
      401,
    );
  });
});
