/**
 * Notifications and announcements through the local stack (docs/notifications.md "What notifies",
 * docs/billing.md "Flows", docs/adr/0044-the-api-contract.md "The API contract": "Notifications and
 * support"; docs/notifications.md): each team cause creates its notification for the right people,
 * `GET /notifications/recent` pages them newest first with the announcements and the unread flags
 * (its answers checked against the contract: STAGE=test is strict), marking read is per user, and a
 * failing notification never throws into its caller.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '#lib/db/index.ts';
import { NOTICES, notify, notifyTeam } from '#domain/notify.ts';
import type { RecentNotifications } from '#shared/contract/notifications.ts';
import { TestClient } from '../support/client.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false });

const PASSWORD = 'amber-compass-64';
let counter = 0;

/** A new user on the free plan, signed in; `verified` proves their address as a link would. */
async function newUser(name: string, verified = true) {
  const c = new TestClient(stack().url);
  const email = `notified-${++counter}-${randomUUID().slice(0, 8)}@example.org`;
  const res = await c.request('POST', '/register', {
    name,
    email,
    team: `${name} Team`,
    password: PASSWORD,
    password_confirmation: PASSWORD,
    terms: true,
    plan: 'free',
  });
  expect(res.status).toBe(201);
  const me = (await c.request('GET', '/user/current')).json;
  const userId = me.id as string;
  if (verified)
    await db().User.patch({ userId }).set({ emailVerifiedAt: new Date().toISOString() }).go();
  return { c, email, userId, teamId: me.current_team_id as string };
}

async function signedIn(email: string) {
  const c = new TestClient(stack().url);
  expect((await c.login(email)).status).toBe(200);
  return c;
}

async function recent(c: TestClient, cursor?: string): Promise<RecentNotifications> {
  const res = await c.request(
    'GET',
    `/notifications/recent${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
  );
  expect(res.status).toBe(200);
  return res.json as unknown as RecentNotifications;
}

/** The code of the newest invitation e-mailed to an address (the local outbox). */
async function invitationCode(email: string): Promise<string> {
  const mails = (await (await fetch(`${stack().url}/__outbox.json`)).json()) as Array<{
    to: string;
    subject: string;
    text: string;
  }>;
  const mail = mails.find((m) => m.to === email && m.subject.startsWith('You are invited'))!;
  return /\/register\?invitation=([\w-]+)/.exec(mail.text)![1]!;
}

/** Invites `email` to the demo team and accepts with the e-mailed link's code. */
async function join(owner: TestClient, member: { c: TestClient; email: string }) {
  expect(
    (
      await owner.request('POST', '/settings/companies/team-demo/invitations', {
        email: member.email,
      })
    ).status,
  ).toBe(201);
  const code = await invitationCode(member.email);
  const id = (await member.c.request('GET', `/invitations/${code}`)).json.id as string;
  const res = await member.c.request('POST', `/settings/invitations/${id}/accept`, { code });
  expect(res.status).toBe(200);
}

describe('GET /notifications/recent', () => {
  it('answers a new user an empty page, no unread marker, and refuses strangers and bad cursors', async () => {
    const { c } = await newUser('Nora Newcomer');
    expect(await recent(c)).toMatchObject({
      notifications: [],
      next: null,
      unread_notifications: false,
      last_read_announcements_at: null,
    });
    expect((await new TestClient(stack().url).request('GET', '/notifications/recent')).status).toBe(
      401,
    );
    const bad = await c.request('GET', '/notifications/recent?cursor=../../x');
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toEqual({ cursor: ['The cursor is invalid.'] });
  });

  it('pages the notifications newest first, 20 a page', async () => {
    const { c, userId } = await newUser('Paula Pages');
    for (let i = 1; i <= 23; i++) {
      await notify(userId, { kind: 'role-changed', body: `Notice ${i}` });
    }
    const first = await recent(c);
    expect(first.notifications.map((n) => n.body)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Notice ${23 - i}`),
    );
    expect(first.next).not.toBeNull();
    const second = await recent(c, first.next!);
    expect(second.notifications.map((n) => n.body)).toEqual(['Notice 3', 'Notice 2', 'Notice 1']);
    expect(second.next).toBeNull();
  });
});

