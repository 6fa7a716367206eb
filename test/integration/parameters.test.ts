/**
 * Text snippet parameters through the local stack (docs/adr/0013-text-snippet-parameters.md "Text
 * snippet parameters": "Text snippet parameters", messages; docs/adr/0019-design-api-shapes.md
 * "Design API shapes"): every call, for the demo user's team, another team's user, stale versions,
 * and the render URL taking a renamed parameter.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { DesignDocument } from '#shared/design.ts';
import { TestClient } from '../support/client.ts';
import { fetchImage, meanDifference, pollUntil, useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();
let demo: TestClient;
let admin: TestClient;
let seq = 0;

beforeAll(async () => {
  demo = new TestClient(stack().url);
  await demo.login('demo@example.com');
  admin = new TestClient(stack().url);
  await admin.login('admin@example.com');
});

/**
 * A design of team-demo: the seeded welcome design (`Hello {{first_name}}!`, fallback "there")
 * plus a footer snippet with `{{company}}`.
 * @returns its design id and public render id.
 */
async function newDesign(): Promise<{ designId: string; publicId: string }> {
  const { db } = await import('#lib/db/index.ts');
  const seeded = (await db().Design.get({ designId: 'design-demo-welcome' }).go()).data!;
  const base = seeded.document as DesignDocument;
  const n = ++seq;
  const designId = `design-params-${n}`;
  const publicId = `params-${n}`;
  await db()
    .Design.put({
      designId,
      teamId: 'team-demo',
      publicId,
      title: `Parameters ${n}`,
      version: 1,
      document: {
        ...base,
        text_snippets: [
          ...base.text_snippets,
          {
            id: 'snippet-footer',
            text: 'for {{company}}',
            left: 50,
            top: 40,
            width: 400,
            parameters: [{ id: 'param-company', param_name: 'company', param_default_value: ' ' }],
          },
        ],
      },
    })
    .go();
  return { designId, publicId };
}

/** The stored design, restored as the API reads it. */
async function stored(designId: string) {
  const { db } = await import('#lib/db/index.ts');
  const { parseDesignDocument } = await import('#shared/design.ts');
  const record = (await db().Design.get({ designId }).go()).data!;
  return { version: record.version, document: parseDesignDocument(record.document) };
}

const snippetOf = (doc: DesignDocument, id: string) => doc.text_snippets.find((s) => s.id === id)!;
const namesOf = (doc: DesignDocument, id: string) =>
  snippetOf(doc, id).parameters.map((p) => p.param_name);

const HELLO = '/api/text-snippet/snippet-hello';
const FIRST = `${HELLO}/parameter/param-first-name`;

