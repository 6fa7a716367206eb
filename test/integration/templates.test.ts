/**
 * Templates and template bundles through the local stack (docs/templates.md "Screens",
 * docs/templates.md "Model", docs/templates.md "Calls": "Dashboard lists" and "Templates and
 * bundles (admin)"; docs/templates.md): the admin saves a design as a template with tags and a new
 * bundle, assigns the bundle to the demo team, whose member then finds it in the Bonus tab and
 * makes a design from it; status changes, deletes, 403 for users on every admin call, 404 for
 * unknown ids and no writes on bad input (a full bundle among it).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleFullMessage, MAX_BUNDLE_TEMPLATES } from '#functions/bundles/store.ts';
import { db } from '#lib/db/index.ts';
import type { TestClient } from '../support/client.ts';
import { createDesign, signedIn, type DesignJson } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false });

let admin: TestClient;
let demo: TestClient;

interface Card {
  id: string;
  title: string;
  status: string;
  tags: string[];
}
interface Bundle {
  id: string;
  name: string;
  status: number;
  templatesCount: number;
  teamsCount: number;
  bundle_images: Card[];
  editurl: string;
}
interface Option {
  id: string;
  name: string;
  selected: boolean;
  template_id: string | null;
}

beforeAll(async () => {
  admin = await signedIn(stack().url, 'admin@example.com');
  demo = await signedIn(stack().url, 'demo@example.com');
});

/** Saves a design of the admin's team as a template. */
async function saveTemplate(
  design: DesignJson,
  imageTags: string[],
  templateBundles: unknown[] = [],
  action = 'save',
) {
  return admin.request('POST', `/admin/template/${action}`, {
    picSnippetId: design.id,
    imageTags,
    templateBundles,
  });
}

const panel = async (client: TestClient, query: string) =>
  (await client.request('GET', `/getTemplates?${query}`)).json as {
    templates: { data: Card[]; current_page: number; last_page: number };
    templatesBundles: { data: Bundle[] };
    related_tags: string[];
  };

const bundleOptions = async (id: string | null) =>
  ((await admin.request('POST', '/get-all-template-bundle', { id })).json.bundles ??
    []) as Option[];

