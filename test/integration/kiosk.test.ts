/**
 * The kiosk's team tools (docs/kiosk.md "Kiosk"): an admin can set `frozen`.
 */
import { describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false });

describe('kiosk team tools', () => {
  it('finds teams, shows a profile and sets additional permissions and the frozen flag', async () => {
    const admin = new TestClient(stack().url);
    await admin.login('admin@example.com');
    const found = await admin.request('POST', '/teams/search', { query: 'demo' });
    expect(found.json).toEqual([
      {
        id: 'team-demo',
        name: 'Demo Team',
        slug: 'demo-team',
        frozen: false,
        current_billing_plan: 'pro-monthly',
        owner: { id: 'user-demo', name: 'Dana Demo', email: 'demo@example.com' },
      },
    ]);

    const profile = await admin.request('GET', '/custom/teams/team-demo');
    expect(profile.json).toMatchObject({
      name: 'Demo Team',
      owner: { email: 'demo@example.com' },
      frozen: false,
    });

    const set = await admin.request('POST', '/custom/teams/team-demo/additional_permissions', {
      frozen: true,
      additional_picsnippets: 5,
      limited_permission: true,
    });
    expect(set.json).toMatchObject({
      success: true,
      team: { frozen: true, additional_picsnippets: 5, limited_permission: true },
    });

    // The team's own view shows it frozen; unfreeze again.
    const owner = new TestClient(stack().url);
    await owner.login('demo@example.com');
    expect((await owner.request('GET', '/settings/companies/current')).json.frozen).toBe(true);
    await admin.request('POST', '/custom/teams/team-demo/additional_permissions', {
      frozen: false,
    });
    expect((await owner.request('GET', '/settings/companies/current')).json.frozen).toBe(false);
    expect(
      (
        await owner.request('POST', '/custom/teams/team-demo/additional_permissions', {
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