describe('POST /api/text-snippet/{id}/parameter (spec 000 §4 "Adding a parameter")', () => {
  it('adds a parameter with the default name, then suffixed ones, and answers the new version', async () => {
    const { designId } = await newDesign();
    const first = await demo.request('POST', `${HELLO}/parameter`, { pic_snippet_id: designId });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({
      success: true,
      parameter: {
        param_name: 'param',
        param_default_value: ' ',
        text_snippet_id: 'snippet-hello',
        text_transform: { checkFormating: false, formatOptionKey: null, formatOptionName: null },
      },
      change: { textSnippetId: 'snippet-hello', action: 'added' },
      version: 2,
    });
    const id = (first.json.parameter as { id: string }).id;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const second = await demo.request('POST', `${HELLO}/parameter`, {
      pic_snippet_id: designId,
      version: 2,
    });
    expect(second.json).toMatchObject({ parameter: { param_name: 'param1' }, version: 3 });

    // A name used in another snippet of the design is taken too.
    const third = await demo.request('POST', `${HELLO}/parameter`, {
      pic_snippet_id: designId,
      param_name: 'company',
      param_default_value: 'your team',
    });
    expect(third.json).toMatchObject({
      parameter: { param_name: 'company1', param_default_value: 'your team' },
    });

    const { version, document } = await stored(designId);
    expect(version).toBe(4);
    expect(namesOf(document, 'snippet-hello')).toEqual([
      'first_name',
      'param',
      'param1',
      'company1',
    ]);
    expect(snippetOf(document, 'snippet-hello').text).toBe(
      'Hello {{first_name}}! {{param}} {{param1}} {{company1}}',
    );
  });

  it('refuses invalid fields with the spec messages and writes nothing', async () => {
    const { designId } = await newDesign();
    const digits = await demo.request('POST', `${HELLO}/parameter`, {
      pic_snippet_id: designId,
      param_name: '2024',
    });
    expect(digits.status).toBe(422);
    expect(digits.json).toMatchObject({
      message: "Parameter's name field  cannot include only digits",
      errors: { param_name: ["Parameter's name field  cannot include only digits"] },
    });
    const long = await demo.request('POST', `${HELLO}/parameter`, {
      pic_snippet_id: designId,
      param_default_value: 'x'.repeat(256),
    });
    expect(long.status).toBe(422);
    expect(long.json.errors).toEqual({
      param_default_value: ['Value may not be greater than 255 character!'],
    });
    const noDesign = await demo.request('POST', `${HELLO}/parameter`, {});
    expect(noDesign.status).toBe(422);
    expect(noDesign.json.errors).toEqual({
      pic_snippet_id: ['The pic snippet id field is required.'],
    });
    expect((await stored(designId)).version).toBe(1);
  });

  it('gives concurrent adds distinct names, none lost', async () => {
    const { designId } = await newDesign();
    const answers = await Promise.all(
      [0, 1, 2].map(() => demo.request('POST', `${HELLO}/parameter`, { pic_snippet_id: designId })),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    const { version, document } = await stored(designId);
    expect(version).toBe(4);
    expect(namesOf(document, 'snippet-hello').sort()).toEqual([
      'first_name',
      'param',
      'param1',
      'param2',
    ]);
  });
});

describe('PUT /api/text-snippet/{id}/parameter/{parameterId} (spec 000 §5)', () => {
  it('renames a parameter, and the render URL takes the new name', async () => {
    const { designId, publicId } = await newDesign();
    const render = (query: string) => fetchImage(`${stack().url}/r/${publicId}.png?${query}`);
    const whole = { left: 0, top: 0, width: 1000, height: 625 };
    /** Mean difference per channel (0–255); the same text draws within 0.1 of itself. */
    const diff = (a: { pixels: Buffer }, b: { pixels: Buffer }) =>
      meanDifference(a.pixels, b.pixels, 1000, whole);
    const ann = await render('first_name=Ann');
    const fallback = await render('first_name=');
    expect(diff(ann, fallback)).toBeGreaterThan(1);

    const res = await demo.request('PUT', FIRST, {
      pic_snippet_id: designId,
      version: 1,
      param_name: 'guest name',
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      parameter: { id: 'param-first-name', param_name: 'guestname', param_default_value: 'there' },
      previous: { param_name: 'first_name' },
      change: { textSnippetId: 'snippet-hello', paramId: 'param-first-name', action: 'updated' },
      version: 2,
    });
    expect(snippetOf((await stored(designId)).document, 'snippet-hello').text).toBe(
      'Hello {{guestname}}!',
    );

    // The render service keeps a design for 1 s: poll until it draws the renamed parameter.
    const renamed = await pollUntil(
      'the render with the renamed parameter',
      () => render('guestname=Ann'),
      (r) => r.res.status === 200 && diff(r, ann) < 0.1,
      { timeoutMs: 10_000, intervalMs: 200 },
    );
    expect(renamed.res.status).toBe(200);
    expect(diff(renamed, ann)).toBeLessThan(0.1);
    const oldName = await render('first_name=Ann');
    expect(diff(oldName, fallback)).toBeLessThan(0.1);
  });

  it.each([
    ['', "Parameter's name field cannot be empty"],
    ['?!', "Parameter's name field cannot be empty"],
    ['2024', "Parameter's name field  cannot include only digits"],
    ['company', 'This name is already being used.'],
  ])('refuses the name %j with %j and keeps the old one', async (name, message) => {
    const { designId } = await newDesign();
    const res = await demo.request('PUT', FIRST, { pic_snippet_id: designId, param_name: name });
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ message, errors: { param_name: [message] } });
    const { version, document } = await stored(designId);
    expect(version).toBe(1);
    expect(namesOf(document, 'snippet-hello')).toEqual(['first_name']);
  });

  it('sets the fallback (a blank is stored as one space) and refuses 256 characters', async () => {
    const { designId } = await newDesign();
    const blank = await demo.request('PUT', FIRST, {
      pic_snippet_id: designId,
      param_default_value: '',
    });
    expect(blank.json).toMatchObject({ parameter: { param_default_value: ' ' } });
    const long = await demo.request('PUT', FIRST, {
      pic_snippet_id: designId,
      param_default_value: 'x'.repeat(256),
    });
    expect(long.status).toBe(422);
    expect(long.json).toMatchObject({
      message: 'Value may not be greater than 255 character!',
      errors: { param_default_value: ['Value may not be greater than 255 character!'] },
    });
    const ok = await demo.request('PUT', FIRST, {
      pic_snippet_id: designId,
      param_default_value: 'x'.repeat(255),
    });
    expect(ok.status).toBe(200);
  });

  it('refuses a stale version with 409 and the current version, changing nothing', async () => {
    const { designId } = await newDesign();
    await demo.request('PUT', FIRST, { pic_snippet_id: designId, version: 1, param_name: 'a' });
    const stale = await demo.request('PUT', FIRST, {
      pic_snippet_id: designId,
      version: 1,
      param_name: 'b',
    });
    expect(stale.status).toBe(409);
    expect(stale.json).toMatchObject({ version: 2 });
    expect(namesOf((await stored(designId)).document, 'snippet-hello')).toEqual(['a']);
  });
});

