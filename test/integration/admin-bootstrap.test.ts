/**
 * The first platform admin (infra/deploy/admin.ts, docs/infra.md "Deploy"): `npm run deploy --
 * -c adminEmail=…` makes the address a platform admin and prints a one-time sign-in link. Here
 * against the local stack: the link sets a password once, and the account reaches the kiosk.
 */
import { describe, expect, it } from 'vitest';
import { bootstrapAdmin } from '#infra/deploy/admin.ts';
import { contextValue } from '#infra/deploy/main.ts';
import { TestClient } from '../support/client.ts';
import { ownTeam, uniqueEmail } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false });
const KIOSK = '/spark/kiosk/announcements';

/** Follows a printed link: chooses a password with its token. */
async function choosePassword(link: string, password: string) {
  const url = new URL(link);
  const token = url.pathname.split('/').pop()!;
  const email = url.searchParams.get('email')!;
  return new TestClient(stack().url).request('POST', '/password/reset', {
    token,
    email,
    password,
    password_confirmation: password,
  });
}

describe('bootstrapAdmin', () => {
  it('creates a platform admin whose link sets a password once', async () => {
    const admin = await bootstrapAdmin('Ops@Example.org');
    expect(admin.created).toBe(true);
    expect(admin.link).toMatch(/\/password\/reset\/[\w-]{43}\?email=ops%40example\.org$/);
    expect((await choosePassword(admin.link, 'violet-harbour-31')).status).toBe(200);
    expect((await choosePassword(admin.link, 'violet-harbour-32')).status).toBe(422);

    const client = new TestClient(stack().url);
    expect((await client.login('ops@example.org', 'violet-harbour-31')).status).toBe(200);
    const me = await client.request('GET', '/user/current');
    expect(me.json).toMatchObject({ email: 'ops@example.org', isAdmin: true });
    expect([401, 403]).not.toContain((await client.request('GET', KIOSK)).status);
  });

  it('makes an existing account an admin; a new link replaces the old one', async () => {
    // An account of this file's own: the seeded logins serve the files after this one.
    const email = uniqueEmail('member');
    const member = await ownTeam(stack().url, email);
    expect((await member.request('GET', KIOSK)).status).toBe(403);

    const first = await bootstrapAdmin(email);
    const second = await bootstrapAdmin(email);
    expect([first.created, second.created]).toEqual([false, false]);
    expect((await choosePassword(first.link, 'amber-lantern-55')).status).toBe(422);
    expect((await choosePassword(second.link, 'amber-lantern-55')).status).toBe(200);
    const again = new TestClient(stack().url);
    expect((await again.login(email, 'amber-lantern-55')).status).toBe(200);
    expect([401, 403]).not.toContain((await again.request('GET', KIOSK)).status);
  });

  it('refuses something that is not an e-mail address', async () => {
    await expect(bootstrapAdmin('not-an-address')).rejects.toThrow('is not an e-mail address');
  });
});

describe('contextValue (the deploy reads -c adminEmail=…)', () => {
  it('finds a context value in each CLI spelling', () => {
    expect(contextValue(['-c', 'adminEmail=a@b.co'], 'adminEmail')).toBe('a@b.co');
    expect(contextValue(['--context', 'adminEmail=a@b.co'], 'adminEmail')).toBe('a@b.co');
    expect(contextValue(['--context=adminEmail=a@b.co'], 'adminEmail')).toBe('a@b.co');
    expect(contextValue(['-c', 'alarmEmail=x@y.co'], 'adminEmail')).toBeUndefined();
  });
});
