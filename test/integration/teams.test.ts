/**
 * Teams (docs/adr/0012-invitations.md "Invitations": "Profile, teams, members";
 * docs/adr/0023-team-roles.md "Team roles") through the local stack.
 */
import { describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.ts';
import { currentTeamId, ownTeam, setTeamPlan, uniqueEmail } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false });

async function signedIn(email: string) {
  const c = new TestClient(stack().url);
  expect((await c.login(email)).status).toBe(200);
  return c;
}

/**
 * A user of this file's own with their team on `planId` as data (as the seed puts the demo team
 * on Pro): other files add the demo user to teams of theirs and make teams for it, so its team
 * list and team count are not this file's to assert on (docs/testing.md "One stack per worker").
 */
async function ownOwner(label: string, planId: string) {
  const email = uniqueEmail(label);
  const client = await ownTeam(stack().url, email);
  const teamId = await currentTeamId(client);
  await setTeamPlan(teamId, planId);
  return { client, teamId, name: `Team ${email.split('@')[0]}` };
}

describe('teams', () => {
  it("lists the user's teams with role and plan capabilities", async () => {
    const { client: owner, teamId, name } = await ownOwner('teams-list', 'pro-monthly');
    const res = await owner.request('GET', '/settings/companies');
    expect(res.status).toBe(200);
    expect(res.json).toEqual([
      expect.objectContaining({
        id: teamId,
        name,
        can_export_pdf: true,
        can_upload_custom_fonts: true,
        pivot: { role: 'owner' },
      }),
    ]);
    const current = await owner.request('GET', '/settings/companies/current');
    expect(current.json).toMatchObject({ id: teamId, current_billing_plan: 'pro-monthly' });
  });

  it('gives the roles, owner included', async () => {
    const demo = await signedIn('demo@example.com');
    const roles = await demo.request('GET', '/settings/companies/roles');
    expect(roles.json).toEqual([
      { value: 'owner', text: 'Owner' },
      { value: 'admin', text: 'Admin' },
      { value: 'member', text: 'Member' },
    ]);
  });

  it('creates a team within the plan limit and switches to it', async () => {
    const { client: owner, teamId } = await ownOwner('teams-second', 'pro-monthly');
    const created = await owner.request('POST', '/settings/companies', { name: 'Second Shop' });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      pendingPayment: false,
      team: { name: 'Second Shop', slug: 'second-shop' },
    });
    const id = (created.json.team as { id: string }).id;
    expect((await owner.request('PUT', `/settings/companies/${id}/switch`)).status).toBe(200);
    expect((await owner.request('GET', '/user/current')).json.current_team_id).toBe(id);
    expect((await owner.request('PUT', `/settings/companies/${teamId}/switch`)).status).toBe(200);
  });

  it('refuses a team past the free plan limit with a field error', async () => {
    const { client: owner } = await ownOwner('teams-free', 'free');
    const res = await owner.request('POST', '/settings/companies', { name: 'One Too Many' });
    expect(res.status).toBe(422);
    expect((res.json.errors as Record<string, string[]>).name![0]).toMatch(/allows 1 team/);
  });

  it("answers 404 for another team's id and refuses empty names", async () => {
    const admin = await signedIn('admin@example.com');
    expect((await admin.request('GET', '/settings/companies/json/team-demo')).status).toBe(404);
    expect((await admin.request('PUT', '/settings/companies/team-demo/switch')).status).toBe(404);
    const empty = await admin.request('POST', '/settings/companies', { name: ' ' });
    expect(empty.json.errors).toEqual({ name: ['Company name is required'] });
  });

  it('asks anonymous callers to sign in', async () => {
    expect((await new TestClient(stack().url).request('GET', '/settings/companies')).status).toBe(
      401,
    );
  });
});