describe('POST …/checkFormating and …/getParameterData (spec 000 §4 "Text transform")', () => {
  it('toggles formatting, chooses an option, and off clears the key and name', async () => {
    const { designId } = await newDesign();
    const call = async (body: object) => {
      const res = await demo.request('POST', `${FIRST}/checkFormating`, {
        pic_snippet_id: designId,
        ...body,
      });
      return {
        ...res,
        transform: (res.json.parameter as { text_transform?: unknown })?.text_transform,
      };
    };
    const off = { checkFormating: false, formatOptionKey: null, formatOptionName: null };
    expect((await call({})).transform).toEqual({
      checkFormating: true,
      formatOptionKey: null,
      formatOptionName: null,
    });
    const caps = await call({ formatOptionKey: 'allCaps' });
    expect(caps.transform).toEqual({
      checkFormating: true,
      formatOptionKey: 'allCaps',
      formatOptionName: 'All Caps',
    });
    expect(caps.json.version).toBe(3);
    const data = await demo.request('POST', `${FIRST}/getParameterData`, {
      pic_snippet_id: designId,
    });
    expect(data.status).toBe(200);
    expect(data.json).toMatchObject({
      parameter: { param_name: 'first_name', text_transform: { formatOptionKey: 'allCaps' } },
      fallback: 'THERE',
      version: 3,
    });
    expect((await call({ checkFormating: false })).transform).toEqual(off);
    const bad = await call({ formatOptionKey: 'shouting' });
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toEqual({
      formatOptionKey: ['The selected text transform is invalid.'],
    });
    expect(
      (await stored(designId)).document.text_snippets[0]!.parameters[0]!.text_transform,
    ).toEqual(off);
  });
});