describe('saving a template, bundles and teams (the admin flow of docs/decisions.md)', () => {
  it('saves tags and a new bundle, assigns the demo team, and the demo user uses it', async () => {
    const design = await createDesign(admin, { title: 'Summer greeting' });
    const saved = await saveTemplate(
      design,
      ['  Summer ', 'sale', 'Beach  Party'],
      [{ name: 'Summer pack' }],
    );
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    expect(saved.json).toMatchObject({
      success: true,
      message: 'The template was saved.',
      imageTags: ['summer', 'sale', 'beach party'],
    });
    // Every bundle is listed, other files' too (one stack per worker): this one is selected.
    const bundles = saved.json.bundles as Option[];
    expect(bundles).toContainEqual(
      expect.objectContaining({ name: 'Summer pack', selected: true }),
    );
    expect(bundles.filter((b) => b.selected).map((b) => b.name)).toEqual(['Summer pack']);
    const bundleId = bundles.find((b) => b.name === 'Summer pack')!.id;

    // The design became a template: the editor reads its tags, the lists moved it.
    const reread = (await admin.request('GET', `/api/pic-snippet/${design.id}`)).json;
    expect(reread).toMatchObject({
      isTemplate: true,
      image_tags: ['summer', 'sale', 'beach party'],
    });
    const active = (await admin.request('GET', '/getActive')).json.active as { data: Card[] };
    expect(active.data.map((c) => c.id)).not.toContain(design.id);

    // Everyone finds it in the Global tab by a tag's start or by its title.
    for (const search of ['summ', 'beach', 'GREETING']) {
      const found = await panel(demo, `type=templates&imageTag=${search}`);
      expect(
        found.templates.data.map((c) => c.id),
        search,
      ).toContain(design.id);
    }
    expect((await panel(demo, 'type=templates&imageTag=winter')).templates.data).toEqual([]);
    expect((await panel(demo, 'type=templates&imageTag=sale')).related_tags).toEqual(
      expect.arrayContaining(['summer', 'beach party']),
    );
    // The dashboard's tag filter (onboarding's address) finds it by an exact tag only.
    const tagged = (await demo.request('GET', '/getHomeTemplates?tag=Sale')).json.templates as {
      data: Card[];
    };
    expect(tagged.data.map((c) => c.id)).toEqual([design.id]);
    const none = (await demo.request('GET', '/getHomeTemplates?tag=sal')).json.templates as {
      data: Card[];
    };
    expect(none.data).toEqual([]);

    // Not assigned yet: the demo team has no Bonus templates.
    expect((await panel(demo, 'type=templateBundles')).templatesBundles.data).toEqual([]);

    // The add-teams modal: search teams (the kiosk's search), then Save Teams.
    const search = await admin.request('POST', '/teams/search', { query: 'demo' });
    expect(search.json).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: 'team-demo' })]),
    );
    const assigned = await admin.request('POST', '/admin/templateBundle/assignTeams', {
      bundleId,
      teamIds: ['team-demo'],
    });
    expect(assigned.status, JSON.stringify(assigned.json)).toBe(200);
    expect(assigned.json).toMatchObject({ success: true, teamsCount: 1 });
    const teams = await admin.request('POST', '/admin/templateBundle/getBundleTeams', { bundleId });
    expect(teams.json.teams).toEqual([{ id: 'team-demo', name: 'Demo Team' }]);

    // The demo user's Bonus tab now holds the bundle with the template.
    const bonus = await panel(demo, 'type=templateBundles');
    expect(bonus.templatesBundles.data).toEqual([
      expect.objectContaining({
        id: bundleId,
        name: 'Summer pack',
        bundle_images: [expect.objectContaining({ id: design.id })],
      }),
    ]);
    // Its search finds templates as the Global tab's does: by a tag's start or by the title.
    for (const [search, found] of [
      ['beach', 1],
      ['GREET', 1],
      ['winter', 0],
    ] as const) {
      const searched = await panel(demo, `type=templateBundles&imageTag=${search}`);
      expect(
        searched.templatesBundles.data.flatMap((b) => b.bundle_images.map((c) => c.id)),
        search,
      ).toEqual(found ? [design.id] : []);
    }
    // …and the dashboard's private bundle view; the admin sees it among all bundles.
    const mine = (await demo.request('POST', '/get-template-bundle')).json.bundles as {
      data: Bundle[];
    };
    expect(mine.data.map((b) => b.id)).toEqual([bundleId]);
    const all = (await admin.request('POST', '/get-template-bundle?page=1')).json.bundles as {
      data: Bundle[];
    };
    expect(all.data.find((b) => b.id === bundleId)).toMatchObject({
      templatesCount: 1,
      teamsCount: 1,
      status: 1,
      editurl: `/template-bundle/${bundleId}/edit`,
    });

    // The demo user makes a design from it and owns the copy.
    const made = await demo.request('POST', `/pic-snippet/${design.id}/createFromTemplate`);
    expect(made.status).toBe(201);
    const copy = await demo.request('GET', `/api/pic-snippet/${made.json.newPicSnippetId}`);
    expect(copy.json).toMatchObject({ title: 'Summer greeting', isTemplate: false });

    // Deactivating the bundle hides it from the team; activating shows it again.
    const off = await admin.request('POST', '/admin/templateBundle/changeBundleStatus', {
      templateBundleId: bundleId,
      status: 0,
    });
    expect(off.status).toBe(200);
    expect((await panel(demo, 'type=templateBundles')).templatesBundles.data).toEqual([]);
    await admin.request('POST', '/admin/templateBundle/changeBundleStatus', {
      templateBundleId: bundleId,
      status: 1,
    });
    expect((await panel(demo, 'type=templateBundles')).templatesBundles.data).toHaveLength(1);

    // The save modal's select marks the bundles holding the template.
    const options = await bundleOptions(design.id);
    expect(options.find((o) => o.id === bundleId)).toMatchObject({
      selected: true,
      template_id: design.id,
    });

    // Update: new tags, out of the bundle; an existing bundle's name picks that bundle.
    const updated = await saveTemplate(design, ['summer'], [], 'update');
    expect(updated.json).toMatchObject({
      message: 'The template was updated.',
      imageTags: ['summer'],
    });
    expect((await bundleOptions(design.id)).find((o) => o.id === bundleId)?.selected).toBe(false);
    const again = await saveTemplate(design, ['summer'], [{ name: 'summer PACK' }], 'update');
    expect((again.json.bundles as Option[]).filter((o) => o.selected).map((o) => o.id)).toEqual([
      bundleId,
    ]);
  });

  it('the bundle edit page reads one bundle; a template leaves it with deletePicSnippet', async () => {
    const one = await createDesign(admin, { title: 'First of two' });
    const two = await createDesign(admin, { title: 'Second of two' });
    const created = await saveTemplate(one, ['pair'], [{ name: 'Pair bundle' }]);
    const bundleId = (created.json.bundles as Option[]).find((o) => o.name === 'Pair bundle')!.id;
    await saveTemplate(two, ['pair'], [bundleId]);
    const read = await admin.request('POST', '/get-template-bundle', { bundleId });
    expect((read.json.bundle as Bundle).bundle_images.map((c) => c.id)).toEqual([one.id, two.id]);
    // The demo team is not assigned: the bundle is not theirs to read.
    expect((await demo.request('POST', '/get-template-bundle', { bundleId })).status).toBe(404);

    // The bundle edit page: no design open in an editor, the template stays a template.
    const removed = await admin.request('DELETE', '/admin/templateBundle/deletePicSnippet', {
      picSnippetId: one.id,
      currentPicsnippetId: null,
      bundleId,
    });
    expect(removed.json).toMatchObject({ success: true, current: false });
    const after = await admin.request('POST', '/get-template-bundle', { bundleId });
    expect((after.json.bundle as Bundle).bundle_images.map((c) => c.id)).toEqual([two.id]);
    // Not in the bundle any more: 404, nothing changes.
    const twice = await admin.request('DELETE', '/admin/templateBundle/deletePicSnippet', {
      picSnippetId: one.id,
      bundleId,
    });
    expect(twice.status).toBe(404);

    // Deleting the bundle keeps its templates.
    const gone = await admin.request('DELETE', '/admin/templateBundle/deleteBundle', { bundleId });
    expect(gone.json).toMatchObject({ success: true, message: 'The template bundle was deleted.' });
    expect((await admin.request('POST', '/get-template-bundle', { bundleId })).status).toBe(404);
    expect((await panel(demo, 'type=templates&imageTag=pair')).templates.data).toHaveLength(2);
  });
});

