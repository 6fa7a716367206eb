/**
 * The kiosk's users (docs/kiosk.md "Kiosk"; docs/kiosk.md "Users, impersonation and
 * discounts"): search by name or e-mail, the profile with teams, plan and sign-ins,
 * impersonation (started by a POST, never of an admin, audit-logged, the user's password, 2FA
 * and tokens read-only meanwhile, the admin's own session back afterwards) and the discount's
 * refusals with billing offline. The applied discount is kiosk-discounts.test.ts's.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { IMPERSONATION_READ_ONLY } from '#lib/auth.ts';
import { KIOSK_USER_MESSAGES } from '#shared/contract/kiosk-users.ts';
import { TestClient } from '../support/client.ts';
import {
  currentTeamId,
  OWN_TEAM_PASSWORD,
  ownTeam,
  setTeamPlan,
  uniqueEmail,
} from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false });

let admin: TestClient;
/**
 * The user the kiosk looks at, registered with a team of their own (on Pro as data, as the seed
 * puts the demo team) and renamed to a name no other user has: other files on the same stack add
 * the seeded demo user to teams of theirs and register users of any name (docs/testing.md "One
 * stack per worker").
 */
const TARGET_EMAIL = uniqueEmail('kiosk-target');
/** Names are letters only: ten random ones (a–p) after a first name. */
const TARGET_NAME = `Zora ${[...randomUUID().replace(/-/g, '').slice(0, 10)]
  .map((digit) => String.fromCharCode(97 + parseInt(digit, 16)))
  .join('')}`;
let targetId: string;
let targetTeamId: string;

beforeAll(async () => {
  admin = new TestClient(stack().url);
  expect((await admin.login('admin@example.com')).status).toBe(200);
  const target = await ownTeam(stack().url, TARGET_EMAIL);
  targetId = (await target.request('GET', '/user/current')).json.id as string;
  targetTeamId = await currentTeamId(target);
  await setTeamPlan(targetTeamId, 'pro-monthly');
  const renamed = await target.request('PUT', '/settings/contact', {
    name: TARGET_NAME,
    email: TARGET_EMAIL,
  });
  expect(renamed.status, JSON.stringify(renamed.json)).toBe(200);
});

/** A fresh admin session (each impersonation ends the session it started from). */
async function adminClient(): Promise<TestClient> {
  const c = new TestClient(stack().url);
  expect((await c.login('admin@example.com')).status).toBe(200);
  return c;
}

describe('search and profile', () => {
  it('finds users by part of the name or the e-mail, any case, a page at a time', async () => {
    const byName = await admin.request('POST', '/spark/kiosk/users/search', {
      query: TARGET_NAME.slice(2).toUpperCase(),
    });
    expect(byName.status).toBe(200);
    expect(byName.json).toMatchObject({
      data: [{ name: TARGET_NAME, email: TARGET_EMAIL, isAdmin: false }],
      current_page: 1,
      last_page: 1,
      total: 1,
    });
    const byMail = await admin.request('POST', '/spark/kiosk/users/search', {
      query: TARGET_EMAIL.slice(0, TARGET_EMAIL.indexOf('@') + 1),
    });
    expect((byMail.json.data as Array<{ id: string }>).map((u) => u.id)).toEqual([targetId]);
    const none = await admin.request('POST', '/spark/kiosk/users/search', { query: 'nobody-x' });
    expect(none.json).toMatchObject({ data: [], total: 0, last_page: 1 });
    const bad = await admin.request('POST', '/spark/kiosk/users/search', { query: '', page: 0 });
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toEqual({ page: ['The page must be at least 1.'] });
  });

  it('shows teams with role and plan, and the sign-ins it records (newest first)', async () => {
    const signer = new TestClient(stack().url);
    expect((await signer.login(TARGET_EMAIL, OWN_TEAM_PASSWORD)).status).toBe(200);
    await signer.request('POST', '/logout', {});
    expect((await signer.login(TARGET_EMAIL, OWN_TEAM_PASSWORD)).status).toBe(200);
    const profile = await admin.request('GET', `/spark/kiosk/users/${targetId}/profile`);
    expect(profile.status).toBe(200);
    expect(profile.json).toMatchObject({
      id: targetId,
      email: TARGET_EMAIL,
      teams: [
        {
          id: targetTeamId,
          name: `Team ${TARGET_EMAIL.split('@')[0]}`,
          role: 'owner',
          plan: { id: 'pro-monthly', name: 'Pro' },
          subscription: null,
          invoices: [],
        },
      ],
      billing_online: false,
    });
    const signIns = profile.json.sign_ins as Array<{ at: string; ip: string }>;
    expect(signIns.length).toBeGreaterThanOrEqual(2);
    expect(signIns[0]!.at >= signIns[1]!.at).toBe(true);
    expect(signIns[0]!.ip).not.toBe('');

    expect((await admin.request('GET', '/spark/kiosk/users/nobody/profile')).status).toBe(404);
  });

  it('keeps only the last 20 sign-ins', async () => {
    const { recordSignIn, signIns } = await import('#domain/sign-ins.ts');
    // A user id of this file's own: sign-ins are kept per user id.
    const userId = `user-limits-${randomUUID()}`;
    for (let i = 0; i < 22; i++)
      await recordSignIn(userId, '192.0.2.1', `agent ${i}`, new Date(Date.UTC(2024, 0, i + 1)));
    const kept = await signIns(userId);
    expect(kept).toHaveLength(20);
    expect(kept[0]!.userAgent).toBe('agent 21');
    expect(kept[19]!.userAgent).toBe('agent 2');
  });
});

