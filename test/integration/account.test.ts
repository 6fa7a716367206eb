/**
 * Password reset by e-mail (read from the local outbox), password change and contact details
 * (docs/security.md "Sessions and tokens", "Account existence") through the local stack.
 */
import { describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.ts';
import { uniqueEmail } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false });
const client = () => new TestClient(stack().url);
/** This file's client address (test/support/file-setup.ts gives each file its own). */
const IP = process.env.TEST_CLIENT_ADDRESS ?? '127.0.0.1';
// Every address is the file's own (`uniqueEmail`): the outbox and the accounts are shared with
// the other files that run on the same stack (docs/testing.md "One stack per worker").

async function newAccount(email: string, password = 'orange-bicycle-42') {
  const c = client();
  const res = await c.request('POST', '/register', {
    name: 'Tess Tester',
    email,
    team: 'Test Team',
    password,
    password_confirmation: password,
    terms: true,
    plan: 'free',
  });
  expect(res.status).toBe(201);
  return c;
}

async function lastMailTo(address: string) {
  const res = await fetch(`${stack().url}/__outbox.json`);
  const mails = (await res.json()) as Array<{ to: string; subject: string; text: string }>;
  return mails.find((m) => m.to === address);
}

describe('password reset by e-mail', () => {
  it('mails a one-hour link that sets a new password once', async () => {
    const email = uniqueEmail('reset');
    await newAccount(email);
    // The address as typed, in another case.
    const typed = email.replace(/^r/, 'R').replace(/@example\.com$/, '@Example.com');
    expect(typed).not.toBe(email);
    const asked = await client().request('POST', '/password/email', { email: typed });
    expect(asked.json).toMatchObject({ success: true });
    const mail = await lastMailTo(email);
    expect(mail?.subject).toBe('Reset your PicSnippets password');
    const link = /https?:\/\/\S+\/password\/reset\/(\S+)\?email=\S+/.exec(mail!.text)!;
    const token = link[1]!;

    const body = {
      token,
      email,
      password: 'green-lantern-77',
      password_confirmation: 'green-lantern-77',
    };
    expect((await client().request('POST', '/password/reset', body)).status).toBe(200);
    expect((await client().login(email, 'green-lantern-77')).status).toBe(200);
    expect((await client().login(email, 'orange-bicycle-42')).status).toBe(422);

    const again = await client().request('POST', '/password/reset', {
      ...body,
      password: 'blue-lantern-88',
      password_confirmation: 'blue-lantern-88',
    });
    expect(again.status).toBe(422);
    expect(again.json.errors).toEqual({
      email: ['This password reset link is invalid or has expired.'],
    });
  });

  it('answers the same for an unknown address and sends nothing', async () => {
    const nobody = uniqueEmail('nobody');
    const res = await client().request('POST', '/password/email', { email: nobody });
    expect(res.status).toBe(200);
    expect(await lastMailTo(nobody)).toBeUndefined();
  });

  it('lists sent mail on the local outbox page', async () => {
    const page = await (
      await fetch(`${stack().url}/__outbox`, { headers: { accept: 'text/html' } })
    ).text();
    expect(page).toContain('Reset your PicSnippets password');
  });
});