describe('removing the design open in the editor from a bundle (spec 000 §4)', () => {
  it('empties its tags and bundles: a plain design again, saved as a template anew', async () => {
    const design = await createDesign(admin, { title: 'Open in the editor' });
    const saved = await saveTemplate(design, ['open', 'editor'], [{ name: 'Open bundle A' }]);
    const a = (saved.json.bundles as Option[]).find((o) => o.name === 'Open bundle A')!.id;
    const both = await saveTemplate(
      design,
      ['open', 'editor'],
      [a, { name: 'Open bundle B' }],
      'update',
    );
    const b = (both.json.bundles as Option[]).find((o) => o.name === 'Open bundle B')!.id;
    const other = await createDesign(admin, { title: 'Stays in A' });
    await saveTemplate(other, ['open'], [a]);

    // A refused call (the design is not in that bundle) changes nothing.
    const wrong = await admin.request('DELETE', '/admin/templateBundle/deletePicSnippet', {
      picSnippetId: design.id,
      currentPicsnippetId: design.id,
      bundleId: 'bundle-unknown',
    });
    expect(wrong.status).toBe(404);
    expect((await admin.request('GET', `/api/pic-snippet/${design.id}`)).json).toMatchObject({
      isTemplate: true,
      image_tags: ['open', 'editor'],
    });

    const removed = await admin.request('DELETE', '/admin/templateBundle/deletePicSnippet', {
      picSnippetId: design.id,
      currentPicsnippetId: design.id,
      bundleId: a,
    });
    expect(removed.status, JSON.stringify(removed.json)).toBe(200);
    expect(removed.json).toMatchObject({ success: true, current: true, imageTags: [] });
    expect((removed.json.bundles as string[]).sort()).toEqual([a, b].sort());

    // What the editor reads again: no stored tags (the modal's "save"), the answer's version.
    const reread = (await admin.request('GET', `/api/pic-snippet/${design.id}`)).json;
    expect(reread).toMatchObject({ isTemplate: false, image_tags: [] });
    expect(reread.version).toBe(removed.json.version);
    // No bundle is selected for it; the other template keeps its place in A.
    const options = await bundleOptions(design.id);
    expect(options.filter((o) => o.selected)).toEqual([]);
    const bundleA = (await admin.request('POST', '/get-template-bundle', { bundleId: a })).json
      .bundle as Bundle;
    expect(bundleA.bundle_images.map((c) => c.id)).toEqual([other.id]);
    // It left the template library and is back on its team's Active list.
    const found = await panel(demo, 'type=templates&imageTag=editor');
    expect(found.templates.data.map((c) => c.id)).not.toContain(design.id);
    const active = (await admin.request('GET', '/getActive')).json.active as { data: Card[] };
    expect(active.data.map((c) => c.id)).toContain(design.id);

    // Saving it again is a first save ("save"), into a bundle of its choice.
    const again = await saveTemplate(design, ['reopened'], [b]);
    expect(again.status, JSON.stringify(again.json)).toBe(200);
    expect(again.json).toMatchObject({ imageTags: ['reopened'] });
    expect((await bundleOptions(design.id)).filter((o) => o.selected).map((o) => o.id)).toEqual([
      b,
    ]);
  });
});

