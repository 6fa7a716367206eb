/**
 * API tokens (docs/developer-api.md "Tokens": "Security and tokens"; docs/adr/0010-api-tokens.md
 * "API tokens"): shown once, used as Bearer within their abilities, revoked for good.
 */
import { describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.ts';
import {
  currentTeamId,
  OWN_TEAM_PASSWORD,
  ownAdmin,
  ownTeam,
  uniqueEmail,
} from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false });

const bearer = (token: string, method = 'GET', path = '/user/current', body?: unknown) =>
  fetch(`${stack().url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      'content-type': 'application/json',
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

describe('API tokens', () => {
  it('lists the abilities with their defaults', async () => {
    const c = new TestClient(stack().url);
    await c.login('demo@example.com');
    const res = await c.request('GET', '/settings/api/token/abilities');
    expect(res.json).toEqual([
      expect.objectContaining({ value: 'read', default: true }),
      expect.objectContaining({ value: 'write', default: false }),
      expect.objectContaining({ value: 'sign', default: false }),
    ]);
  });

  it('creates a token shown once, calls the API with it, and revoking it gives 401', async () => {
    // A user of this file's own, whose token list holds only what this test makes (other files
    // make tokens for the seeded logins).
    const email = uniqueEmail('tokens');
    const c = await ownTeam(stack().url, email);
    const teamId = await currentTeamId(c);
    const created = await c.request('POST', '/settings/api/token', {
      name: 'Zapier',
      abilities: ['read'],
    });
    expect(created.status).toBe(201);
    const token = created.json.token as string;
    expect(token).toMatch(/^pst_[A-Za-z0-9_-]{43}$/);

    const listed = await c.request('GET', '/settings/api/tokens');
    expect(JSON.stringify(listed.json)).not.toContain(token);
    expect(listed.json).toEqual([
      expect.objectContaining({ name: 'Zapier', metadata: { abilities: ['read'] } }),
    ]);

    const me = await bearer(token);
    expect(me.status).toBe(200);
    const used = (await c.request('GET', '/settings/api/tokens')).json as unknown as Array<{
      last_used_at: string | null;
    }>;
    expect(used[0]!.last_used_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(((await me.json()) as { email: string }).email).toBe(email);

    // Read-only: a state-changing call is refused, and tokens cannot mint tokens.
    expect((await bearer(token, 'POST', '/settings/companies', { name: 'Via token' })).status).toBe(
      403,
    );
    expect((await bearer(token, 'GET', '/settings/api/tokens')).status).toBe(403);

    const id = (listed.json as unknown as Array<{ id: string }>)[0]!.id;
    expect(
      (
        await c.request('PUT', `/settings/api/token/${id}`, {
          name: 'Zapier rw',
          abilities: ['read', 'write'],
        })
      ).status,
    ).toBe(200);
    expect((await bearer(token, 'PUT', `/settings/companies/${teamId}/switch`)).status).toBe(200);

    expect((await c.request('DELETE', `/settings/api/token/${id}`)).status).toBe(200);
    expect((await bearer(token)).status).toBe(401);
  });

  it("refuses a made-up token and another user's token id", async () => {
    expect((await bearer('pst_' + 'x'.repeat(43))).status).toBe(401);
    // A token of this file's own user: none is left on a seeded login.
    const owner = await ownTeam(stack().url, uniqueEmail('tokens-owner'));
    const { json } = await owner.request('POST', '/settings/api/token', {
      name: 'Mine',
      abilities: ['read'],
    });
    const admin = new TestClient(stack().url);
    await admin.login('admin@example.com');
    expect((await admin.request('DELETE', `/settings/api/token/${json.id as string}`)).status).toBe(
      404,
    );
  });

  // mutation check: with the old header test (any `Bearer …` skipped CSRF, and a malformed one
  // fell back to the cookie session), the cross-site change below answered 200.
  it('refuses a malformed Bearer header: no CSRF skip, no fall-back to the session cookie', async () => {
    const user = await ownTeam(stack().url, uniqueEmail('tokens-malformed'));
    const team = await currentTeamId(user);
    const nameOf = async () =>
      (await user.request('GET', '/settings/companies/current')).json.name as string;
    const before = await nameOf();
    for (const authorization of ['Bearer a b', 'Bearer', 'bearer  x y z']) {
      // A cross-site form post: the victim's cookies, no CSRF token, a Bearer header added.
      const forged = await user.request(
        'PUT',
        `/settings/companies/${team}/name`,
        { name: 'Renamed by a forged call' },
        { csrf: false, headers: { authorization } },
      );
      expect([401, 419], authorization).toContain(forged.status);
      // With the CSRF headers too, the malformed token is still not the session.
      const withCsrf = await user.request('GET', '/user/current', undefined, {
        headers: { authorization },
      });
      expect(withCsrf.status, authorization).toBe(401);
    }
    expect(await nameOf()).toBe(before);
    // Another scheme (a staging site's Basic auth in front of the app) is not the app's.
    const basic = await user.request('GET', '/user/current', undefined, {
      headers: { authorization: 'Basic c3RhZ2luZzpzZWNyZXQ=' },
    });
    expect(basic.status).toBe(200);
  });

  // mutation check: before the table's `sessionOnly` marks, a `write` token changed the password
  // and the e-mail, turned two-factor authentication on, deleted a team and reached the kiosk
  // (200 or 422 past the access check); tokens had no expiry. This test failed there.
  it('keeps tokens off the account, team deletion and the kiosk; an expired token is refused', async () => {
    // A platform admin of this file's own: the token made here has `write`, and the seeded admin
    // serves the files after this one without it.
    const c = await ownAdmin(stack().url, uniqueEmail('tokens-admin'));
    const teamId = await currentTeamId(c);
    const created = await c.request('POST', '/settings/api/token', {
      name: 'Everything',
      abilities: ['read', 'write'],
      expires_in_days: 30,
    });
    expect(created.status).toBe(201);
    const token = created.json.token as string;
    const expires = Date.parse(created.json.expires_at as string);
    expect(Math.abs(expires - (Date.now() + 30 * 86_400_000))).toBeLessThan(60_000);
    expect((await bearer(token)).status).toBe(200);

    const refused = 'API tokens cannot do this. Sign in to the app to do it.';
    for (const [method, path, body] of [
      [
        'PUT',
        '/settings/password',
        {
          current_password: OWN_TEAM_PASSWORD,
          password: 'x-long-password-1',
          password_confirmation: 'x-long-password-1',
        },
      ],
      ['PUT', '/settings/contact', { name: 'Ada Admin', email: 'thief@example.org' }],
      ['POST', '/settings/two-factor-auth', {}],
      ['DELETE', '/settings/two-factor-auth', { code: '123456' }],
      ['DELETE', `/settings/companies/${teamId}`, {}],
      ['GET', '/spark/kiosk/announcements', undefined],
      ['POST', '/spark/kiosk/users/search', { query: 'demo' }],
      ['POST', '/spark/kiosk/users/impersonate/user-demo', {}],
      ['POST', '/email/verification-notification', {}],
      // Connecting the team's Keap account is a person's consent in a browser.
      ['GET', '/api/merge-tag/infusionsoft/authorize', undefined],
      ['GET', '/api/merge-tag/infusionsoft/callback?code=c&state=s', undefined],
      // The spec's paths beside the team routes; a token reads the team at
      // /settings/companies/{id} and its discount in /settings/subscription.
      ['GET', `/settings/companies/json/${teamId}`, undefined],
      ['GET', `/settings/companies/coupon/${teamId}`, undefined],
    ] as const) {
      const res = await bearer(token, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(((await res.json()) as { message: string }).message).toBe(refused);
    }
    // The admin's session still passes.
    expect((await c.request('GET', '/spark/kiosk/announcements')).status).toBe(200);
    const team = await bearer(token, 'GET', `/settings/companies/${teamId}`);
    expect(team.status).toBe(200);
    const read = (await team.json()) as { id: string; users: { email: string }[] };
    expect(read.id).toBe(teamId);
    expect(read.users.map((u) => u.email)).toEqual([
      (await c.request('GET', '/user/current')).json.email,
    ]);

    const listed = (await c.request('GET', '/settings/api/tokens')).json as unknown as Array<{
      id: string;
      expires_at: string | null;
    }>;
    const mine = listed.find((t) => t.id === created.json.id)!;
    expect(mine.expires_at).toBe(created.json.expires_at);
    // Once its time has passed the token is refused like an unknown one.
    const { db } = await import('#lib/db/index.ts');
    const userId = (await c.request('GET', '/user/current')).json.id as string;
    await db()
      .ApiToken.patch({ userId, tokenId: mine.id })
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .go();
    expect((await bearer(token)).status).toBe(401);

    const odd = await c.request('POST', '/settings/api/token', {
      name: 'Odd',
      abilities: ['read'],
      expires_in_days: 5,
    });
    expect(odd.status).toBe(422);
    expect(Object.keys(odd.json.errors as object)).toEqual(['expires_in_days']);
  });
});
