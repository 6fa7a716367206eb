/**
 * Secrets never reach logs (docs/security.md "Logs"), proven on the flows that carry them: the
 * logger runs at the production level (INFO) into a buffer while this file signs up, signs in
 * (right and wrong passwords), asks for and uses a password-reset link, creates and uses an API
 * token, and turns on two-factor authentication; runs the Stripe flows with billing online (the
 * real `stripe` SDK with the test keys, answered by the recording HttpClient of
 * test/support/stripe.ts): a SetupIntent, a subscription whose first payment needs 3-D Secure,
 * the payment lookup, a Stripe refusal of the key, and signed (and wrongly signed) webhook
 * deliveries; and runs Keap's OAuth flow against a fake Keap on a loopback port (the code
 * exchange with the app's secret, a refused code, live fields with the access token, the
 * rotating refresh, a pasted token Keap refuses). Then every captured line is scanned for each
 * secret's value (passwords, the reset token, the API token, the TOTP secret, the session and
 * XSRF cookies, the Stripe secret key, the webhook signing secret and a signature, the
 * SetupIntent's and PaymentIntent's client secrets, Keap's client secret, codes, access and
 * refresh tokens).
 *
 * Mutation checks (run): with `logger.info('login', { body: event.body })` added to the login
 * route, "no secret of the flows is in the logs" fails on the password; with
 * `logger.info('stripe client', { key })` added where `stripe()` in functions/lib/stripe.ts
 * creates its client, it fails on the Stripe secret key; with
 * `logger.info('keap token call', { form: grant })` added to `tokenCall` in
 * functions/merge-tags/keap-oauth.ts, it fails on Keap's two codes and the refresh token.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/config.ts';
import { TestClient } from '../support/client.ts';
import { signedEvent, TEST_KEYS, useOnlineBillingStack } from '../support/stripe.ts';
import { subscriptionEvent } from '../fixtures/stripe/events.ts';
import {
  customer,
  IDS,
  invoice,
  invoicePayment,
  list,
  paymentIntent,
  paymentMethod,
  setupIntent,
  subscription,
} from '../fixtures/stripe/objects.ts';

// Billing online: the Stripe keys of the test configuration, the SDK answered by the recorder.
const { stack, stripe } = useOnlineBillingStack();

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

/** A value no log line could hold by chance. */
const unique = (prefix: string) => `${prefix}${randomBytes(9).toString('base64url')}`;

/** Registers a new owner of a new team on the free plan; the client is signed in. */
async function newOwner(email: string, team: string) {
  const c = new TestClient(stack().url);
  const password = unique('pw-');
  const res = await c.request('POST', '/register', {
    name: 'Lena Logs',
    email,
    team,
    password,
    password_confirmation: password,
    terms: true,
    plan: 'free',
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  const me = await c.request('GET', '/user/current');
  return { c, teamId: me.json.current_team_id as string };
}

/** Keap's app and what the fake Keap hands out and accepts. */
const KEAP = {
  clientId: 'keap-logs-client',
  clientSecret: unique('keap-client-secret-'),
  /** The one code Keap accepts. */
  code: unique('keap-code-'),
  tokens: [] as Array<{ access: string; refresh: string }>,
};
let keap: Server;

/** The fake Keap: the token endpoint (code exchange, rotating refresh) and the contact model. */
beforeAll(async () => {
  keap = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const send = (status: number, answer: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      const live = KEAP.tokens.at(-1);
      if (req.method === 'POST' && req.url === '/keap/token') {
        const form = Object.fromEntries(new URLSearchParams(body));
        const basic = `Basic ${Buffer.from(`${KEAP.clientId}:${KEAP.clientSecret}`).toString('base64')}`;
        const exchange =
          form.grant_type === 'authorization_code' &&
          form.code === KEAP.code &&
          form.client_secret === KEAP.clientSecret;
        const refresh =
          form.grant_type === 'refresh_token' &&
          form.refresh_token === live?.refresh &&
          req.headers.authorization === basic;
        if (!exchange && !refresh) return send(400, { error: 'invalid_grant' });
        const issued = { access: unique('keap-access-'), refresh: unique('keap-refresh-') };
        KEAP.tokens.push(issued);
        return send(200, {
          access_token: issued.access,
          refresh_token: issued.refresh,
          // The first pair is already due, so the next load refreshes it.
          expires_in: KEAP.tokens.length === 1 ? 0 : 3600,
          token_type: 'bearer',
        });
      }
      if (req.url === '/keap/crm/rest/v1/contacts/model') {
        if (req.headers.authorization !== `Bearer ${live?.access}`) return send(401, {});
        return send(200, {
          custom_fields: [{ id: 7, label: 'Shoe Size', field_name: 'ShoeSize' }],
        });
      }
      send(404, {});
    });
  });
  const port = await new Promise<number>((ok) =>
    keap.listen(0, '127.0.0.1', () => ok((keap.address() as AddressInfo).port)),
  );
  Object.assign(process.env, {
    SSRF_TEST_PUBLIC_PORTS: String(port),
    MERGE_TAGS_MODE: 'online',
    MERGE_TAG_API_URLS: `infusionsoft=http://127.0.0.1:${port}/keap`,
    KEAP_CLIENT_ID: KEAP.clientId,
    KEAP_CLIENT_SECRET: KEAP.clientSecret,
  });
  resetConfig();
});

