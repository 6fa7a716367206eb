/**
 * The edge cannot be skipped (functions/lib/origin-verify.ts; docs/security.md): with the
 * origin-verify secret configured (as in AWS), the API chain answers 403 to a request without
 * CloudFront's header or with a wrong one, serves one with the right value and hides the header
 * from the handler, and refuses everything when the secret was named but could not be read.
 * Mutation check (run): without `originVerify()` in the chain, "refuses a request that did not
 * come through CloudFront" fails (200).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Context } from 'aws-lambda';
import { httpChain, json, type ApiEvent } from '#lib/http.ts';
import { resetConfig } from '#lib/config.ts';

const context = { getRemainingTimeInMillis: () => 30_000 } as Context;
const SECRET = 'edge-only-0123456789abcdefghijklmnopqrstuvwxyzABCD';

function event(headers: Record<string, string>): ApiEvent {
  return {
    version: '2.0',
    routeKey: 'GET /plans',
    rawPath: '/plans',
    rawQueryString: '',
    headers: { accept: 'application/json', ...headers },
    requestContext: {
      http: { method: 'GET', path: '/plans', protocol: 'HTTP/1.1', sourceIp: '203.0.113.9' },
      requestId: 'req-edge',
    },
    isBase64Encoded: false,
  } as unknown as ApiEvent;
}

/** A chain built with the given environment (the check is set up when the chain is built). */
function chainWith(env: Record<string, string | undefined>) {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k];
  resetConfig();
  const seen: Array<Record<string, string | undefined>> = [];
  const chain = httpChain('test', async (e) => {
    seen.push({ ...e.headers });
    return json(200, { success: true });
  });
  return {
    seen,
    call: async (headers: Record<string, string>) => chain(event(headers), context),
    restore: () => {
      process.env = saved;
      resetConfig();
    },
  };
}

let restore: (() => void) | undefined;
afterEach(() => restore?.());

describe('origin verify', () => {
  it('refuses a request that did not come through CloudFront', async () => {
    const c = chainWith({ ORIGIN_VERIFY_SECRET: SECRET });
    restore = c.restore;
    const missing = await c.call({});
    expect(missing.statusCode).toBe(403);
    expect(JSON.parse(missing.body!)).toMatchObject({
      success: false,
      message: 'This action is unauthorized.',
    });
    const wrong = await c.call({ 'x-origin-verify': `${SECRET.slice(0, -1)}X` });
    expect(wrong.statusCode).toBe(403);
    const short = await c.call({ 'X-Origin-Verify': 'edge' });
    expect(short.statusCode).toBe(403);
    expect(c.seen).toHaveLength(0);
  });

  it("serves CloudFront's requests and hides the header from the handler", async () => {
    const c = chainWith({ ORIGIN_VERIFY_SECRET: SECRET });
    restore = c.restore;
    const res = await c.call({ 'X-Origin-Verify': SECRET });
    expect(res.statusCode).toBe(200);
    expect(c.seen).toHaveLength(1);
    expect(c.seen[0]).not.toHaveProperty('x-origin-verify');
    expect(JSON.stringify(c.seen[0])).not.toContain(SECRET);
  });

  it('fails closed when the secret was named but not read', async () => {
    // The SSM read is not reached here (no AWS): the value stays unset, as when it is missing.
    const c = chainWith({
      ORIGIN_VERIFY_SECRET_PARAMETER: '/aws/reference/secretsmanager/picsnippets-origin',
      ORIGIN_VERIFY_SECRET: undefined,
      AWS_REGION: 'us-east-1',
    });
    restore = c.restore;
    const { originVerify } = await import('#lib/origin-verify.ts');
    const [check] = originVerify();
    expect(check).toBeDefined();
    expect(() =>
      (check!.before as (r: { event: { headers: Record<string, string> } }) => void)({
        event: { headers: { 'x-origin-verify': SECRET } },
      }),
    ).toThrow('This action is unauthorized.');
  });

  it('checks nothing where no secret is configured (local stack, tests)', async () => {
    const c = chainWith({
      ORIGIN_VERIFY_SECRET: undefined,
      ORIGIN_VERIFY_SECRET_PARAMETER: undefined,
    });
    restore = c.restore;
    expect((await c.call({})).statusCode).toBe(200);
  });
});
