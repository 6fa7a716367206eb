/**
 * Login throttling and the public calls' per-address limits (docs/security.md "Login
 * throttling"), through the local stack.
 *
 * Mutation checks: with the old read-then-write counters (`isThrottled` before the password
 * check, `recordFailure` after it) 30 parallel wrong passwords were all checked (30 answers 422,
 * not at most 10) and twelve wrong passwords for one account locked every account out from the
 * address (another account's sign-in answered 429); without `limitPublicCall` the coupon,
 * tax-rate, registration and reset-mail calls past their limit answered as usual instead of 429.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.ts';
import { OWN_TEAM_PASSWORD, ownTeam, uniqueEmail } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false });
const client = () => new TestClient(stack().url);
/** This file's client address (test/support/file-setup.ts gives each file its own). */
const IP = process.env.TEST_CLIENT_ADDRESS ?? '127.0.0.1';

/**
 * Two accounts of this file's own, registered before the tests: one to lock out, one that signs
 * in from the same address. Locking a seeded login would lock it for the files after this one
 * on the same stack (docs/testing.md "One stack per worker").
 */
const LOCKED = uniqueEmail('throttle-locked');
const OTHER = uniqueEmail('throttle-other');
/** An address no account has, guessed at in parallel. */
const GUESSED = uniqueEmail('parallel-guess');

async function throttleDb() {
  const { db } = await import('#lib/db/index.ts');
  return db().Throttle;
}

/** Keys this file touches; every test starts and ends without them. */
const KEYS = [
  `login#email#${GUESSED}`,
  `login#email#${LOCKED}`,
  `login#email#${OTHER}`,
  `login#ip#${IP}`,
  `login#ip#203.0.113.9`,
  ...['coupon', 'tax-rate', 'register', 'password-email'].map((c) => `public#${c}#ip#${IP}`),
];

async function clearKeys(): Promise<void> {
  const throttle = await throttleDb();
  for (const key of KEYS) await throttle.delete({ key }).go();
}

beforeAll(async () => {
  await ownTeam(stack().url, LOCKED);
  await ownTeam(stack().url, OTHER);
  // The registrations counted on this address's allowance: every test starts without it.
  await clearKeys();
});

afterEach(clearKeys);

describe('sign-in throttling', () => {
  it('checks at most 10 of 30 parallel wrong passwords for one account', async () => {
    const { MAX_FAILURES } = await import('#lib/limits/attempts.ts');
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => client().login(GUESSED, `wrong-${i}`)),
    );
    const checked = answers.filter((a) => a.status === 422).length;
    const refused = answers.filter((a) => a.status === 429);
    expect(checked).toBeLessThanOrEqual(MAX_FAILURES);
    expect(checked + refused.length).toBe(30);
    expect(refused[0]?.json.message).toBe(
      'Too many login attempts. Please try again in 15 minutes.',
    );
    const counter = (await (await throttleDb()).get({ key: KEYS[0]! }).go()).data;
    expect(counter?.count).toBe(MAX_FAILURES);
  });

  it('twelve wrong passwords for one account do not lock other accounts out from the address', async () => {
    const c = client();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await c.login(LOCKED, `no-${i}`)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(422));
    expect(statuses.slice(10)).toEqual([429, 429]);
    // Same address, another account: signs in.
    expect((await client().login(OTHER, OWN_TEAM_PASSWORD)).status).toBe(200);
    // The locked account stays locked, even with the right password.
    expect((await client().login(LOCKED, OWN_TEAM_PASSWORD)).status).toBe(429);
  });

  it('locks the address only at its own, much higher limit', async () => {
    const { MAX_FAILURES, MAX_FAILURES_PER_IP, WINDOW_MS } =
      await import('#lib/limits/attempts.ts');
    expect(MAX_FAILURES_PER_IP).toBeGreaterThanOrEqual(10 * MAX_FAILURES);
    const now = Date.now();
    await (
      await throttleDb()
    )
      .put({
        key: `login#ip#${IP}`,
        count: MAX_FAILURES_PER_IP,
        windowStart: now,
        ttl: Math.ceil((now + WINDOW_MS) / 1000),
      })
      .go();
    expect((await client().login(OTHER, OWN_TEAM_PASSWORD)).status).toBe(429);
  });

  it('keys on the socket address locally, whatever CloudFront-Viewer-Address claims', async () => {
    const c = client();
    const res = await c.request(
      'POST',
      '/login',
      { email: OTHER, password: 'wrong' },
      { headers: { 'cloudfront-viewer-address': '203.0.113.9:4711' } },
    );
    expect(res.status).toBe(422);
    const throttle = await throttleDb();
    expect((await throttle.get({ key: `login#ip#${IP}` }).go()).data?.count).toBe(1);
    expect((await throttle.get({ key: 'login#ip#203.0.113.9' }).go()).data).toBeNull();
  });
});

describe('public calls that reach Stripe or send mail', () => {
  it.each([
    ['coupon', 'GET', '/coupon/SPRING', undefined],
    ['tax-rate', 'POST', '/tax-rate', { country: 'DE' }],
    [
      'register',
      'POST',
      '/register',
      {
        name: 'Maria Lopez',
        email: 'throttled-register@example.org',
        team: 'Acme Flowers & Co',
        password: 'violet-tractor-91',
        password_confirmation: 'violet-tractor-91',
        terms: true,
        plan: 'free',
      },
    ],
    ['password-email', 'POST', '/password/email', { email: 'someone@example.com' }],
  ] as const)('answers 429 to %s past its per-address limit', async (call, method, path, body) => {
    const { PUBLIC_CALL_LIMITS, WINDOW_MS } = await import('#lib/limits/attempts.ts');
    const now = Date.now();
    await (
      await throttleDb()
    )
      .put({
        key: `public#${call}#ip#${IP}`,
        count: PUBLIC_CALL_LIMITS[call],
        windowStart: now,
        ttl: Math.ceil((now + WINDOW_MS) / 1000),
      })
      .go();
    const res = await client().request(method, path, body);
    expect(res.status).toBe(429);
    expect(res.json.message).toBe('Too many attempts. Please try again in 15 minutes.');
  });
});