afterAll(async () => {
  for (const name of [
    'SSRF_TEST_PUBLIC_PORTS',
    'MERGE_TAGS_MODE',
    'MERGE_TAG_API_URLS',
    'KEAP_CLIENT_ID',
    'KEAP_CLIENT_SECRET',
  ]) {
    delete process.env[name];
  }
  resetConfig();
  await new Promise((ok) => keap.close(ok));
});

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

  it('runs the Stripe flows: SetupIntent, 3-D Secure subscribe, payment lookup, a refused key, webhooks', async () => {
    secrets.stripeSecretKey = TEST_KEYS.STRIPE_SECRET_KEY;
    secrets.stripeWebhookSecret = TEST_KEYS.STRIPE_WEBHOOK_SECRET;
    const { c, teamId } = await newOwner('logs-stripe@example.org', 'Logs Stripe Team');
    const customerId = 'cus_LogsTeam';

    // A SetupIntent for the card form: its client secret goes to the browser only.
    secrets.setupIntentClientSecret = unique(`${IDS.setupIntent}_secret_`);
    stripe
      .on('POST', '/v1/customers', customer({ id: customerId, metadata: { team_id: teamId } }))
      .on(
        'POST',
        '/v1/setup_intents',
        setupIntent({ customer: customerId, client_secret: secrets.setupIntentClientSecret }),
      );
    const token = await c.request('GET', '/stripe/token');
    expect(token.status, JSON.stringify(token.json)).toBe(200);
    expect(token.json.clientSecret).toBe(secrets.setupIntentClientSecret);

    // Subscribing with a new card; the first payment needs 3-D Secure (400 with paymentId).
    secrets.paymentIntentClientSecret = unique(`${IDS.paymentIntent}_secret_`);
    const pi = paymentIntent({
      customer: customerId,
      client_secret: secrets.paymentIntentClientSecret,
    });
    stripe
      .on('POST', `/v1/customers/${customerId}`, customer({ id: customerId }), { times: 2 })
      .on('GET', `/v1/payment_methods/${IDS.paymentMethod}`, paymentMethod())
      .on(
        'POST',
        `/v1/payment_methods/${IDS.paymentMethod}/attach`,
        paymentMethod({ customer: customerId }),
      )
      .on(
        'POST',
        '/v1/subscriptions',
        subscription({
          customer: customerId,
          status: 'incomplete',
          metadata: { team_id: teamId, plan: 'pro-monthly' },
          latest_invoice: invoice({
            customer: customerId,
            status: 'open',
            amount_paid: 0,
            payments: list([invoicePayment(pi.id)], '/v1/invoice_payments'),
          }),
        }),
      )
      .on('GET', `/v1/payment_intents/${pi.id}`, pi, { times: 2 });
    const subscribed = await c.request('POST', '/settings/subscription', {
      plan: 'pro-monthly',
      stripe_payment_method: IDS.paymentMethod,
      address: '1 Main St',
      city: 'Springfield',
      zip: '62701',
      country: 'US',
    });
    expect(subscribed.status, JSON.stringify(subscribed.json)).toBe(400);
    expect(subscribed.json.paymentId).toBe(pi.id);
    // The payment-confirmation page's lookup answers the PaymentIntent's client secret.
    const lookup = await c.request('GET', `/stripe/payment/${pi.id}`);
    expect(lookup.status, JSON.stringify(lookup.json)).toBe(200);
    expect(lookup.json.clientSecret).toBe(secrets.paymentIntentClientSecret);
    // Every call carried the secret key (the SDK's Authorization header).
    expect(stripe.requests.length).toBeGreaterThanOrEqual(8);

    // Stripe refuses the key (a rolled key): logged as a failed call, answered as the spec's 502.
    stripe.fail('GET', '/v1/invoices', 401, {
      type: 'authentication_error',
      message: `Invalid API Key provided: ${secrets.stripeSecretKey.slice(0, 8)}****************ture`,
    });
    const invoices = await c.request('GET', '/settings/invoices');
    expect(invoices.status).toBe(502);
    expect(captured).toContain('stripe call failed');

    // Webhooks: a signed delivery is processed; a wrongly signed one is refused.
    const { payload, signature } = signedEvent(
      subscriptionEvent(
        'customer.subscription.updated',
        subscription({ customer: customerId, metadata: { team_id: teamId, plan: 'pro-monthly' } }),
      ),
    );
    secrets.webhookSignature = /v1=([0-9a-f]+)/.exec(signature)![1]!;
    const deliver = (sig: string) =>
      fetch(`${stack().url}/stripe/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': sig },
        body: payload,
      });
    expect((await deliver(signature)).status).toBe(200);
    const forged = signedEvent(JSON.parse(payload), unique('whsec_forged_')).signature;
    expect((await deliver(forged)).status).toBe(400);
    expect((await c.request('GET', '/settings/subscription')).json.plan).toBe('pro-monthly');
  });

  it('runs the Keap flows: code exchange, a refused code, live fields, the rotating refresh, a refused pasted token', async () => {
    secrets.keapClientSecret = KEAP.clientSecret;
    secrets.keapCode = KEAP.code;
    const { c, teamId } = await newOwner('logs-keap@example.org', 'Logs Keap Team');
    const start = await c.request(
      'GET',
      '/api/merge-tag/infusionsoft/authorize?design=logs-design',
    );
    expect(start.status).toBe(302);
    const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
    const callback = (query: Record<string, string>) =>
      c.request('GET', `/api/merge-tag/infusionsoft/callback?${new URLSearchParams(query)}`);

    // A code Keap refuses, then the right one: the tokens are stored (sealed) for the team.
    secrets.keapRefusedCode = unique('keap-stolen-code-');
    const refused = await callback({ code: secrets.keapRefusedCode, state });
    expect(refused.headers.get('location')).toContain('keap=failed');
    const connected = await callback({ code: KEAP.code, state });
    expect(connected.headers.get('location')).toContain('keap=connected');

    // Live fields: the first access token is already due, so it is refreshed (HTTP Basic with
    // the app's secret, the refresh token rotates) and the new access token reads the model.
    const fields = await c.request('POST', '/api/merge-tag', { provider: 'infusionsoft' });
    expect(fields.status, JSON.stringify(fields.json)).toBe(200);
    expect(fields.json).toMatchObject({ live: true, credentials_saved: true });
    expect(KEAP.tokens).toHaveLength(2);
    KEAP.tokens.forEach((t, i) => {
      secrets[`keapAccessToken${i}`] = t.access;
      secrets[`keapRefreshToken${i}`] = t.refresh;
    });
    expect(captured).toContain('keap tokens refreshed');
    const { dynamoCredentials } = await import('#functions/merge-tags/credentials.ts');
    expect(JSON.parse((await dynamoCredentials.load(teamId, 'infusionsoft'))!)).toMatchObject({
      access_token: KEAP.tokens[1]!.access,
      refresh_token: KEAP.tokens[1]!.refresh,
    });

    // A token pasted on the export screen that Keap refuses: a field error, logged as failed.
    secrets.keapPastedToken = unique('keap-pasted-');
    const pasted = await c.request('POST', '/api/merge-tag', {
      provider: 'infusionsoft',
      access_token: secrets.keapPastedToken,
    });
    expect(pasted.status).toBe(422);
    expect(captured).toContain('live merge tags failed');
  });

  it('no secret of the flows is in the logs', () => {
    // The capture saw the requests (the check is not vacuous).
    expect(captured).toContain('"message":"request"');
    expect(captured).toContain('/settings/api/token');
    expect(captured).toContain('/stripe/webhook');
    expect(captured).toContain('/api/merge-tag/infusionsoft/callback');
    expect(Object.keys(secrets).length).toBeGreaterThanOrEqual(20);
    for (const [name, value] of Object.entries(secrets)) {
      expect(value.length, name).toBeGreaterThanOrEqual(8);
    }
    // Every secret found is named at once.
    const inLogs = Object.entries(secrets)
      .filter(([, value]) => captured.includes(value))
      .map(([name]) => name);
    expect(inLogs, 'secrets that appear in the logs').toEqual([]);
  });
});