describe('security and profile settings', () => {
  it('changes the password only with the current one', async () => {
    const email = uniqueEmail('change');
    const c = await newAccount(email);
    const wrong = await c.request('PUT', '/settings/password', {
      current_password: 'not-it',
      password: 'silver-kettle-55',
      password_confirmation: 'silver-kettle-55',
    });
    expect(wrong.json.errors).toEqual({ current_password: ['The current password is incorrect.'] });
    const ok = await c.request('PUT', '/settings/password', {
      current_password: 'orange-bicycle-42',
      password: 'silver-kettle-55',
      password_confirmation: 'silver-kettle-55',
    });
    expect(ok.status).toBe(200);
    expect((await client().login(email, 'silver-kettle-55')).status).toBe(200);
  });

  // mutation check: before this, PUT /settings/contact changed the address at once without the
  // password (a stolen session could move the account to the thief's mailbox); this test failed
  // there on the missing password's 422.
  it('changes the e-mail only with the password and the new address’s confirmation link', async () => {
    const first = uniqueEmail('contact');
    const second = uniqueEmail('contact2');
    const c = await newAccount(first);
    const noPassword = await c.request('PUT', '/settings/contact', {
      name: 'Tess Tester',
      email: second,
    });
    expect(noPassword.status).toBe(422);
    expect(noPassword.json.errors).toEqual({
      current_password: ['The current password is incorrect.'],
    });
    const taken = await c.request('PUT', '/settings/contact', {
      name: 'Tess Tester',
      email: 'demo@example.com',
      current_password: 'orange-bicycle-42',
    });
    expect(taken.json.errors).toEqual({ email: ['The email has already been taken.'] });
    // The name changes at once.
    expect(
      (
        await c.request('PUT', '/settings/contact', {
          name: 'Tess Renamed',
          email: first,
        })
      ).status,
    ).toBe(200);

    const asked = await c.request('PUT', '/settings/contact', {
      name: 'Tess Newname',
      email: second,
      current_password: 'orange-bicycle-42',
    });
    expect(asked.status).toBe(200);
    expect(asked.json).toMatchObject({ success: true, pending_email: second });
    // Nothing moves until the new address's link is opened; the old address is told.
    expect((await c.request('GET', '/user/current')).json).toMatchObject({
      name: 'Tess Newname',
      email: first,
    });
    expect((await lastMailTo(first))?.subject).toBe(
      'Your PicSnippets e-mail address is about to change',
    );
    const mail = await lastMailTo(second);
    expect(mail?.subject).toBe('Confirm your new e-mail address for PicSnippets');
    const token = /\/email\/verify\/([A-Za-z0-9_-]+)/.exec(mail!.text)![1]!;
    const confirmed = await client().request('POST', '/email/verify', { token });
    expect(confirmed.json).toMatchObject({ success: true, email: second });
    expect((await c.request('GET', '/user/current')).json).toMatchObject({
      email: second,
      email_verified: true,
    });
    expect((await client().request('POST', '/email/verify', { token })).status).toBe(422);
    // The old address is free again; the new one signs in.
    expect((await client().request('POST', '/if-mail-exists', { email: first })).status).toBe(200);
    expect((await client().login(second, 'orange-bicycle-42')).status).toBe(200);
  });

  // mutation check: before this, a password change left every other session signed in and the
  // API tokens working (and PUT /settings/password ignored `revoke_tokens`); this test failed
  // there.
  it('a password change ends every other session and, when asked, revokes the API tokens', async () => {
    const email = uniqueEmail('sessions');
    const here = await newAccount(email);
    const elsewhere = client();
    expect((await elsewhere.login(email, 'orange-bicycle-42')).status).toBe(200);
    const token = (
      await here.request('POST', '/settings/api/token', { name: 'Sync', abilities: ['read'] })
    ).json.token as string;
    const viaToken = () =>
      fetch(`${stack().url}/user/current`, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      });

    const keep = await here.request('PUT', '/settings/password', {
      current_password: 'orange-bicycle-42',
      password: 'silver-kettle-55',
      password_confirmation: 'silver-kettle-55',
    });
    expect(keep.status).toBe(200);
    // This browser continues; the other session has ended; the token still works.
    expect((await here.request('GET', '/user/current')).status).toBe(200);
    expect((await elsewhere.request('GET', '/user/current')).status).toBe(401);
    expect((await viaToken()).status).toBe(200);

    const revoke = await here.request('PUT', '/settings/password', {
      current_password: 'silver-kettle-55',
      password: 'copper-teapot-66',
      password_confirmation: 'copper-teapot-66',
      revoke_tokens: true,
    });
    expect(revoke.json).toEqual({ success: true, tokens_revoked: true });
    expect((await viaToken()).status).toBe(401);
    expect((await here.request('GET', '/settings/api/tokens')).json).toEqual([]);
    expect((await here.request('GET', '/user/current')).status).toBe(200);
  });

  // mutation check: before this, a reset left the account's sessions signed in (the attacker
  // the owner reset the password against kept theirs); this test failed there.
  it('a password reset ends every session and can revoke the API tokens', async () => {
    const email = uniqueEmail('reset-sessions');
    const owner = await newAccount(email);
    const token = (
      await owner.request('POST', '/settings/api/token', { name: 'Sync', abilities: ['read'] })
    ).json.token as string;
    await client().request('POST', '/password/email', { email });
    const mail = await lastMailTo(email);
    const resetToken = /\/password\/reset\/(\S+)\?email=/.exec(mail!.text)![1]!;
    const done = await client().request('POST', '/password/reset', {
      token: resetToken,
      email,
      password: 'maple-harbour-19',
      password_confirmation: 'maple-harbour-19',
      revoke_tokens: true,
    });
    expect(done.status).toBe(200);
    expect((await owner.request('GET', '/user/current')).status).toBe(401);
    expect(
      (
        await fetch(`${stack().url}/user/current`, {
          headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        })
      ).status,
    ).toBe(401);
    expect((await client().login(email, 'maple-harbour-19')).status).toBe(200);
  });
});

