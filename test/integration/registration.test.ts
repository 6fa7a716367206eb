/**
 * Registration's account step through the local stack (docs/adr/0011-registration.md
 * "Registration", docs/accounts.md "Validation rules"; docs/adr/0011-registration.md
 * "Registration"): the spec's exact messages, the e-mail check, atomic creation, and the signed-in
 * result.
 */
import { describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false });
const client = () => new TestClient(stack().url);

const form = (over: Record<string, unknown> = {}) => ({
  name: 'Maria Lopez',
  email: 'maria@example.org',
  team: 'Acme Flowers & Co',
  password: 'violet-tractor-91',
  password_confirmation: 'violet-tractor-91',
  terms: true,
  plan: 'free',
  ...over,
});

describe('POST /register', () => {
  it.each([
    [{ name: 'Al' }, 'name', 'Name required and must be a string'],
    [{ name: 'R2D2 Unit' }, 'name', 'Name required and must be a string'],
    [{ email: 'not-an-email' }, 'email', 'Email must be valid email'],
    [{ team: '  ' }, 'team', 'Company name is required'],
    [
      { password: 'short', password_confirmation: 'short' },
      'password',
      'The password must be at least 8 characters.',
    ],
    [
      { password: 'password123', password_confirmation: 'password123' },
      'password',
      'This password is too common. Please choose another one.',
    ],
    [
      { password_confirmation: 'something-else' },
      'password_confirmation',
      'The password confirmation does not match.',
    ],
    [{ terms: false }, 'terms', 'The terms must be accepted.'],
    [{ plan: 'no-such-plan' }, 'plan', 'The selected plan is invalid.'],
  ])('refuses %j with the message on %s', async (change, field, message) => {
    const res = await client().request('POST', '/register', form(change));
    expect(res.status).toBe(422);
    expect((res.json.errors as Record<string, string[]>)[field]).toContain(message);
  });

  it('refuses a paid plan while billing is offline, saying so', async () => {
    const res = await client().request('POST', '/register', form({ plan: 'pro-monthly' }));
    expect(res.status).toBe(422);
    expect((res.json.errors as Record<string, string[]>).plan![0]).toMatch(
      /billing is not configured/,
    );
  });

  it('creates the account and its team, signs in, and leads to /confirmation', async () => {
    const c = client();
    const res = await c.request('POST', '/register', form());
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ success: true, redirect: '/confirmation' });
    const me = await c.request('GET', '/user/current');
    expect(me.json).toMatchObject({ name: 'Maria Lopez', email: 'maria@example.org' });
    const { db } = await import('#lib/db/index.ts');
    const team = (
      await db()
        .Team.get({ teamId: me.json.current_team_id as string })
        .go()
    ).data;
    expect(team).toMatchObject({
      name: 'Acme Flowers & Co',
      slug: 'acme-flowers-co',
      planId: 'free',
      ownerId: me.json.id,
    });
    expect(me.json.teams).toEqual([{ id: team!.teamId, role: 'owner' }]);
  });

  it('refuses a taken e-mail whatever its case, and writes nothing', async () => {
    const { db } = await import('#lib/db/index.ts');
    const before = (await db().Team.scan.go({ pages: 'all' })).data.length;
    const res = await client().request(
      'POST',
      '/register',
      form({ email: 'DEMO@example.com', team: 'Another' }),
    );
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual({ email: ['The email has already been taken.'] });
    expect((await db().Team.scan.go({ pages: 'all' })).data.length).toBe(before);
  });

  it('lets exactly one of two simultaneous registrations with one e-mail through', async () => {
    const results = await Promise.all(
      [1, 2].map((n) =>
        client().request(
          'POST',
          '/register',
          form({ email: 'race@example.org', team: `Race ${n}` }),
        ),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 422]);
  });
});

describe('e-mail verification (docs/security.md "Invitations and e-mail ownership")', () => {
  // mutation check: before verification existed, registration sent no confirmation mail and
  // `POST /email/verify` was not a route (404); this test failed there.
  it('mails a confirmation link at registration; the link verifies the address once', async () => {
    const c = client();
    expect(
      (await c.request('POST', '/register', form({ email: 'verify-me@example.org' }))).status,
    ).toBe(201);
    expect((await c.request('GET', '/user/current')).json.email_verified).toBe(false);
    const mails = (await (await fetch(`${stack().url}/__outbox.json`)).json()) as Array<{
      to: string;
      subject: string;
      text: string;
    }>;
    const mail = mails.find((m) => m.to === 'verify-me@example.org')!;
    expect(mail.subject).toBe('Confirm your e-mail address for PicSnippets');
    const token = /\/email\/verify\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;

    // Anyone may open the link (it may be opened in another browser); it is the proof.
    const opened = await client().request('POST', '/email/verify', { token });
    expect(opened.json).toEqual({
      success: true,
      message: 'Your e-mail address is confirmed.',
      email: 'verify-me@example.org',
    });
    expect((await c.request('GET', '/user/current')).json.email_verified).toBe(true);
    const again = await client().request('POST', '/email/verify', { token });
    expect(again.status).toBe(422);
    expect(again.json.errors).toEqual({
      token: ['This confirmation link is invalid or has expired.'],
    });
    expect(
      (await client().request('POST', '/email/verify', { token: 'x'.repeat(43) })).status,
    ).toBe(422);
    // A verified address needs no new link.
    expect((await c.request('POST', '/email/verification-notification')).json.message).toBe(
      'Your e-mail address is already confirmed.',
    );
  });
});

describe('POST /if-mail-exists', () => {
  it('puts a message on the e-mail field when the address is taken', async () => {
    const taken = await client().request('POST', '/if-mail-exists', { email: 'demo@example.com' });
    expect(taken.status).toBe(422);
    expect(taken.json.errors).toEqual({ email: ['The email has already been taken.'] });
    expect(
      (await client().request('POST', '/if-mail-exists', { email: 'new@example.org' })).status,
    ).toBe(200);
  });
});

describe('GET /spark/plans', () => {
  it('lists the plans with their limits and capabilities, paid ones unavailable offline', async () => {
    const res = await fetch(`${stack().url}/spark/plans`, {
      headers: { accept: 'application/json' },
    });
    expect(res.status).toBe(200);
    const plans = (await res.json()) as Array<Record<string, unknown>>;
    // Active plans only, cheapest first; `plan-freeze` is internal (functions/billing/plans.ts).
    expect(plans.map((p) => p.id)).toEqual([
      'free',
      'starter-monthly',
      'pro-monthly',
      'starter-yearly',
      'pro-yearly',
    ]);
    expect(plans[0]).toEqual(
      expect.objectContaining({
        id: 'free',
        price: 0,
        available: true,
        attributes: { teams: 1, teamMembers: 1 },
        features: { can_export_pdf: false, can_upload_custom_fonts: false },
      }),
    );
    expect(plans.find((p) => p.id === 'pro-monthly')).toEqual(
      expect.objectContaining({
        price: 2900,
        interval: 'monthly',
        available: false,
        features: { can_export_pdf: true, can_upload_custom_fonts: true },
      }),
    );
    // Offline (no Stripe keys): every paid plan is listed but not available.
    expect(plans.filter((p) => p.available).map((p) => p.id)).toEqual(['free']);
  });
});