describe('template status and delete', () => {
  it('deactivates, activates and deletes; designs made from it stay, bundles lose it', async () => {
    const design = await createDesign(admin, { title: 'Short lived' });
    const saved = await saveTemplate(design, ['ephemeral'], [{ name: 'Ephemeral bundle' }]);
    const bundleId = (saved.json.bundles as Option[])[0]!.id;
    const made = await demo.request('POST', `/pic-snippet/${design.id}/createFromTemplate`);
    const copyId = made.json.newPicSnippetId as string;

    const off = await admin.request('POST', '/admin/template/changeStatus', {
      picSnippetId: design.id,
      status: 0,
    });
    expect(off.json).toMatchObject({ success: true, template: { status: 'archived' } });
    expect((await panel(demo, 'type=templates&imageTag=ephemeral')).templates.data).toEqual([]);
    // Admins still see it (to activate it again): in the panel and the disabled list.
    expect((await panel(admin, 'type=templates&imageTag=ephemeral')).templates.data).toEqual([
      expect.objectContaining({ id: design.id, status: 'archived' }),
    ]);
    const disabled = await admin.request('GET', '/getHomeTemplates?status=archived');
    expect((disabled.json.templates as { data: Card[] }).data.map((c) => c.id)).toContain(
      design.id,
    );
    expect((await demo.request('GET', '/getHomeTemplates?status=archived')).status).toBe(403);
    // A disabled template cannot be used.
    expect(
      (await demo.request('POST', `/pic-snippet/${design.id}/createFromTemplate`)).status,
    ).toBe(404);
    await admin.request('POST', '/admin/template/changeStatus', {
      templateId: design.id,
      status: '1',
    });
    expect((await panel(demo, 'type=templates&imageTag=ephemeral')).templates.data).toHaveLength(1);

    const deleted = await admin.request('DELETE', '/admin/template/delete', {
      picSnippetId: design.id,
    });
    expect(deleted.json).toEqual({ success: true, message: 'The template was deleted.' });
    expect((await admin.request('GET', `/api/pic-snippet/${design.id}`)).status).toBe(404);
    const bundle = await admin.request('POST', '/get-template-bundle', { bundleId });
    expect((bundle.json.bundle as Bundle).templatesCount).toBe(0);
    // The design made from it is the demo team's own and stays.
    expect((await demo.request('GET', `/api/pic-snippet/${copyId}`)).status).toBe(200);
    // Deleting again: 404.
    expect(
      (await admin.request('DELETE', '/admin/template/delete', { picSnippetId: design.id })).status,
    ).toBe(404);
  });

  it('refuses to treat a plain design as a template', async () => {
    const plain = await createDesign(admin, { title: 'Not a template' });
    for (const [method, path, body] of [
      ['POST', '/admin/template/changeStatus', { picSnippetId: plain.id, status: 0 }],
      ['DELETE', '/admin/template/delete', { picSnippetId: plain.id }],
    ] as const) {
      expect((await admin.request(method, path, body)).status, path).toBe(404);
    }
    expect((await admin.request('GET', `/api/pic-snippet/${plain.id}`)).json).toMatchObject({
      status: 'active',
      isTemplate: false,
    });
  });
});

