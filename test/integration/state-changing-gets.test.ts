/**
 * State changes are not GETs (docs/security.md "State changes are not GETs"): signing out,
 * creating a design from a template and impersonation are POSTs with the CSRF check; the GETs
 * answer 405 and change nothing.
 *
 * Mutation check: with the route table's old GETs, `GET /logout` ended the session (302),
 * `GET …/createFromTemplate` created a design (201) and the POSTs answered 405.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createDesign, signedIn } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false });

/** The designs of a team, by id. */
async function designIds(teamId: string): Promise<string[]> {
  const { db } = await import('#lib/db/index.ts');
  const all = (await db().Design.scan.go({ pages: 'all' })).data;
  return all.filter((d) => d.teamId === teamId).map((d) => d.designId);
}

describe('POST /logout', () => {
  it('a GET answers 405 and the session stays', async () => {
    const c = await signedIn(stack().url, 'demo@example.com');
    const res = await c.request('GET', '/logout');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect((await c.request('GET', '/user/current')).status).toBe(200);
  });

  it('needs the CSRF headers, then signs out', async () => {
    const c = await signedIn(stack().url, 'demo@example.com');
    expect((await c.request('POST', '/logout', {}, { csrf: false })).status).toBe(419);
    expect((await c.request('GET', '/user/current')).status).toBe(200);
    const out = await c.request('POST', '/logout', {});
    expect(out.status).toBe(200);
    expect(out.json).toEqual({ success: true, redirect: '/' });
    expect((await c.request('GET', '/user/current')).status).toBe(401);
  });
});

describe('POST /pic-snippet/{id}/createFromTemplate', () => {
  let template: string;
  beforeAll(async () => {
    const admin = await signedIn(stack().url, 'admin@example.com');
    template = (await createDesign(admin, { title: 'A template' })).id;
    const { updateDesign } = await import('#functions/designs/store.ts');
    await updateDesign('team-admin', template, undefined, () => ({ isTemplate: true }));
  });

  it('a GET (call or navigation) answers 405 or the page and creates nothing', async () => {
    const demo = await signedIn(stack().url, 'demo@example.com');
    const before = await designIds('team-demo');
    const call = await demo.request('GET', `/pic-snippet/${template}/createFromTemplate`);
    expect(call.status).toBe(405);
    const navigation = await fetch(`${stack().url}/pic-snippet/${template}/createFromTemplate`, {
      headers: {
        accept: 'text/html',
        cookie: `picsnippets_session=${demo.cookies.get('picsnippets_session')}`,
      },
      redirect: 'manual',
    });
    expect(navigation.status).not.toBe(302);
    expect((await designIds('team-demo')).sort()).toEqual(before.sort());
  });

  it('a POST needs the CSRF headers, then creates the design', async () => {
    const demo = await signedIn(stack().url, 'demo@example.com');
    const before = await designIds('team-demo');
    const path = `/pic-snippet/${template}/createFromTemplate`;
    expect((await demo.request('POST', path, {}, { csrf: false })).status).toBe(419);
    expect((await designIds('team-demo')).length).toBe(before.length);
    const made = await demo.request('POST', path, {});
    expect(made.status).toBe(201);
    expect(await designIds('team-demo')).toContain(made.json.newPicSnippetId);
  });
});

describe('POST /spark/kiosk/users/impersonate/{id}', () => {
  it('a GET answers 405; a POST needs the CSRF headers', async () => {
    const admin = await signedIn(stack().url, 'admin@example.com');
    const path = '/spark/kiosk/users/impersonate/user-demo';
    const get = await admin.request('GET', path);
    expect(get.status).toBe(405);
    expect((await admin.request('POST', path, {}, { csrf: false })).status).toBe(419);
    // Refused without them: the admin is still themselves.
    expect((await admin.request('GET', '/user/current')).json.email).toBe('admin@example.com');
    // With them, the impersonation starts (docs/kiosk.md "Users, impersonation and discounts").
    expect((await admin.request('POST', path, {})).status).toBe(200);
    expect((await admin.request('GET', '/user/current')).json.email).toBe('demo@example.com');
  });
});