describe('account existence (docs/security.md "Account existence")', () => {
  // mutation check: before this, a request for an unknown address answered at once (~10 ms)
  // while one for an account wrote the token and the mail first; no floor held. This test
  // failed there on the floor.
  it('answers a reset request alike, in about the same time, with or without an account', async () => {
    const { RESET_REQUEST_MIN_MS } = await import('#functions/auth/account.ts');
    const email = uniqueEmail('timing');
    await newAccount(email);
    const c = client();
    await c.request('GET', '/user/current'); // the CSRF cookie first, so only the call is timed
    const timed = async (email: string) => {
      const started = performance.now();
      const res = await c.request('POST', '/password/email', { email });
      return { ms: performance.now() - started, status: res.status, json: res.json };
    };
    const runs: Array<{ known: number; unknown: number }> = [];
    for (let i = 0; i < 3; i += 1) {
      const known = await timed(email);
      const unknown = await timed(uniqueEmail(`nobody-${i}`));
      expect(known.json).toEqual(unknown.json);
      expect(known.status).toBe(200);
      runs.push({ known: known.ms, unknown: unknown.ms });
    }
    for (const run of runs) {
      expect(run.known).toBeGreaterThanOrEqual(RESET_REQUEST_MIN_MS - 5);
      expect(run.unknown).toBeGreaterThanOrEqual(RESET_REQUEST_MIN_MS - 5);
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[1]!;
    const gap = Math.abs(median(runs.map((r) => r.known)) - median(runs.map((r) => r.unknown)));
    console.log('reset request timing (ms)', runs, 'median gap', Math.round(gap));
    // The floor hides the account's extra work (a DynamoDB write and a mail); a loaded 2-core
    // machine adds noise, hence the margin.
    expect(gap).toBeLessThan(250);
  });

  // mutation check: before this, /if-mail-exists answered every call (an address list could be
  // checked at full speed); this test failed there on the 429.
  it('rate-limits the e-mail check per IP, still telling the registration form a taken address', async () => {
    const { MAX_EMAIL_CHECKS } = await import('#functions/auth/handler.ts');
    const c = client();
    const taken = await c.request('POST', '/if-mail-exists', { email: 'demo@example.com' });
    expect(taken.json.errors).toEqual({ email: ['The email has already been taken.'] });
    const { db } = await import('#lib/db/index.ts');
    // This file's address's counter (other files count at addresses of their own).
    const key = (
      await db()
        .Throttle.get({ key: `mail-exists#ip#${IP}` })
        .go()
    ).data!;
    expect(key).not.toBeNull();
    // Earlier checks in this file count too; fill the window up to its limit.
    for (let n = key.count + 1; n < MAX_EMAIL_CHECKS; n += 1)
      expect(
        (await c.request('POST', '/if-mail-exists', { email: `free-${n}@example.org` })).status,
      ).toBe(200);
    const last = await c.request('POST', '/if-mail-exists', { email: 'free-last@example.org' });
    expect(last.status).toBe(200);
    const over = await c.request('POST', '/if-mail-exists', { email: 'demo@example.com' });
    expect(over.status).toBe(429);
    expect(over.json.message).toBe('Too many attempts. Please try again in 15 minutes.');
    // Registration's "taken" answer is the same check: refused too while the window lasts.
    const register = await c.request('POST', '/register', {
      name: 'Harvey Harvest',
      email: 'demo@example.com',
      team: 'Harvest',
      password: 'orange-bicycle-42',
      password_confirmation: 'orange-bicycle-42',
      terms: true,
      plan: 'free',
    });
    expect(register.status).toBe(429);
    await db().Throttle.delete({ key: key.key }).go();
  });
});