describe('bad input writes nothing', () => {
  it('refuses duplicate, empty and too long tags, unknown bundles and another team’s design', async () => {
    const design = await createDesign(admin, { title: 'Careful' });
    const before = await bundleOptions(null);
    const cases: Array<[unknown[], unknown[], string, string]> = [
      [['sale', ' SALE '], [{ name: 'Never made' }], 'imageTags', 'Current tag is already added.'],
      [['  ', ''], [], 'imageTags', 'Add at least one tag.'],
      [['x'.repeat(51)], [], 'imageTags', 'A tag may not be greater than 50 characters.'],
      [
        ['fine'],
        ['bundle-unknown', { name: 'Never made' }],
        'templateBundles',
        'The selected template bundle does not exist.',
      ],
    ];
    for (const [imageTags, templateBundles, field, message] of cases) {
      const res = await saveTemplate(design, imageTags as string[], templateBundles);
      expect(res.status, JSON.stringify(res.json)).toBe(422);
      expect(res.json.errors).toEqual({ [field]: [message] });
    }
    // Nothing was written: still a plain design without tags, no new bundle.
    expect((await admin.request('GET', `/api/pic-snippet/${design.id}`)).json).toMatchObject({
      isTemplate: false,
      image_tags: [],
      version: design.version,
    });
    expect(await bundleOptions(null)).toEqual(before);

    // Another team's design that is not a template is not the admin's to publish.
    const demoDesign = await createDesign(demo, { title: 'Demo own' });
    expect((await saveTemplate(demoDesign, ['mine'])).status).toBe(404);
    expect((await demo.request('GET', `/api/pic-snippet/${demoDesign.id}`)).json).toMatchObject({
      isTemplate: false,
    });
    // Unknown action, unknown design.
    expect((await saveTemplate(design, ['ok'], [], 'publish')).status).toBe(404);
    expect(
      (
        await admin.request('POST', '/admin/template/save', {
          picSnippetId: 'design-unknown',
          imageTags: ['ok'],
        })
      ).status,
    ).toBe(404);
  });

  it('refuses a template for a bundle that holds MAX_BUNDLE_TEMPLATES already (422, nothing written)', async () => {
    // Two bundles stored as the save would store them: one full, one a template short of full.
    const filler = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => `design-${prefix}-${i}`);
    const stamp = Date.now();
    const fullId = `bundle-full-${stamp}`;
    const roomId = `bundle-room-${stamp}`;
    const put = (bundleId: string, name: string, templateIds: string[]) =>
      db()
        .TemplateBundle.create({
          bundleId,
          name,
          status: 'active',
          templateIds,
          teamIds: [],
          version: 1,
        })
        .go();
    await put(fullId, 'Full pack', filler('full', MAX_BUNDLE_TEMPLATES));
    await put(roomId, 'Roomy pack', filler('room', MAX_BUNDLE_TEMPLATES - 1));
    try {
      const design = await createDesign(admin, { title: 'One too many' });
      const refused = await saveTemplate(design, ['crowded'], [fullId, roomId]);
      expect(refused.status, JSON.stringify(refused.json)).toBe(422);
      expect(refused.json.errors).toEqual({ templateBundles: [bundleFullMessage('Full pack')] });
      expect(bundleFullMessage('Full pack')).toContain('at most 500 templates');
      // Nothing was written: the design is no template, neither bundle changed.
      expect((await admin.request('GET', `/api/pic-snippet/${design.id}`)).json).toMatchObject({
        isTemplate: false,
        version: design.version,
      });
      const stored = async (bundleId: string) =>
        (await db().TemplateBundle.get({ bundleId }).go({ consistent: true })).data;
      expect((await stored(fullId))?.templateIds).toHaveLength(MAX_BUNDLE_TEMPLATES);
      expect((await stored(roomId))?.version).toBe(1);

      // The last place of a bundle is taken; the template already in a full bundle may stay.
      const saved = await saveTemplate(design, ['crowded'], [roomId]);
      expect(saved.status, JSON.stringify(saved.json)).toBe(200);
      expect((await stored(roomId))?.templateIds).toHaveLength(MAX_BUNDLE_TEMPLATES);
      const kept = await saveTemplate(design, ['crowded', 'kept'], [roomId], 'update');
      expect(kept.status, JSON.stringify(kept.json)).toBe(200);
    } finally {
      await db().TemplateBundle.delete({ bundleId: fullId }).go();
      await db().TemplateBundle.delete({ bundleId: roomId }).go();
    }
  });

  it('refuses unknown teams and bundles, and bad status values', async () => {
    const design = await createDesign(admin, { title: 'Teams check' });
    const saved = await saveTemplate(design, ['teams'], [{ name: 'Teams bundle' }]);
    const bundleId = (saved.json.bundles as Option[])[0]!.id;
    const bad = await admin.request('POST', '/admin/templateBundle/assignTeams', {
      bundleId,
      teamIds: ['team-demo', 'team-nope'],
    });
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toEqual({ teamIds: ['The selected team does not exist.'] });
    const teams = await admin.request('POST', '/admin/templateBundle/getBundleTeams', { bundleId });
    expect(teams.json.teams).toEqual([]);

    const status = await admin.request('POST', '/admin/templateBundle/changeBundleStatus', {
      templateBundleId: bundleId,
      status: 'off',
    });
    expect(status.status).toBe(422);
    expect(status.json.errors).toEqual({ status: ['The status must be 0 or 1.'] });

    for (const [method, path, body] of [
      ['POST', '/admin/templateBundle/getBundleTeams', { bundleId: 'bundle-nope' }],
      [
        'POST',
        '/admin/templateBundle/changeBundleStatus',
        { templateBundleId: 'bundle-nope', status: 1 },
      ],
      ['POST', '/admin/templateBundle/assignTeams', { bundleId: 'bundle-nope', teamIds: [] }],
      ['DELETE', '/admin/templateBundle/deleteBundle', { bundleId: 'bundle-nope' }],
      [
        'DELETE',
        '/admin/templateBundle/deletePicSnippet',
        { picSnippetId: design.id, bundleId: 'bundle-nope' },
      ],
      ['POST', '/admin/template/changeStatus', { picSnippetId: 'design-nope', status: 1 }],
      ['DELETE', '/admin/template/delete', { picSnippetId: 'design-nope' }],
    ] as const) {
      expect((await admin.request(method, path, body)).status, path).toBe(404);
    }
    const missing = await admin.request('POST', '/admin/templateBundle/getBundleTeams', {});
    expect(missing.status).toBe(422);
    expect(missing.json.errors).toEqual({ bundleId: ['The bundleId field is required.'] });
  });
});

