/**
 * The authorization matrix (docs/security.md "Authorization matrix"): every route of the route
 * table, called by an anonymous visitor, a member of another team, a member, the owner and a
 * platform admin, gets the status its access level promises (and a team admin, for the
 * team-managing routes). A 5xx for a caller let through fails (mutation check: GET
 * /packs/getPacks made to throw, its admin case failed on the 500). Ids of resources
 * inside the teams are test/integration/authorization-ids.test.ts's.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type Route } from '#shared/routes.ts';
import { TestClient } from '../support/client.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false });
const clients: Record<
  'anonymous' | 'outsider' | 'member' | 'teamAdmin' | 'owner' | 'admin',
  TestClient
> = {} as never;

beforeAll(async () => {
  const url = stack().url;
  const make = () => new TestClient(url);
  clients.anonymous = make();
  clients.owner = make();
  await clients.owner.login('demo@example.com');
  clients.admin = make();
  await clients.admin.login('admin@example.com');
  const register = async (email: string) => {
    const c = make();
    const password = 'matrix-walnut-27';
    await c.request('POST', '/register', {
      name: 'Matt Rix',
      email,
      team: 'Matrix',
      password,
      password_confirmation: password,
      terms: true,
      plan: 'free',
    });
    return c;
  };
  clients.outsider = await register('outsider@example.org');
  clients.member = await register('member@example.org');
  clients.teamAdmin = await register('team-admin@example.org');
  for (const [client, email, role] of [
    [clients.member, 'member@example.org', 'member'],
    [clients.teamAdmin, 'team-admin@example.org', 'admin'],
  ] as const) {
    await clients.owner.request('POST', '/settings/companies/team-demo/invitations', {
      email,
      role,
    });
    // Joined the way people join: with the code of the e-mailed link (the local outbox).
    const mails = (await (await fetch(`${url}/__outbox.json`)).json()) as Array<{
      to: string;
      text: string;
    }>;
    const code = /\/register\?invitation=([A-Za-z0-9_-]+)/.exec(
      mails.find((m) => m.to === email && m.text.includes('?invitation='))!.text,
    )![1]!;
    const { id } = (await client.request('GET', `/invitations/${code}`)).json as { id: string };
    const accepted = await client.request('POST', `/settings/invitations/${id}/accept`, { code });
    if (accepted.status !== 200) throw new Error(`${email} did not join: ${accepted.status}`);
  }
  // A webhook endpoint of the team, so its routes are tried with an id the team has.
  const hook = await clients.owner.request('POST', '/settings/companies/team-demo/webhooks', {
    url: 'https://hooks.example.com/matrix',
    events: ['design.saved'],
  });
  if (hook.status !== 201) throw new Error(`no webhook endpoint: ${hook.status}`);
  webhookId = (hook.json.endpoint as { id: string }).id;
  // A data store of the team (docs/data-sources.md), for `{storeId}`.
  const table = new FormData();
  table.append('name', 'Matrix');
  table.append('key_column', 'sku');
  table.append('file', new Blob(['sku,name\nA-1,Mug\n'], { type: 'text/csv' }), 'matrix.csv');
  const store = await clients.owner.request(
    'POST',
    '/settings/companies/team-demo/data-stores',
    table,
  );
  if (store.status !== 201) throw new Error(`no data store: ${store.status}`);
  storeId = (store.json.store as { id: string }).id;
});

/** The team's data store (made in `beforeAll`), for `{storeId}`. */
let storeId = '';

/** The team's webhook endpoint (made in `beforeAll`), for `{webhookId}`. */
let webhookId = '';

const teamRoute = (r: Route) => r.access === 'owner' || r.access === 'manager';

/** A concrete path: the team id for `{id}` on owner routes, harmless values elsewhere. */
const pathOf = (r: Route) =>
  r.path
    .replace('{proxy+}', 'demo-welcome.jpg')
    .replace('{id}', teamRoute(r) ? 'team-demo' : 'x-unknown')
    .replace('{webhookId}', webhookId)
    .replace('{storeId}', storeId)
    .replace(/\{(\w+)\}/g, 'x-unknown');

