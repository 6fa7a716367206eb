/**
 * The design store (functions/designs/store.ts; docs/adr/0019-design-api-shapes.md "Design API
 * shapes") against DynamoDB Local: reads are scoped to the team, every write checks and bumps
 * `version`, a stale or losing write gets 409 with the current version and leaves the stored design
 * as the winner wrote it.
 */
import { describe, expect, it } from 'vitest';
import { useLocalStack } from '../support/stack.ts';

useLocalStack({ warmChromium: false });

const store = () => import('#functions/designs/store.ts');
const { db } = await import('#lib/db/index.ts');

/** A copy of the seeded demo design under a new id, so tests do not disturb each other. */
async function copyOfDemo(designId: string, teamId = 'team-demo') {
  const demo = (await db().Design.get({ designId: 'design-demo-welcome' }).go()).data!;
  await db()
    .Design.put({
      designId,
      teamId,
      publicId: `pub-${designId}`,
      title: `Title of ${designId}`,
      version: 1,
      document: demo.document,
    })
    .go();
  return designId;
}

describe('loadDesign', () => {
  it("finds the team's design and answers 404 for another team or a missing id", async () => {
    const { loadDesign } = await store();
    const id = await copyOfDemo('store-load');
    expect((await loadDesign('team-demo', id)).title).toBe('Title of store-load');
    await expect(loadDesign('team-admin', id)).rejects.toMatchObject({ status: 404 });
    await expect(loadDesign('team-demo', 'no-such-design')).rejects.toMatchObject({
      status: 404,
    });
    await expect(loadDesign(undefined, id)).rejects.toMatchObject({ status: 404 });
  });
});

describe('updateDesign', () => {
  it('writes the change, bumps the version and updatedAt, keeps createdAt', async () => {
    const { updateDesign } = await store();
    const id = await copyOfDemo('store-update');
    const before = (await db().Design.get({ designId: id }).go()).data!;
    const written = await updateDesign('team-demo', id, 1, () => ({ title: 'Renamed' }));
    expect(written).toMatchObject({ title: 'Renamed', version: 2, createdAt: before.createdAt });
    expect(written.updatedAt! >= before.updatedAt!).toBe(true);
    const stored = (await db().Design.get({ designId: id }).go()).data!;
    expect(stored).toMatchObject({ title: 'Renamed', version: 2, titleSort: expect.any(String) });
  });

  it('answers 409 with the current version to a stale version and writes nothing', async () => {
    const { updateDesign } = await store();
    const id = await copyOfDemo('store-stale');
    await updateDesign('team-demo', id, 1, () => ({ title: 'First' }));
    await expect(
      updateDesign('team-demo', id, 1, () => ({ title: 'Second' })),
    ).rejects.toMatchObject({ status: 409, details: { version: 2 } });
    expect((await db().Design.get({ designId: id }).go()).data).toMatchObject({
      title: 'First',
      version: 2,
    });
  });

  it('lets exactly one of 20 concurrent writers of one version win', async () => {
    const { updateDesign } = await store();
    const id = await copyOfDemo('store-race');
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        updateDesign('team-demo', id, 1, () => ({ title: `Writer ${i}` })),
      ),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r) => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(19);
    for (const r of lost) {
      expect((r as PromiseRejectedResult).reason).toMatchObject({
        status: 409,
        details: { version: 2 },
      });
    }
    const winner = (won[0] as PromiseFulfilledResult<{ title: string }>).value.title;
    expect((await db().Design.get({ designId: id }).go()).data).toMatchObject({
      title: winner,
      version: 2,
    });
  });

  it('retries writers that claim no version, so none of their changes is lost', async () => {
    const { updateDesign } = await store();
    const id = await copyOfDemo('store-unversioned');
    // Four writers each add their own filter to the document: all four must survive.
    const names = ['Grayscale', 'Sepia', 'Invert', 'Vintage'];
    await Promise.all(
      names.map((name) =>
        updateDesign('team-demo', id, undefined, (record) => ({
          document: { ...record.document, filters: { ...record.document.filters, [name]: true } },
        })),
      ),
    );
    const stored = (await db().Design.get({ designId: id }).go()).data!;
    expect(stored.version).toBe(5);
    expect(Object.keys((stored.document as { filters: object }).filters).sort()).toEqual(
      [...names].sort(),
    );
  });

  it('refuses an invalid document with 422 and keeps the stored one', async () => {
    const { updateDesign } = await store();
    const id = await copyOfDemo('store-invalid');
    await expect(
      updateDesign('team-demo', id, 1, (record) => ({
        document: { ...record.document, canvas_width: 5000 },
      })),
    ).rejects.toMatchObject({ name: 'ZodError' });
    expect((await db().Design.get({ designId: id }).go()).data!.version).toBe(1);
  });

  it('does not write when the change is null (nothing to save)', async () => {
    const { updateDesign } = await store();
    const id = await copyOfDemo('store-noop');
    const same = await updateDesign('team-demo', id, 1, () => null);
    expect(same.version).toBe(1);
  });
});

describe('recordDesignViews', () => {
  it('adds views and keeps the views sort key equal to the count', async () => {
    const { recordDesignViews } = await store();
    const id = await copyOfDemo('store-views');
    await Promise.all([recordDesignViews(id, 3), recordDesignViews(id, 4)]);
    expect((await db().Design.get({ designId: id }).go()).data).toMatchObject({
      counter: 7,
      listedViews: 7,
    });
  });

  it('gives an item written before list keys existed its list key', async () => {
    const { recordDesignViews } = await store();
    const id = await copyOfDemo('store-legacy');
    const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
    const { documentClient } = await import('#lib/clients.ts');
    const { config } = await import('#lib/config.ts');
    const key = db().Design.get({ designId: id }).params() as { Key: Record<string, string> };
    await documentClient().send(
      new UpdateCommand({
        TableName: config().TABLE_NAME,
        Key: key.Key,
        UpdateExpression: 'REMOVE listKey, listedViews, gsi5pk, gsi5sk',
      }),
    );
    await recordDesignViews(id, 2);
    expect((await db().Design.get({ designId: id }).go()).data).toMatchObject({
      counter: 2,
      listedViews: 2,
      listKey: 'team:team-demo:active',
    });
    const byViews = await db().Design.query.byListViews({ listKey: 'team:team-demo:active' }).go({
      pages: 'all',
    });
    expect(byViews.data.map((d) => d.designId)).toContain(id);
  });
});
