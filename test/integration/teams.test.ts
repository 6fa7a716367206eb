/**
 * Teams (docs/decisions.md "Invitations": "Profile, teams, members"; docs/decisions.md "Team roles") through the local
 * stack.
 */
import { describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false });

async function signedIn(email: string) {
  const c = new TestClient(stack().url);
  expect((await c.login(email)).status).toBe(200);
  return c;
}

describe('teams', () => {
  it("lists the user's teams with role and plan capabilities", async () => {
    const demo = await signedIn('demo@example.com');
    const res = await demo.request('GET', '/settings/companies');
    expect(res.status).toBe(200);
    expect(res.json).toEqual([
      expect.objectContaining({
        id: 'team-demo',
        name: 'Demo Team',
        can_export_pdf: true,
        can_upload_custom_fonts: true,
        pivot: { role: 'owner' },
      }),
    ]);
    const current = await demo.request('GET', '/settings/companies/current');
    expect(current.json).toMatchObject({ id: 'team-demo', current_billing_plan: 'pro-monthly' });
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
    const demo = await signedIn('demo@example.com');
    const created = await demo.request('POST', '/settings/companies', { name: 'Second Shop' });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      pendingPayment: false,
      team: { name: 'Second Shop', slug: 'second-shop' },
    });
    const id = (created.json.team as { id: string }).id;
    expect((await demo.request('PUT', `/settings/companies/${id}/switch`)).status).toBe(200);
    expect((await demo.request('GET', '/user/current')).json.current_team_id).toBe(id);
    expect((await demo.request('PUT', '/settings/companies/team-demo/switch')).status).toBe(200);
  });

  it('refuses a team past the free plan limit with a field error', async () => {
    const admin = await signedIn('admin@example.com');
    const res = await admin.request('POST', '/settings/companies', { name: 'One Too Many' });
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
