/**
 * The kiosk's teams and the additional permissions taking effect (docs/kiosk.md Team
 * `additional_{product}`, `limited_permission`; docs/kiosk.md;
 * docs/adr/0049-additional-permissions.md "Additional permissions";
 * functions/domain/team-permissions.ts): the team profile's counts and bundles,
 * `additional_picsnippets` raising the free plan's active-design limit, and `limited_permission`
 * keeping archive and activate to the owner and team admins.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { FREE_PLAN_DESIGNS } from '#functions/billing/plans.ts';
import { TEAM_PERMISSION_MESSAGES } from '#domain/team-permissions.ts';
import type { TestClient } from '../support/client.ts';
import { createDesign, ownTeam, signedIn, uniqueEmail, LIBRARY_IMAGE } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false });

let admin: TestClient;

beforeAll(async () => {
  admin = await signedIn(stack().url, 'admin@example.com');
});

/** The current team of a signed-in client. */
const teamOf = async (c: TestClient) =>
  (await c.request('GET', '/user/current')).json.current_team_id as string;

/** Sets a team's additional permissions as the kiosk does, checking the 200. */
async function setPermissions(teamId: string, body: Record<string, unknown>) {
  const res = await admin.request('POST', `/custom/teams/${teamId}/additional_permissions`, body);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.team as Record<string, unknown>;
}

/** Copies of a design, written straight to the table (the API is exercised elsewhere). */
async function copies(designId: string, n: number): Promise<void> {
  const { db } = await import('#lib/db/index.ts');
  const original = (await db().Design.get({ designId }).go()).data!;
  for (let i = 0; i < n; i++) {
    await db()
      .Design.create({
        ...original,
        designId: `design-${randomUUID()}`,
        publicId: randomUUID().slice(0, 12),
        title: `Copy ${i}`,
      })
      .go();
  }
}

describe('team profile', () => {
  it('shows members, plan with its design limit, designs counted and bundles', async () => {
    const email = uniqueEmail('kiosk-profile');
    const owner = await ownTeam(stack().url, email);
    const teamId = await teamOf(owner);
    const kept = await createDesign(owner, { title: 'Kept' });
    const gone = await createDesign(owner, { title: 'Archived' });
    await owner.request('PUT', `/api/pic-snippet/${gone.id}/archive`, {});
    expect(kept.id).not.toBe(gone.id);

    const profile = await admin.request('GET', `/custom/teams/${teamId}`);
    expect(profile.status).toBe(200);
    expect(profile.json).toMatchObject({
      id: teamId,
      owner: { email },
      users: [{ email, pivot: { role: 'owner' } }],
      plan: { id: 'free', name: 'Free', designs: FREE_PLAN_DESIGNS },
      designs: { active: 1, archived: 1 },
      bundles: [],
      additional_picsnippets: 0,
      limited_permission: false,
    });

    const bad = await admin.request('POST', `/custom/teams/${teamId}/additional_permissions`, {
      additional_picsnippets: -1,
    });
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toEqual({
      additional_picsnippets: ['The additional designs must be at least 0.'],
    });
  });
});

describe('additional_picsnippets', () => {
  it('lets a team at its plan’s limit have that many more active designs', async () => {
    const owner = await ownTeam(stack().url, uniqueEmail('kiosk-limit'));
    const teamId = await teamOf(owner);
    const first = await createDesign(owner, { title: 'First' });
    await copies(first.id, FREE_PLAN_DESIGNS - 1);

    const refused = await owner.request('POST', '/api/pic-snippet', { image_id: LIBRARY_IMAGE });
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe(TEAM_PERMISSION_MESSAGES.designLimit(FREE_PLAN_DESIGNS));
    const clone = await owner.request('PUT', `/pic-snippet/${first.id}/copy`, {});
    expect(clone.status).toBe(403);

    const team = await setPermissions(teamId, { additional_picsnippets: 1 });
    expect(team).toMatchObject({
      additional_picsnippets: 1,
      designs: { active: FREE_PLAN_DESIGNS },
    });
    const extra = await createDesign(owner, { title: 'One more' });
    const full = await owner.request('POST', '/api/pic-snippet', { image_id: LIBRARY_IMAGE });
    expect(full.status).toBe(403);
    expect(full.json.message).toBe(TEAM_PERMISSION_MESSAGES.designLimit(FREE_PLAN_DESIGNS + 1));

    // Archiving makes room; activating it again when full is refused.
    expect((await owner.request('PUT', `/api/pic-snippet/${extra.id}/archive`, {})).status).toBe(
      200,
    );
    await createDesign(owner, { title: 'In its place' });
    const activate = await owner.request('PUT', `/api/pic-snippet/${extra.id}/unarchive`, {});
    expect(activate.status).toBe(403);

    // Taking the extra away again: the limit is the plan's.
    await setPermissions(teamId, { additional_picsnippets: 0 });
    expect(
      (await owner.request('POST', '/api/pic-snippet', { image_id: LIBRARY_IMAGE })).status,
    ).toBe(403);
  });
});

describe('limited_permission', () => {
  it('keeps archive and activate to the owner and team admins; members still create and edit', async () => {
    const owner = await ownTeam(stack().url, uniqueEmail('kiosk-limited'));
    const teamId = await teamOf(owner);
    // Two people join the team (as an accepted invitation leaves them): a member and an admin.
    const { db } = await import('#lib/db/index.ts');
    const join = async (email: string, role: 'member' | 'admin') => {
      const c = await ownTeam(stack().url, email);
      const userId = (await c.request('GET', '/user/current')).json.id as string;
      await db().Membership.put({ teamId, userId, role }).go();
      await db().User.patch({ userId }).set({ currentTeamId: teamId }).go();
      return c;
    };
    const member = await join(uniqueEmail('kiosk-limited-member'), 'member');
    const teamAdmin = await join(uniqueEmail('kiosk-limited-admin'), 'admin');
    const design = await createDesign(owner, { title: 'Shared' });
    const archive = (c: TestClient) =>
      c.request('PUT', `/api/pic-snippet/${design.id}/archive`, {});
    const activate = (c: TestClient) =>
      c.request('PUT', `/api/pic-snippet/${design.id}/unarchive`, {});

    // Without the flag, everyone may.
    expect((await archive(member)).status).toBe(200);
    expect((await activate(member)).status).toBe(200);

    await setPermissions(teamId, { limited_permission: true });
    const refused = await archive(member);
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe(TEAM_PERMISSION_MESSAGES.limited('archive'));
    expect((await archive(teamAdmin)).status).toBe(200);
    const refusedActivate = await activate(member);
    expect(refusedActivate.status).toBe(403);
    expect(refusedActivate.json.message).toBe(TEAM_PERMISSION_MESSAGES.limited('activate'));
    expect((await activate(owner)).status).toBe(200);
    // The member still designs: creates, and edits the design's options.
    const own = await createDesign(member, { title: 'Member made' });
    expect(
      (await member.request('PUT', `/api/pic-snippet/${own.id}/options`, { flip_x: true })).status,
    ).toBe(200);

    await setPermissions(teamId, { limited_permission: false });
    expect((await archive(member)).status).toBe(200);
  });
});