const checked = ROUTES.filter((r) => r.feature !== 'render' && r.access !== 'stripe');

/**
 * A caller let through the access check: none of the `refused` statuses and no server error
 * (every route is built: test/unit/routes-built.test.ts).
 */
function expectAllowed(res: { status: number; json: unknown }, refused: number[]): void {
  const shown = `${res.status} ${JSON.stringify(res.json).slice(0, 200)}`;
  expect(refused, shown).not.toContain(res.status);
  expect(res.status, shown).toBeLessThan(500);
}

describe('anonymous callers', () => {
  it.each(
    checked.filter((r) => r.access !== 'public').map((r) => [`${r.method} ${r.path}`, r] as const),
  )('%s → 401', async (_k, r) => {
    const res = await clients.anonymous.request(
      r.method,
      pathOf(r),
      r.method === 'GET' ? undefined : {},
    );
    expect(res.status).toBe(401);
  });
});

describe('admin routes', () => {
  it.each(
    checked.filter((r) => r.access === 'admin').map((r) => [`${r.method} ${r.path}`, r] as const),
  )('%s: 403 for a user, allowed for an admin', async (_k, r) => {
    const body = r.method === 'GET' ? undefined : {};
    expect((await clients.owner.request(r.method, pathOf(r), body)).status).toBe(403);
    expectAllowed(await clients.admin.request(r.method, pathOf(r), body), [401, 403]);
  });
});

describe('kiosk routes', () => {
  // Only a signed-in admin's session passes (docs/kiosk.md): an admin's own API token, with
  // every ability, never does.
  it.each(
    checked
      .filter((r) => r.feature === 'kiosk' && r.access === 'admin')
      .map((r) => [`${r.method} ${r.path}`, r] as const),
  )('%s: 403 for an admin’s API token', async (_k, r) => {
    const created = await clients.admin.request('POST', '/settings/api/token', {
      name: `Kiosk ${r.method} ${r.path}`.slice(0, 60),
      abilities: ['read', 'write'],
    });
    expect(created.status).toBe(201);
    const res = await fetch(`${stack().url}${pathOf(r)}`, {
      method: r.method,
      headers: {
        authorization: `Bearer ${created.json.token as string}`,
        accept: 'application/json',
        'content-type': 'application/json',
      },
      ...(r.method === 'GET' ? {} : { body: '{}' }),
    });
    expect(res.status).toBe(403);
    await clients.admin.request('DELETE', `/settings/api/token/${created.json.id as string}`, {});
  });
});

describe('team owner routes', () => {
  it.each(
    checked
      .filter((r) => teamRoute(r) && r.method === 'GET')
      .map((r) => [`${r.method} ${r.path} (${r.access})`, r] as const),
  )('%s: 404 for another team, 403 for a member, allowed for the owner', async (_k, r) => {
    expect((await clients.outsider.request(r.method, pathOf(r))).status).toBe(404);
    expect((await clients.admin.request(r.method, pathOf(r))).status).toBe(404);
    expect((await clients.member.request(r.method, pathOf(r))).status).toBe(403);
    const teamAdmin = await clients.teamAdmin.request(r.method, pathOf(r));
    if (r.access === 'owner') expect(teamAdmin.status).toBe(403);
    else expectAllowed(teamAdmin, [401, 403, 404]);
    expectAllowed(await clients.owner.request(r.method, pathOf(r)), [401, 403, 404]);
  });

  it.each(
    checked
      .filter((r) => teamRoute(r) && r.method !== 'GET')
      .map((r) => [`${r.method} ${r.path} (${r.access})`, r] as const),
  )(
    '%s: 404 for another team, 403 for a member (and a team admin on owner routes)',
    async (_k, r) => {
      // State-changing owner calls are only tried by people who must be refused: the owner's own
      // calls are covered by the feature tests.
      expect((await clients.outsider.request(r.method, pathOf(r), {})).status).toBe(404);
      expect((await clients.member.request(r.method, pathOf(r), {})).status).toBe(403);
      if (r.access === 'owner') {
        expect((await clients.teamAdmin.request(r.method, pathOf(r), {})).status).toBe(403);
      }
    },
  );
});