describe('the Templates panel list', () => {
  it('pages 12 templates at a time with last_page, searched by a shared tag', async () => {
    const made: string[] = [];
    for (let i = 1; i <= 14; i++) {
      const design = await createDesign(admin, { title: `Paged ${String(i).padStart(2, '0')}` });
      expect((await saveTemplate(design, ['paged-batch'])).status).toBe(200);
      made.push(design.id);
    }
    const first = await panel(demo, 'type=templates&imageTag=paged-batch&page=1');
    expect(first.templates).toMatchObject({ current_page: 1, last_page: 2 });
    expect(first.templates.data).toHaveLength(12);
    const second = await panel(demo, 'type=templates&imageTag=paged-batch&page=2');
    expect(second.templates.data).toHaveLength(2);
    const seen = [...first.templates.data, ...second.templates.data].map((c) => c.id);
    expect(new Set(seen)).toEqual(new Set(made));
    // Last updated first.
    expect(seen[0]).toBe(made[13]);

    const bad = await demo.request('GET', '/getTemplates?type=everything');
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toEqual({ type: ['The selected type is invalid.'] });
  });
});

describe('admin calls are for admins', () => {
  const calls = [
    ['POST', '/admin/template/changeStatus', { picSnippetId: 'x', status: 0 }],
    ['DELETE', '/admin/template/delete', { picSnippetId: 'x' }],
    ['POST', '/admin/template/save', { picSnippetId: 'x', imageTags: ['a'] }],
    ['POST', '/admin/template/update', { picSnippetId: 'x', imageTags: ['a'] }],
    ['POST', '/admin/templateBundle/getBundleTeams', { bundleId: 'x' }],
    ['POST', '/admin/templateBundle/changeBundleStatus', { templateBundleId: 'x', status: 1 }],
    ['POST', '/admin/templateBundle/assignTeams', { bundleId: 'x', teamIds: [] }],
    ['DELETE', '/admin/templateBundle/deleteBundle', { bundleId: 'x' }],
    ['DELETE', '/admin/templateBundle/deletePicSnippet', { picSnippetId: 'x' }],
  ] as const;
  it.each(calls)('%s %s answers 403 to a user', async (method, path, body) => {
    const res = await demo.request(method, path, body);
    expect(res.status).toBe(403);
  });
});

