/**
 * `GET /image/{imageId}/tags` (docs/decisions.md "User files" → `result.tags[].tag.en`): the tag editor's
 * suggestions for an image, from the tags of templates made from it, most used first, then the
 * words of the image's title; only for images the team can see.
 *
 * @own-stack: suggestions count every team's templates of a global library photo, which other files make.
 */
import { describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();

async function signedIn(email: string): Promise<TestClient> {
  const client = new TestClient(stack().url);
  expect((await client.login(email)).status).toBe(200);
  return client;
}

/** Writes a template of the admin team made from `imageId` with `tags`. */
async function template(designId: string, imageId: string, tags: string[]) {
  const { db } = await import('#lib/db/index.ts');
  const { DesignDocumentSchema } = await import('#shared/design.ts');
  const demo = (await db().Design.get({ designId: 'design-demo-welcome' }).go()).data!;
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
    await template('tpl-tags-1', 'library-autumn', ['sale', 'autumn sale']);
    await template('tpl-tags-2', 'library-autumn', ['sale', 'welcome']);
    await template('tpl-tags-3', 'library-dune', ['desert']);
    const demo = await signedIn('demo@example.com');
    const res = await demo.request('GET', '/image/library-autumn/tags');
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
    const res = await demo.request('GET', '/image/library-kite/tags');
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
        imageId: 'upload-admin-only',
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
    expect((await demo.request('GET', '/image/upload-admin-only/tags')).status).toBe(404);
    const admin = await signedIn('admin@example.com');
    const own = await admin.request('GET', '/image/upload-admin-only/tags');
    expect(own.status).toBe(200);
    expect(JSON.stringify(own.json)).toContain('beach');
    expect(
      (await new TestClient(stack().url).request('GET', '/image/library-kite/tags')).status,
    ).toBe(401);
  });
});
