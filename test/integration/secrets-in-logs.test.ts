/**
 * Secrets never reach logs (docs/security.md "Logs"), proven on the flows that carry them: the
 * logger runs at the production level (INFO) into a buffer while this file signs up, signs in
 * (right and wrong passwords), asks for and uses a password-reset link, creates and uses an API
 * token, and turns on two-factor authentication; then every captured line is scanned for each
 * secret's value (passwords, the reset token, the API token, the TOTP secret, the session and
 * XSRF cookies).
 *
 * Mutation check (run): with `logger.info('login', { body: event.body })` added to the login
 * route, "no secret of the flows is in the logs" fails on the password.
 */
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false });

/** Everything written to stdout and stderr while capturing (the logger writes there). */
let captured = '';
const writes = {
  out: process.stdout.write.bind(process.stdout),
  err: process.stderr.write.bind(process.stderr),
};

beforeAll(async () => {
  const { logger } = await import('#lib/logger.ts');
  logger.setLogLevel('INFO');
  const capture =
    (original: typeof writes.out) =>
    (chunk: unknown, ...rest: unknown[]): boolean => {
      captured += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString();
      return original(chunk as string, ...(rest as []));
    };
  process.stdout.write = capture(writes.out) as typeof process.stdout.write;
  process.stderr.write = capture(writes.err) as typeof process.stderr.write;
});

afterAll(async () => {
  process.stdout.write = writes.out;
  process.stderr.write = writes.err;
  const { logger } = await import('#lib/logger.ts');
  logger.setLogLevel('ERROR');
});

const secrets: Record<string, string> = {};

/** The text of the reset mail sent to `address` (the outbox lists every message). */
async function resetMailTo(address: string): Promise<string | undefined> {
  const res = await fetch(`${stack().url}/__outbox.json`);
  const mails = (await res.json()) as Array<{ to: string; text: string }>;
  return mails.find((m) => m.to === address && m.text.includes('/password/reset/'))?.text;
}

describe('secrets in logs', () => {
  it('runs every secret-bearing flow', async () => {
    const c = new TestClient(stack().url);
    secrets.password = 'velvet-otter-5531-secret';
    const email = 'logs-check@example.org';
    const registered = await c.request('POST', '/register', {
      name: 'Lena Logs',
      email,
      team: 'Logs Team',
      password: secrets.password,
      password_confirmation: secrets.password,
      terms: true,
      plan: 'free',
    });
    expect(registered.status).toBe(201);

    // Sign in: a wrong password, then the right one.
    secrets.wrongPassword = 'wrong-guess-9981-secret';
    expect((await new TestClient(stack().url).login(email, secrets.wrongPassword)).status).toBe(
      422,
    );
    const signedIn = new TestClient(stack().url);
    expect((await signedIn.login(email, secrets.password)).status).toBe(200);
    for (const [name, value] of signedIn.cookies) secrets[`cookie ${name}`] = value;

    // An API token: created, then used.
    const created = await signedIn.request('POST', '/settings/api/token', {
      name: 'Logs',
      abilities: ['read'],
    });
    expect(created.status).toBe(201);
    secrets.apiToken = created.json.token as string;
    const used = await fetch(`${stack().url}/user/current`, {
      headers: { authorization: `Bearer ${secrets.apiToken}`, accept: 'application/json' },
    });
    expect(used.status).toBe(200);

    // Two-factor authentication: the secret, a wrong code and the confirming code.
    const begin = await signedIn.request('POST', '/settings/two-factor-auth', {});
    expect(begin.status).toBe(200);
    secrets.totpSecret = begin.json.secret as string;
    const code = await generate({ secret: secrets.totpSecret });
    const confirmed = await signedIn.request('POST', '/settings/two-factor-auth', { code });
    expect(confirmed.status).toBe(200);

    // A password reset: the e-mailed token, used once.
    const asked = await new TestClient(stack().url).request('POST', '/password/email', { email });
    expect(asked.status).toBe(200);
    const mail = await resetMailTo(email);
    secrets.resetToken = /\/password\/reset\/([^?\s]+)/.exec(mail ?? '')![1]!;
    secrets.newPassword = 'amber-heron-7724-secret';
    const reset = await new TestClient(stack().url).request('POST', '/password/reset', {
      token: secrets.resetToken,
      email,
      password: secrets.newPassword,
      password_confirmation: secrets.newPassword,
    });
    expect(reset.status).toBe(200);
  });

  it('no secret of the flows is in the logs', () => {
    // The capture saw the requests (the check is not vacuous).
    expect(captured).toContain('"message":"request"');
    expect(captured).toContain('/settings/api/token');
    expect(Object.keys(secrets).length).toBeGreaterThanOrEqual(8);
    for (const [name, value] of Object.entries(secrets)) {
      expect(value.length, name).toBeGreaterThanOrEqual(8);
      expect(captured.includes(value), `${name} appears in the logs`).toBe(false);
    }
  });
});
