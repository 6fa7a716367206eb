/**
 * Rate limits per API token (docs/developer-api.md "Rate limits"; functions/lib/limits/token-requests.ts):
 * each token's requests are counted apart in DynamoDB Local, every answer to a token carries the
 * draft's `RateLimit-Policy` / `RateLimit` fields, past the allowance a 429 with `Retry-After`;
 * sessions are not counted. The stack runs with a small limit (TOKEN_RATE_LIMIT=5) and an hour's
 * window, so no window ends during the test.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/config.ts';
import { TestClient } from '../support/client.ts';
import { ownTeam, uniqueEmail } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

process.env.TOKEN_RATE_LIMIT = '5';
process.env.TOKEN_RATE_WINDOW_S = '3600';
const stack = useLocalStack({ warmChromium: false });

afterAll(() => {
  delete process.env.TOKEN_RATE_LIMIT;
  delete process.env.TOKEN_RATE_WINDOW_S;
  resetConfig();
});

const bearer = (token: string, path = '/user/current') =>
  fetch(`${stack().url}${path}`, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  });

/** The `r` (remaining) and `t` (reset, s) of one policy's item of a `RateLimit` field. */
function remaining(res: Response, policy: 'token' | 'user' = 'token'): { r: number; t: number } {
  const field = res.headers.get('ratelimit') ?? '';
  const item = field.split(', ').find((i) => i.startsWith(`"${policy}";`)) ?? '';
  const match = /^"(?:token|user)";r=(\d+);t=(\d+)$/.exec(item);
  if (!match) throw new Error(`no RateLimit item "${policy}": "${field}"`);
  return { r: Number(match[1]), t: Number(match[2]) };
}

/** Waits out the last minute of an hour, so every count below falls in one window. */
async function awayFromWindowEnd(): Promise<void> {
  const left = 3_600_000 - (Date.now() % 3_600_000);
  if (left < 60_000) await new Promise((ok) => setTimeout(ok, left + 1000));
}

describe('rate limits per API token', () => {
  it('counts each token apart, tells what is left on every answer, and answers 429 past it', async () => {
    await awayFromWindowEnd();
    // A user of this file's own: the tokens made here are not left on a seeded login.
    const c = await ownTeam(stack().url, uniqueEmail('rate-limits'));
    const make = async (name: string) =>
      (await c.request('POST', '/settings/api/token', { name, abilities: ['read'] })).json
        .token as string;
    const [a, b] = [await make('Rate A'), await make('Rate B')];

    const first = await bearer(a);
    expect(first.status).toBe(200);
    // One token's allowance, and all the user's tokens together twice that.
    expect(first.headers.get('ratelimit-policy')).toBe('"token";q=5;w=3600, "user";q=10;w=3600');
    expect(remaining(first, 'user').r).toBe(9);
    expect(remaining(first).r).toBe(4);
    expect(remaining(first).t).toBeGreaterThan(0);
    expect(remaining(first).t).toBeLessThanOrEqual(3600);
    expect(remaining(await bearer(a)).r).toBe(3);

    // The other token has its own count.
    const other = await bearer(b);
    expect(other.status).toBe(200);
    expect(remaining(other).r).toBe(4);

    // An error answer to a token counts and carries the fields too (a session-only route: 403).
    const refused = await bearer(a, '/settings/api/tokens');
    expect(refused.status).toBe(403);
    expect(remaining(refused).r).toBe(2);
    expect(remaining(await bearer(a)).r).toBe(1);
    expect(remaining(await bearer(a)).r).toBe(0);

    const over = await bearer(a);
    expect(over.status).toBe(429);
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(remaining(over)).toEqual({ r: 0, t: retryAfter });
    expect(over.headers.get('content-type')).toContain('application/json');
    expect(await over.json()).toMatchObject({
      code: 'too_many_requests',
      message: expect.stringContaining('Too many requests'),
    });

    // Token B still has its allowance.
    expect(remaining(await bearer(b)).r).toBe(3);
  });

  it('caps all of a user’s tokens together: more tokens do not multiply the allowance', async () => {
    await awayFromWindowEnd();
    const c = await ownTeam(stack().url, uniqueEmail('rate-limits-many'));
    const tokens: string[] = [];
    for (let i = 0; i < 4; i++)
      tokens.push(
        (await c.request('POST', '/settings/api/token', { name: `Many ${i}`, abilities: ['read'] }))
          .json.token as string,
      );
    // Two tokens spend the user's 10 (5 each); the other two get nothing more.
    for (const token of tokens.slice(0, 2))
      for (let i = 0; i < 5; i++) expect((await bearer(token)).status).toBe(200);
    for (const token of tokens.slice(2)) {
      const over = await bearer(token);
      expect(over.status).toBe(429);
      expect(remaining(over, 'user').r).toBe(0);
      expect(remaining(over, 'token').r).toBe(4);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('leaves the SPA session alone: no fields, never a 429', async () => {
    const c = new TestClient(stack().url);
    expect((await c.login('demo@example.com')).status).toBe(200);
    for (let i = 0; i < 8; i++) {
      const res = await c.request('GET', '/user/current');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit')).toBeNull();
      expect(res.headers.get('ratelimit-policy')).toBeNull();
    }
  });

  it('does not count an unknown token (401, no fields)', async () => {
    const res = await bearer(`pst_${'x'.repeat(43)}`);
    expect(res.status).toBe(401);
    expect(res.headers.get('ratelimit')).toBeNull();
  });
});