describe('impersonation', () => {
  it('acts as the user, shows who impersonates, and gives the admin their session back', async () => {
    const c = await adminClient();
    const started = await c.request('POST', `/spark/kiosk/users/impersonate/${targetId}`, {});
    expect(started.status).toBe(200);
    expect(started.json).toEqual({ success: true, redirect: '/dashboard' });

    const me = await c.request('GET', '/user/current');
    expect(me.json).toMatchObject({
      id: targetId,
      email: TARGET_EMAIL,
      isAdmin: false,
      impersonator: { name: 'Ada Admin', email: 'admin@example.com' },
    });
    // The kiosk is an admin's; the session is the user's now.
    expect((await c.request('GET', `/spark/kiosk/users/${targetId}/profile`)).status).toBe(403);

    const stopped = await c.request('POST', '/spark/kiosk/users/stop-impersonating', {});
    expect(stopped.json).toEqual({
      success: true,
      redirect: `/spark/kiosk#/users/${targetId}`,
    });
    const back = await c.request('GET', '/user/current');
    expect(back.json).toMatchObject({ email: 'admin@example.com', isAdmin: true });
    expect(back.json.impersonator ?? null).toBeNull();

    // Audit: who, whom, when, ended when; on the user's profile.
    const profile = await c.request('GET', `/spark/kiosk/users/${targetId}/profile`);
    const [latest] = profile.json.impersonations as Array<Record<string, unknown>>;
    expect(latest).toMatchObject({ admin: { email: 'admin@example.com' } });
    expect(Date.parse(latest!.ended_at as string)).toBeGreaterThanOrEqual(
      Date.parse(latest!.started_at as string),
    );
    // Nothing to stop any more.
    const again = await c.request('POST', '/spark/kiosk/users/stop-impersonating', {});
    expect(again.status).toBe(409);
    expect(again.json.message).toBe(KIOSK_USER_MESSAGES.notImpersonating);
  });

  it('keeps the user’s password, two-factor authentication and tokens read-only', async () => {
    const c = await adminClient();
    await c.request('POST', `/spark/kiosk/users/impersonate/${targetId}`, {});
    const password = await c.request('PUT', '/settings/password', {
      current_password: OWN_TEAM_PASSWORD,
      password: 'taken-over-password-1',
      password_confirmation: 'taken-over-password-1',
    });
    expect(password.status).toBe(403);
    expect(password.json.message).toBe(IMPERSONATION_READ_ONLY);
    for (const [method, path, body] of [
      ['POST', '/settings/two-factor-auth', {}],
      ['DELETE', '/settings/two-factor-auth', { code: '123456' }],
      ['POST', '/settings/api/token', { name: 'Mine now', abilities: ['read'] }],
      ['DELETE', '/settings/api/token/some-token', {}],
    ] as const) {
      const res = await c.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.json.message).toBe(IMPERSONATION_READ_ONLY);
    }
    // Reading them is fine.
    expect((await c.request('GET', '/settings/api/tokens')).status).toBe(200);
    await c.request('POST', '/spark/kiosk/users/stop-impersonating', {});

    // The user's own password still works, unchanged.
    const user = new TestClient(stack().url);
    expect((await user.login(TARGET_EMAIL, OWN_TEAM_PASSWORD)).status).toBe(200);
  });

  it('signing out ends the impersonation in the audit too', async () => {
    const c = await adminClient();
    await c.request('POST', `/spark/kiosk/users/impersonate/${targetId}`, {});
    await c.request('POST', '/logout', {});
    expect((await c.request('GET', '/user/current')).status).toBe(401);
    const profile = await admin.request('GET', `/spark/kiosk/users/${targetId}/profile`);
    const [latest] = profile.json.impersonations as Array<{ ended_at: string | null }>;
    expect(latest!.ended_at).not.toBeNull();
  });

  it('refuses an admin as the target, unknown users, GETs and other users', async () => {
    const c = await adminClient();
    const self = await c.request('POST', '/spark/kiosk/users/impersonate/user-admin', {});
    expect(self.status).toBe(403);
    expect(self.json.message).toBe(KIOSK_USER_MESSAGES.adminTarget);
    expect((await c.request('POST', '/spark/kiosk/users/impersonate/nobody', {})).status).toBe(404);
    // A link cannot start one (docs/security.md "State changes are not GETs").
    expect((await c.request('GET', `/spark/kiosk/users/impersonate/${targetId}`)).status).not.toBe(
      200,
    );
    // Still the admin.
    expect((await c.request('GET', '/user/current')).json.isAdmin).toBe(true);

    const demo = new TestClient(stack().url);
    await demo.login('demo@example.com');
    expect(
      (await demo.request('POST', `/spark/kiosk/users/impersonate/${targetId}`, {})).status,
    ).toBe(403);
    const notOne = await demo.request('POST', '/spark/kiosk/users/stop-impersonating', {});
    expect(notOne.status).toBe(409);
    expect((await demo.request('GET', '/user/current')).json.email).toBe('demo@example.com');
  });
});

describe('discounts with billing offline', () => {
  it('answers 503 with the reason, after checking the input', async () => {
    const offline = await admin.request('POST', '/spark/kiosk/users/discount/user-demo', {
      value: 10,
    });
    expect(offline.status).toBe(503);
    expect(offline.json.message).toBe(KIOSK_USER_MESSAGES.billingOffline);

    const bad = await admin.request('POST', '/spark/kiosk/users/discount/user-demo', {
      type: 'percent',
      value: 120,
      duration: 'repeating',
    });
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toEqual({
      value: ['A percentage may not be over 100.'],
      months: ['Give the number of months.'],
    });
    expect(
      (await admin.request('POST', '/spark/kiosk/users/discount/nobody', { value: 5 })).status,
    ).toBe(404);
  });
});