describe('the seeded templates', () => {
  it('seeds tagged templates, one or more for each onboarding use case, and a Bonus bundle for the demo team', async () => {
    const { db } = await import('#lib/db/index.ts');
    const { seedTemplates, TEMPLATE_IDS } = await import('#infra/local/seed-templates.ts');
    const photos = (await db().LibraryImage.query.byScope({ scope: 'global' }).go({ pages: 'all' }))
      .data;
    const library = new Map(photos.map((p) => [`${p.imageId.replace(/^library-/, '')}.jpg`, p]));
    await seedTemplates(library, 'team-admin', 'team-demo', () => {});
    const global = await panel(demo, 'type=templates&imageTag=webinars');
    expect(global.templates.data.map((c) => c.id)).toEqual([TEMPLATE_IDS.kite]);
    // Onboarding leads each use case to its tag's templates: none of them is an empty list.
    const { USE_CASES } = await import('#shared/onboarding.ts');
    for (const useCase of USE_CASES) {
      const tagged = await panel(demo, `type=templates&imageTag=${useCase.tag}`);
      expect(tagged.templates.data.length, useCase.key).toBeGreaterThan(0);
    }
    const bonus = await panel(demo, 'type=templateBundles');
    const seeded = bonus.templatesBundles.data.find((b) => b.id === TEMPLATE_IDS.bundle);
    expect(seeded?.bundle_images.map((c) => c.id)).toEqual([
      TEMPLATE_IDS.garden,
      TEMPLATE_IDS.kite,
    ]);
  });
});