describe('what notifies (team causes)', () => {
  it('an invitation notifies an existing user with a verified address, in-app besides the e-mail', async () => {
    const owner = await signedIn('demo@example.com');
    const invitee = await newUser('Ingrid Invitee');
    const unverified = await newUser('Umberto Unverified', false);
    for (const email of [invitee.email, unverified.email]) {
      const res = await owner.request('POST', '/settings/companies/team-demo/invitations', {
        email,
      });
      expect(res.status).toBe(201);
    }
    const page = await recent(invitee.c);
    expect(page.unread_notifications).toBe(true);
    expect(page.notifications).toEqual([
      expect.objectContaining({
        kind: 'invitation',
        body: 'Dana Demo invited you to join Demo Team as a member.',
        action_text: 'View invitation',
        action_url: '/settings#/companies',
        read: false,
      }),
    ]);
    // An address nobody proved learns nothing in-app (docs/security.md).
    expect((await recent(unverified.c)).notifications).toEqual([]);
    // Cancel the second one so the demo team's member limit stays free for the next tests.
    const pending = (await owner.request('GET', '/settings/companies/team-demo/invitations'))
      .json as unknown as Array<{ id: string; email: string }>;
    for (const inv of pending) await owner.request('DELETE', `/settings/invitations/${inv.id}`);
  });

  it('joining, a role change, leaving and a removal notify the owner or the member', async () => {
    const owner = await signedIn('demo@example.com');
    const before = (await recent(owner)).notifications.length;
    const member = await newUser('Jonas Joiner');
    await join(owner, member);

    let page = await recent(owner);
    expect(page.notifications[0]).toMatchObject({
      kind: 'member-joined',
      body: 'Jonas Joiner joined Demo Team.',
      action_url: '/settings/companies/team-demo#/membership',
    });

    const role = await owner.request(
      'PUT',
      `/settings/companies/team-demo/members/${member.userId}`,
      { role: 'admin' },
    );
    expect(role.status).toBe(200);
    expect((await recent(member.c)).notifications[0]).toMatchObject({
      kind: 'role-changed',
      body: 'Your role in Demo Team is now Admin.',
    });

    const leave = await member.c.request(
      'DELETE',
      `/settings/companies/team-demo/members/${member.userId}`,
    );
    expect(leave.status).toBe(200);
    page = await recent(owner);
    expect(page.notifications[0]).toMatchObject({
      kind: 'member-left',
      body: 'Jonas Joiner left Demo Team.',
    });
    // Whoever left is not told that they left.
    expect((await recent(member.c)).notifications.map((n) => n.kind)).not.toContain('member-left');

    // Removed by the owner: the member hears of it, the owner (who did it) does not.
    const removed = await newUser('Rita Removed');
    await join(owner, removed);
    const countBeforeRemoval = (await recent(owner)).notifications.length;
    expect(
      (await owner.request('DELETE', `/settings/companies/team-demo/members/${removed.userId}`))
        .status,
    ).toBe(200);
    expect((await recent(removed.c)).notifications[0]).toMatchObject({
      kind: 'member-removed',
      body: 'You were removed from Demo Team.',
    });
    expect((await recent(owner)).notifications).toHaveLength(countBeforeRemoval);
    expect(countBeforeRemoval).toBe(before + 3);
  });

  it('registering through an invitation link notifies the team’s owner that someone joined', async () => {
    const owner = await signedIn('demo@example.com');
    const email = `linked-${randomUUID().slice(0, 8)}@example.org`;
    await owner.request('POST', '/settings/companies/team-demo/invitations', { email });
    const res = await new TestClient(stack().url).request('POST', '/register', {
      name: 'Lorenz Linked',
      email,
      team: 'Lorenz Team',
      password: PASSWORD,
      password_confirmation: PASSWORD,
      terms: true,
      plan: 'free',
      invitation: await invitationCode(email),
    });
    expect(res.status).toBe(201);
    expect((await recent(owner)).notifications[0]).toMatchObject({
      kind: 'member-joined',
      body: 'Lorenz Linked joined Demo Team.',
    });
  });

  it('a template bundle newly assigned to a team notifies its members', async () => {
    const admin = await signedIn('admin@example.com');
    const { c, teamId } = await newUser('Bruno Bundle');
    const bundleId = `bundle-${randomUUID()}`;
    await db().TemplateBundle.create({ bundleId, name: 'Autumn Sale' }).go();
    const assign = () =>
      admin.request('POST', '/admin/templateBundle/assignTeams', { bundleId, teamIds: [teamId] });
    expect((await assign()).status).toBe(200);
    const page = await recent(c);
    expect(page.notifications[0]).toMatchObject({
      kind: 'bundle-assigned',
      body: `New Bonus templates for Bruno Bundle Team: Autumn Sale.`,
      action_url: '/dashboard?view=bonus',
    });
    // Saving the same teams again is no new assignment.
    expect((await assign()).status).toBe(200);
    expect((await recent(c)).notifications).toHaveLength(page.notifications.length);
  });
});