describe('DELETE parameters (spec 000 §7)', () => {
  it('removes one parameter and its placeholder; the design names itself in the query', async () => {
    const { designId } = await newDesign();
    const res = await demo.request('DELETE', `${FIRST}?pic_snippet_id=${designId}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      parameter: { id: 'param-first-name', param_name: 'first_name' },
      change: { textSnippetId: 'snippet-hello', paramId: 'param-first-name', action: 'removed' },
      version: 2,
    });
    const hello = snippetOf((await stored(designId)).document, 'snippet-hello');
    expect(hello.text).toBe('Hello!');
    expect(hello.parameters).toEqual([]);
    const again = await demo.request('DELETE', FIRST, { pic_snippet_id: designId });
    expect(again.status).toBe(404);
    expect(again.json.message).toBe('Parameter not found.');
  });

  it('bulk-deletes parameters of one snippet, all or nothing', async () => {
    const { designId } = await newDesign();
    const added = await demo.request('POST', `${HELLO}/parameter`, { pic_snippet_id: designId });
    const addedId = (added.json.parameter as { id: string }).id;
    const partial = await demo.request('DELETE', '/api/text-snippet/delete-parameters', {
      pic_snippet_id: designId,
      textSnippetId: 'snippet-hello',
      parameterIds: ['param-first-name', 'param-company'],
    });
    expect(partial.status).toBe(404);
    expect(namesOf((await stored(designId)).document, 'snippet-hello')).toEqual([
      'first_name',
      'param',
    ]);

    const res = await demo.request('DELETE', '/api/text-snippet/delete-parameters', {
      pic_snippet_id: designId,
      textSnippetId: 'snippet-hello',
      parameterIds: ['param-first-name', addedId],
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      changes: [
        { paramId: 'param-first-name', action: 'removed' },
        { paramId: addedId, action: 'removed' },
      ],
      version: 3,
    });
    const { document } = await stored(designId);
    expect(snippetOf(document, 'snippet-hello').text).toBe('Hello!');
    expect(namesOf(document, 'snippet-footer')).toEqual(['company']);

    const empty = await demo.request('DELETE', '/api/text-snippet/delete-parameters', {
      pic_snippet_id: designId,
      textSnippetId: 'snippet-hello',
      parameterIds: [],
    });
    expect(empty.status).toBe(422);
    expect(empty.json.errors).toEqual({ parameterIds: ['The parameter ids field is required.'] });
  });
});

describe('another team (docs/adr/0019-design-api-shapes.md "Design API shapes": 404 for other teams)', () => {
  it('answers 404 to every call on another team\u2019s design and changes nothing', async () => {
    const { designId } = await newDesign();
    const body = { pic_snippet_id: designId, param_name: 'x' };
    const calls: Array<[string, string, object]> = [
      ['POST', `${HELLO}/parameter`, body],
      ['PUT', FIRST, body],
      ['DELETE', FIRST, body],
      ['POST', `${FIRST}/checkFormating`, body],
      ['POST', `${FIRST}/getParameterData`, body],
      [
        'DELETE',
        '/api/text-snippet/delete-parameters',
        { ...body, textSnippetId: 'snippet-hello', parameterIds: ['param-first-name'] },
      ],
    ];
    for (const [method, path, payload] of calls) {
      const res = await admin.request(method, path, payload);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json.message).toBe('This PicSnippet does not exist.');
    }
    expect((await stored(designId)).version).toBe(1);
  });

  it('answers 404 for an unknown text snippet or parameter of the caller\u2019s own design', async () => {
    const { designId } = await newDesign();
    const snippet = await demo.request('POST', '/api/text-snippet/nope/parameter', {
      pic_snippet_id: designId,
    });
    expect(snippet.status).toBe(404);
    expect(snippet.json.message).toBe('Text snippet not found.');
    const parameter = await demo.request('POST', `${HELLO}/parameter/nope/getParameterData`, {
      pic_snippet_id: designId,
    });
    expect(parameter.status).toBe(404);
    expect(parameter.json.message).toBe('Parameter not found.');
  });
});
