/**
 * Password reset by e-mail (read from the local outbox), password change and contact details
 * (issue: accounts §2–4) through the local stack.
 */
import { describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false });
const client = () => new TestClient(stack().url);

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
    await newAccount('reset@example.org');
    const asked = await client().request('POST', '/password/email', { email: 'Reset@Example.org' });
    expect(asked.json).toMatchObject({ success: true });
    const mail = await lastMailTo('reset@example.org');
    expect(mail?.subject).toBe('Reset your PicSnippets password');
    const link = /https?:\/\/\S+\/password\/reset\/(\S+)\?email=\S+/.exec(mail!.text)!;
    const token = link[1]!;

    const body = {
      token,
      email: 'reset@example.org',
      password: 'green-lantern-77',
      password_confirmation: 'green-lantern-77',
    };
    expect((await client().request('POST', '/password/reset', body)).status).toBe(200);
    expect((await client().login('reset@example.org', 'green-lantern-77')).status).toBe(200);
    expect((await client().login('reset@example.org', 'orange-bicycle-42')).status).toBe(422);

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
    const res = await client().request('POST', '/password/email', { email: 'nobody@example.org' });
    expect(res.status).toBe(200);
    expect(await lastMailTo('nobody@example.org')).toBeUndefined();
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
    const c = await newAccount('change@example.org');
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
    expect((await client().login('change@example.org', 'silver-kettle-55')).status).toBe(200);
  });

  it('updates name and e-mail, refusing an address in use', async () => {
    const c = await newAccount('contact@example.org');
    const taken = await c.request('PUT', '/settings/contact', {
      name: 'Tess Tester',
      email: 'demo@example.com',
    });
    expect(taken.json.errors).toEqual({ email: ['The email has already been taken.'] });
    const ok = await c.request('PUT', '/settings/contact', {
      name: 'Tess Newname',
      email: 'contact2@example.org',
    });
    expect(ok.status).toBe(200);
    expect((await c.request('GET', '/user/current')).json).toMatchObject({
      name: 'Tess Newname',
      email: 'contact2@example.org',
    });
    // The old address is free again; the new one signs in.
    expect(
      (await client().request('POST', '/if-mail-exists', { email: 'contact@example.org' })).status,
    ).toBe(200);
    expect((await client().login('contact2@example.org', 'orange-bicycle-42')).status).toBe(200);
  });
});