describe('PUT /notifications/read', () => {
  it('marks only the caller’s own notifications; another user’s ids are ignored', async () => {
    const anna = await newUser('Anna Reader');
    const otto = await newUser('Otto Other');
    await notify(anna.userId, NOTICES.memberRemoved({ teamId: 't', name: 'Team One' }));
    await notify(anna.userId, NOTICES.memberRemoved({ teamId: 't', name: 'Team Two' }));
    const ids = (await recent(anna.c)).notifications.map((n) => n.id);
    expect(ids).toHaveLength(2);

    const stranger = await otto.c.request('PUT', '/notifications/read', { notifications: ids });
    expect(stranger.json).toEqual({ success: true, read: 0 });
    expect((await recent(anna.c)).notifications.every((n) => !n.read)).toBe(true);
    expect((await recent(otto.c)).notifications).toEqual([]);

    const own = await anna.c.request('PUT', '/notifications/read', {
      notifications: [ids[0], 'unknown-id'],
    });
    expect(own.json).toEqual({ success: true, read: 1 });
    let page = await recent(anna.c);
    expect(page.notifications.map((n) => n.read)).toEqual([true, false]);
    expect(page.unread_notifications).toBe(true);

    await anna.c.request('PUT', '/notifications/read', { notifications: ids });
    page = await recent(anna.c);
    expect(page.unread_notifications).toBe(false);
    // Already read: nothing more to mark.
    const again = await anna.c.request('PUT', '/notifications/read', { notifications: ids });
    expect(again.json).toEqual({ success: true, read: 0 });
  });

  it('refuses a body that is not a list of ids, or too long a list', async () => {
    const { c } = await newUser('Lena Limits');
    const notList = await c.request('PUT', '/notifications/read', { notifications: 'abc' });
    expect(notList.status).toBe(422);
    expect(notList.json.errors).toEqual({
      notifications: ['The notifications must be a list of ids.'],
    });
    const tooMany = await c.request('PUT', '/notifications/read', {
      notifications: Array.from({ length: 101 }, (_, i) => `id-${i}`),
    });
    expect(tooMany.status).toBe(422);
  });
});

describe('announcements', () => {
  it('are unread until the user opens them, and again when a newer one arrives', async () => {
    const { c } = await newUser('Alma Announced');
    const first = `announcement-${randomUUID()}`;
    await db()
      .Announcement.create({
        announcementId: first,
        body: 'We have **new templates**.',
        actionText: 'See them',
        actionUrl: 'https://example.com/new',
      })
      .go();
    let page = await recent(c);
    expect(page.announcements[0]).toEqual({
      id: first,
      body: 'We have **new templates**.',
      action_text: 'See them',
      action_url: 'https://example.com/new',
      icon: null,
      created_at: expect.any(String),
    });
    expect(page.unread_announcements).toBe(true);

    const marked = await c.request('PUT', '/user/last-read-announcements-at');
    expect(marked.status).toBe(200);
    page = await recent(c);
    expect(page.unread_announcements).toBe(false);
    expect(page.last_read_announcements_at).toBe(marked.json.last_read_announcements_at);

    await db()
      .Announcement.create({ announcementId: `announcement-${randomUUID()}`, body: 'And more.' })
      .go();
    page = await recent(c);
    expect(page.announcements[0]!.body).toBe('And more.');
    expect(page.unread_announcements).toBe(true);
  });
});

describe('a failure to notify', () => {
  it('is logged and swallowed, never thrown into the action that caused it', async () => {
    const { c, userId } = await newUser('Fay Failure');
    // DynamoDB refuses an item over 400 KB: the write fails inside notify.
    const huge = 'x'.repeat(500_000);
    await expect(notify(userId, { kind: 'role-changed', body: huge })).resolves.toBeUndefined();
    await expect(
      notifyTeam('team-that-does-not-exist', 'all', (t) => NOTICES.memberLeft(t, 'Nobody')),
    ).resolves.toBeUndefined();
    expect((await recent(c)).notifications).toEqual([]);
  });
});
