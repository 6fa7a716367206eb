/**
 * The kiosk's announcements (docs/kiosk.md "Announcements", docs/kiosk.md "Kiosk"; docs/kiosk.md
 * "Announcements"): an admin creates, lists, edits and deletes them; bad input gets a 422 with
 * the field's message; the notifications panel reads the same items. Answers are checked
 * against the contract (STAGE=test).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOUNCEMENT_MESSAGES, type Announcement } from '#shared/contract/kiosk.ts';
import { db } from '#lib/db/index.ts';
import { TestClient } from '../support/client.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false });
const PATH = '/spark/kiosk/announcements';
let admin: TestClient;
/** The announcements this file made: those still there leave with the file. */
const made: string[] = [];

beforeAll(async () => {
  admin = new TestClient(stack().url);
  expect((await admin.login('admin@example.com')).status).toBe(200);
});

// Announcements are global: every user's panel of the files after this one would show them.
afterAll(async () => {
  for (const announcementId of made) await db().Announcement.delete({ announcementId }).go();
});

describe('announcements', () => {
  it('creates, lists newest first, edits and deletes', async () => {
    const first = await admin.request('POST', PATH, { body: 'First **news**.', icon: 'info' });
    expect(first.status, JSON.stringify(first.json)).toBe(201);
    const second = await admin.request('POST', PATH, {
      body: 'We now export *PDF*.',
      action_text: 'Read more',
      action_url: 'https://example.com/pdf',
      icon: 'sparkles',
    });
    expect(second.status).toBe(201);
    made.push(first.json.id as string, second.json.id as string);
    expect(second.json.updated_at).toBe(second.json.created_at);
    expect(second.json).toMatchObject({
      body: 'We now export *PDF*.',
      action_text: 'Read more',
      action_url: 'https://example.com/pdf',
      icon: 'sparkles',
    });

    // Other files' announcements share the list (one stack per worker): this file's, newest first.
    const mine = (list: Announcement[]) =>
      list.filter((a) => [first.json.id, second.json.id].includes(a.id));
    const listed = (await admin.request('GET', PATH)).json as unknown as Announcement[];
    expect(mine(listed).map((a) => a.body)).toEqual(['We now export *PDF*.', 'First **news**.']);
    expect(listed[0]!.id).toBe(second.json.id);

    // The edit replaces body, action and icon; without an action the old one goes.
    const id = second.json.id as string;
    const edited = await admin.request('PUT', `${PATH}/${id}`, { body: 'PDF export is live.' });
    expect(edited.status, JSON.stringify(edited.json)).toBe(200);
    expect(edited.json).toMatchObject({
      id,
      body: 'PDF export is live.',
      action_text: null,
      action_url: null,
      icon: 'megaphone',
      created_at: second.json.created_at,
    });
    // What the notifications panel reads (the same items, newest first) has the edit at once.
    const stored = await db().Announcement.query.byScope({ scope: 'all' }).go({ order: 'desc' });
    expect(stored.data[0]).toMatchObject({ announcementId: id, body: 'PDF export is live.' });
    expect(stored.data[0]!.actionUrl).toBeUndefined();

    expect((await admin.request('DELETE', `${PATH}/${id}`)).json).toEqual({ success: true });
    const after = (await admin.request('GET', PATH)).json as unknown as Announcement[];
    expect(mine(after).map((a) => a.id)).toEqual([first.json.id]);
  });

  it.each([
    ['javascript:alert(1)', ANNOUNCEMENT_MESSAGES.httpOnly],
    ['ftp://example.com/file', ANNOUNCEMENT_MESSAGES.httpOnly],
    ['/relative/path', ANNOUNCEMENT_MESSAGES.httpOnly],
  ])('refuses the action link %s with 422', async (url, message) => {
    const res = await admin.request('POST', PATH, {
      body: 'Hello',
      action_text: 'Open',
      action_url: url,
    });
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual({ action_url: [message] });
  });

  it('says what is missing: the body, the text of a link, the link of a text, a known icon', async () => {
    const empty = await admin.request('POST', PATH, { body: '   ' });
    expect(empty.status).toBe(422);
    expect(empty.json.errors).toEqual({ body: [ANNOUNCEMENT_MESSAGES.bodyRequired] });

    const halves = await admin.request('POST', PATH, {
      body: 'Hi',
      action_url: 'https://example.com',
    });
    expect(halves.json.errors).toEqual({ action_text: [ANNOUNCEMENT_MESSAGES.actionTextRequired] });
    const text = await admin.request('POST', PATH, { body: 'Hi', action_text: 'Go' });
    expect(text.json.errors).toEqual({ action_url: [ANNOUNCEMENT_MESSAGES.actionUrlRequired] });

    const icon = await admin.request('POST', PATH, { body: 'Hi', icon: '<script>' });
    expect(icon.json.errors).toEqual({ icon: [ANNOUNCEMENT_MESSAGES.iconInvalid] });

    const long = await admin.request('POST', PATH, { body: 'x'.repeat(5001) });
    expect(long.json.errors).toEqual({ body: [ANNOUNCEMENT_MESSAGES.bodyTooLong] });
  });

  it('answers 404 for an unknown id, and 403 to a user who is not a platform admin', async () => {
    expect((await admin.request('PUT', `${PATH}/nope`, { body: 'x' })).status).toBe(404);
    expect((await admin.request('DELETE', `${PATH}/nope`)).status).toBe(404);
    const owner = new TestClient(stack().url);
    await owner.login('demo@example.com');
    expect((await owner.request('POST', PATH, { body: 'Not mine to say' })).status).toBe(403);
    expect((await owner.request('GET', PATH)).status).toBe(403);
  });
});
