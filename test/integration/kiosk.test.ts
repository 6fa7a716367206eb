/**
 * The kiosk's team tools (docs/kiosk.md "Kiosk"): an admin can set `frozen`.
 */
import { describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.ts';
import { ownTeam, uniqueEmail } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false });

describe('kiosk team tools', () => {
  it('finds teams, shows a profile and sets additional permissions and the frozen flag', async () => {
    const admin = new TestClient(stack().url);
    await admin.login('admin@example.com');
    // A team of this file's own: freezing a shared team would freeze it for the files after
    // this one (docs/testing.md "One stack per worker").
    const email = uniqueEmail('kiosk-owner');
    const owner = await ownTeam(stack().url, email);
    const me = (await owner.request('GET', '/user/current')).json;
    const teamId = me.current_team_id as string;
    const name = `Team ${email.split('@')[0]}`;
    const found = await admin.request('POST', '/teams/search', { query: name });
    expect(found.json).toEqual([
      {
        id: teamId,
        name,
        slug: expect.any(String),
        frozen: false,
        current_billing_plan: 'free',
        owner: { id: me.id, name: 'Desi Gner', email },
      },
    ]);

    const profile = await admin.request('GET', `/custom/teams/${teamId}`);
    expect(profile.json).toMatchObject({ name, owner: { email }, frozen: false });

    const set = await admin.request('POST', `/custom/teams/${teamId}/additional_permissions`, {
      frozen: true,
      additional_picsnippets: 5,
      limited_permission: true,
    });
    expect(set.json).toMatchObject({
      success: true,
      team: { frozen: true, additional_picsnippets: 5, limited_permission: true },
    });

    // The team's own view shows it frozen; unfreeze again.
    expect((await owner.request('GET', '/settings/companies/current')).json.frozen).toBe(true);
    await admin.request('POST', `/custom/teams/${teamId}/additional_permissions`, {
      frozen: false,
    });
    expect((await owner.request('GET', '/settings/companies/current')).json.frozen).toBe(false);
    expect(
      (
        await owner.request('POST', `/custom/teams/${teamId}/additional_permissions`, {
          frozen: false,
        })
      ).status,
    ).toBe(403);
  });

  it('answers 404 for an unknown team', async () => {
    const admin = new TestClient(stack().url);
    await admin.login('admin@example.com');
    expect((await admin.request('GET', '/custom/teams/nope')).status).toBe(404);
  });
});
