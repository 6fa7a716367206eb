/**
 * Sessions, CSRF, sign-in, sign-out and the access rules of the route table
 * (docs/adr/0009-sessions-and-csrf.md "Sessions and CSRF", docs/security.md "Authorization
 * matrix"), through the local stack.
 */
import { describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.ts';
import { currentTeamId, OWN_TEAM_PASSWORD, ownTeam, uniqueEmail } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false });
const client = () => new TestClient(stack().url);
/** This file's client address (test/support/file-setup.ts gives each file its own). */
const IP = process.env.TEST_CLIENT_ADDRESS ?? '127.0.0.1';

/**
 * Forgets the sign-in attempts of `email` and of this file's address (they are counted per
 * account and per IP).
 */
async function clearThrottles(email: string): Promise<void> {
  const { db } = await import('#lib/db/index.ts');
  for (const key of [`login#email#${email}`, `login#ip#${IP}`]) {
    await db().Throttle.delete({ key }).go();
  }
}

describe('CSRF', () => {
  it('gives a readable XSRF-TOKEN cookie on a GET', async () => {
    const c = client();
    const res = await c.request('GET', '/user/current');
    expect(res.status).toBe(401);
    const cookie = res.headers.getSetCookie().find((l) => l.startsWith('XSRF-TOKEN='))!;
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).not.toContain('HttpOnly');
  });

  it('answers 419 to a state-changing call without the token or the XHR header', async () => {
    const c = client();
    await c.request('GET', '/user/current');
    const noHeaders = await c.request(
      'POST',
      '/login',
      { email: 'demo@example.com', password: 'x' },
      { csrf: false },
    );
    expect(noHeaders.status).toBe(419);
    expect(noHeaders.json.message).toBe('CSRF token mismatch.');
    const wrong = await c.request(
      'POST',
      '/login',
      { email: 'demo@example.com', password: 'x' },
      { headers: { 'x-xsrf-token': 'forged' } },
    );
    expect(wrong.status).toBe(419);
  });
});

describe('sign-in and sessions', () => {
  // Wrong passwords go to accounts of this file's own: the seeded logins' attempts are counted
  // too, and they serve the files after this one (docs/testing.md "One stack per worker").
  it('refuses bad credentials with a field error', async () => {
    const email = uniqueEmail('auth-wrong');
    await ownTeam(stack().url, email);
    const res = await client().login(email, 'not-the-password');
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual({ email: ['These credentials do not match our records.'] });
  });

  it('signs in with an HttpOnly session cookie, and the session knows the user', async () => {
    // A user of this file's own: other files add the demo user to teams of theirs.
    const email = uniqueEmail('auth-session');
    const teamId = await currentTeamId(await ownTeam(stack().url, email));
    const c = client();
    const res = await c.login(email, OWN_TEAM_PASSWORD);
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().find((l) => l.startsWith('picsnippets_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const me = await c.request('GET', '/user/current');
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({
      email,
      isAdmin: false,
      current_team_id: teamId,
    });
    expect(me.json.teams).toEqual([{ id: teamId, role: 'owner' }]);
  });

  it('rotates the session id at login: the old id stops working', async () => {
    const c = client();
    await c.login('demo@example.com');
    const first = c.cookies.get('picsnippets_session')!;
    await c.login('demo@example.com');
    const second = c.cookies.get('picsnippets_session')!;
    expect(second).not.toBe(first);
    const old = new TestClient(stack().url);
    old.cookies.set('picsnippets_session', first);
    expect((await old.request('GET', '/user/current')).status).toBe(401);
  });

  it('signs out', async () => {
    const c = client();
    await c.login('demo@example.com');
    const out = await c.request('POST', '/logout');
    expect(out.status).toBe(200);
    expect(out.json).toEqual({ success: true, redirect: '/' });
    expect((await c.request('GET', '/user/current')).status).toBe(401);
  });

  it('ends sessions after the idle and the absolute timeout', async () => {
    const c = client();
    await c.login('demo@example.com');
    const token = c.cookies.get('picsnippets_session')!;
    const { readSession, IDLE_TIMEOUT_MS } = await import('#lib/session.ts');
    expect(await readSession(token)).toBe('user-demo');
    expect(await readSession(token, Date.now() + IDLE_TIMEOUT_MS + 60_000)).toBeUndefined();
    expect(await readSession(token)).toBeUndefined();
  });

  it('throttles an account after 10 failures in 15 minutes, even with the right password', async () => {
    // An account of this file's own: locking a seeded login would lock it for the files after
    // this one.
    const email = uniqueEmail('auth-locked');
    await ownTeam(stack().url, email);
    await clearThrottles(email);
    const c = client();
    for (let i = 0; i < 10; i++) expect((await c.login(email, `wrong-${i}`)).status).toBe(422);
    const blocked = await c.login(email, OWN_TEAM_PASSWORD);
    expect(blocked.status).toBe(429);
    await clearThrottles(email);
    expect((await c.login(email, OWN_TEAM_PASSWORD)).status).toBe(200);
  });
});

describe('access rules from the route table', () => {
  it('asks anonymous callers to sign in', async () => {
    expect((await client().request('GET', '/getActive')).status).toBe(401);
  });

  it('keeps admin routes for admins', async () => {
    const user = client();
    await user.login('demo@example.com');
    expect((await user.request('GET', '/spark/kiosk/announcements')).status).toBe(403);
    const admin = client();
    expect((await admin.login('admin@example.com')).status).toBe(200);
    expect((await admin.request('GET', '/spark/kiosk/announcements')).status).toBe(200);
  });

  it("answers 404 for another team's id and lets the owner through", async () => {
    const admin = client();
    await admin.login('admin@example.com');
    expect((await admin.request('POST', '/settings/companies/team-demo/photo', {})).status).toBe(
      404,
    );
    const owner = client();
    await owner.login('demo@example.com');
    // Past the access check: the photo itself is missing.
    expect((await owner.request('POST', '/settings/companies/team-demo/photo', {})).status).toBe(
      422,
    );
  });
});
