/**
 * Keap's OAuth authorisation-code flow through the local stack (docs/export.md; docs/export.md
 * "Keap (Infusionsoft) OAuth" "Choosing infusionsoft without an access token opens the
 * authorization window"): the authorize redirect and its sealed state, the state check of the
 * callback, the code exchange and the rotating refresh at a fake Keap token endpoint, and the live
 * fields read with the stored token. As in merge-tags.test.ts, the fake platform listens on a
 * loopback port the test config marks public (SSRF_TEST_PUBLIC_PORTS, honoured only with
 * STAGE=test).
 *
 * The flow runs for a user and a design of this file's own: the tokens are saved per team, and a
 * Keap credential another file saved for the seeded demo team (which this fake Keap refuses) made
 * the first case answer 422 on a shared stack (docs/testing.md "One stack per worker").
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/config.ts';
import { providerOf } from '#shared/providers/index.ts';
import {
  createDesign,
  currentTeamId,
  OWN_TEAM_PASSWORD,
  ownTeam,
  signedIn,
  uniqueEmail,
} from '../support/designs.ts';
import { TestClient } from '../support/client.ts';
import { useLocalStack } from '../support/stack.ts';

const CLIENT = { id: 'keap-client-id', secret: 'keap-client-secret' };
/** The user whose export screen starts the flow, their team and a design of it. */
const USER = uniqueEmail('keap');
let TEAM = '';
let DESIGN = '';

/** What the fake Keap saw: token calls (form and authorization) and model calls. */
let tokenCalls: Array<{ form: Record<string, string>; authorization: string | undefined }> = [];
let modelCalls: string[] = [];
/** Tokens the fake Keap hands out next, and how long they last (s). */
let issued = 0;
let expiresIn = 3600;
/** The refresh token Keap accepts now (rotation retires the old one). */
let liveRefresh = '';
let keap: Server;
let port = 0;

beforeAll(async () => {
  keap = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const send = (status: number, answer: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      if (req.method === 'POST' && req.url === '/keap/token') {
        const form = Object.fromEntries(new URLSearchParams(body));
        tokenCalls.push({ form, authorization: req.headers.authorization });
        const basic = `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64')}`;
        const exchange =
          form.grant_type === 'authorization_code' &&
          form.code === 'good-code' &&
          form.client_id === CLIENT.id &&
          form.client_secret === CLIENT.secret;
        const refresh =
          form.grant_type === 'refresh_token' &&
          form.refresh_token === liveRefresh &&
          req.headers.authorization === basic;
        if (!exchange && !refresh) return send(400, { error: 'invalid_grant' });
        issued += 1;
        liveRefresh = `refresh-${issued}`;
        return send(200, {
          access_token: `access-${issued}`,
          refresh_token: liveRefresh,
          expires_in: expiresIn,
          token_type: 'bearer',
          scope: 'full',
        });
      }
      if (req.url === '/keap/crm/rest/v1/contacts/model') {
        modelCalls.push(req.headers.authorization ?? '');
        if (req.headers.authorization !== `Bearer access-${issued}`) return send(401, {});
        return send(200, {
          custom_fields: [{ id: 7, label: 'Shoe Size', field_name: 'ShoeSize' }],
        });
      }
      send(404, {});
    });
  });
  port = await new Promise<number>((ok) =>
    keap.listen(0, '127.0.0.1', () => ok((keap.address() as AddressInfo).port)),
  );
  process.env.SSRF_TEST_PUBLIC_PORTS = String(port);
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

/** Keap configured (or not) and the installation online, pointed at the fake Keap. */
function keapSettings(configured: boolean) {
  process.env.MERGE_TAGS_MODE = 'online';
  process.env.MERGE_TAG_API_URLS = `infusionsoft=http://127.0.0.1:${port}/keap`;
  if (configured) {
    process.env.KEAP_CLIENT_ID = CLIENT.id;
    process.env.KEAP_CLIENT_SECRET = CLIENT.secret;
  } else {
    delete process.env.KEAP_CLIENT_ID;
    delete process.env.KEAP_CLIENT_SECRET;
  }
  resetConfig();
}

const stack = useLocalStack();

beforeAll(async () => {
  const user = await ownTeam(stack().url, USER);
  TEAM = await currentTeamId(user);
  DESIGN = (await createDesign(user, { title: 'Keap export' })).id;
});

/** A fresh session of the file's user. */
const signedInUser = async () => {
  const client = new TestClient(stack().url);
  expect((await client.login(USER, OWN_TEAM_PASSWORD)).status).toBe(200);
  return client;
};

beforeEach(() => {
  tokenCalls = [];
  modelCalls = [];
  keapSettings(true);
});

/** Starts the flow as the screen does; returns Keap's authorize URL. */
async function authorize(client: TestClient): Promise<URL> {
  const res = await client.request('GET', `/api/merge-tag/infusionsoft/authorize?design=${DESIGN}`);
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}

const callback = (client: TestClient, query: Record<string, string>) =>
  client.request('GET', `/api/merge-tag/infusionsoft/callback?${new URLSearchParams(query)}`);

const keapFields = (client: TestClient) =>
  client.request('POST', '/api/merge-tag', { provider: 'infusionsoft' });

describe('without a Keap app', () => {
  it('offers the built-in fields, no authorisation window, and sends the window back', async () => {
    keapSettings(false);
    const demo = await signedInUser();
    const res = await keapFields(demo);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ live: false, connection_needed: true });
    expect(res.json.authorize_url).toBeUndefined();
    expect(res.json.merge_tags).toEqual(providerOf('infusionsoft').catalogue());
    const start = await demo.request(
      'GET',
      `/api/merge-tag/infusionsoft/authorize?design=${DESIGN}`,
    );
    expect(start.status).toBe(302);
    expect(start.headers.get('location')).toBe(`/pic-snippet/${DESIGN}/export?keap=unavailable`);
  });
});

describe('the authorisation-code flow', () => {
  it('redirects to Keap with the app, the callback and a sealed state', async () => {
    const demo = await signedInUser();
    const answer = await keapFields(demo);
    expect(answer.json.authorize_url).toBe('/api/merge-tag/infusionsoft/authorize');
    const url = await authorize(demo);
    expect(`${url.origin}${url.pathname}`).toBe(
      'https://accounts.infusionsoft.com/app/oauth/authorize',
    );
    expect(url.searchParams.get('client_id')).toBe(CLIENT.id);
    expect(url.searchParams.get('redirect_uri')).toBe(
      `${stack().url}/api/merge-tag/infusionsoft/callback`,
    );
    expect(url.searchParams.get('response_type')).toBe('code');
    const state = url.searchParams.get('state')!;
    // The state reveals nothing readable (sealed, not signed plain text).
    expect(Buffer.from(state, 'base64url').toString()).not.toContain(DESIGN);
    const noDesign = await demo.request('GET', '/api/merge-tag/infusionsoft/authorize');
    expect(noDesign.status).toBe(422);
  });

  it('refuses a tampered state, another user’s state, and no state, without calling Keap', async () => {
    const demo = await signedInUser();
    const admin = await signedIn(stack().url, 'admin@example.com');
    const state = (await authorize(demo)).searchParams.get('state')!;
    // The same sealed state with one byte of its ciphertext changed.
    const sealed = JSON.parse(Buffer.from(state, 'base64url').toString()) as { ct: string };
    const ct = Buffer.from(sealed.ct, 'base64');
    ct[0]! ^= 1;
    const tampered = Buffer.from(JSON.stringify({ ...sealed, ct: ct.toString('base64') })).toString(
      'base64url',
    );
    for (const [client, query] of [
      [demo, { code: 'good-code', state: tampered }],
      [admin, { code: 'good-code', state }],
      [demo, { code: 'good-code' }],
    ] as const) {
      const res = await callback(client, query);
      expect(res.status).toBe(400);
      expect(res.json.message).toBe(
        'The Keap authorisation could not be checked. Start again from the export screen.',
      );
    }
    expect(tokenCalls).toEqual([]);
    const anonymous = await callback(new TestClient(stack().url), { code: 'good-code', state });
    expect(anonymous.status).toBe(401);
  });

  it('goes back with keap=denied when the user says no at Keap, and failed when Keap refuses the code', async () => {
    const demo = await signedInUser();
    const state = (await authorize(demo)).searchParams.get('state')!;
    const denied = await callback(demo, { error: 'access_denied', state });
    expect(denied.headers.get('location')).toBe(`/pic-snippet/${DESIGN}/export?keap=denied`);
    const refused = await callback(demo, { code: 'stolen-code', state });
    expect(refused.status).toBe(302);
    expect(refused.headers.get('location')).toBe(`/pic-snippet/${DESIGN}/export?keap=failed`);
    expect(tokenCalls).toHaveLength(1);
  });

  it('exchanges the code, stores the tokens, lists live fields, and keeps the rotated refresh token', async () => {
    expiresIn = 3600;
    const demo = await signedInUser();
    const state = (await authorize(demo)).searchParams.get('state')!;
    const res = await callback(demo, { code: 'good-code', state });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/pic-snippet/${DESIGN}/export?keap=connected`);
    expect(tokenCalls).toHaveLength(1);
    expect(tokenCalls[0]!.form).toEqual({
      grant_type: 'authorization_code',
      code: 'good-code',
      redirect_uri: `${stack().url}/api/merge-tag/infusionsoft/callback`,
      client_id: CLIENT.id,
      client_secret: CLIENT.secret,
    });

    // The saved token lists the account's fields (no token sent by the screen).
    let fields = await keapFields(demo);
    expect(fields.status).toBe(200);
    expect(fields.json).toMatchObject({ live: true, credentials_saved: true });
    expect(fields.json.merge_tags).toContainEqual({
      merge_tag_name: 'Shoe Size',
      merge_tag_value: '~Contact._ShoeSize~',
    });
    expect(modelCalls.at(-1)).toBe(`Bearer access-${issued}`);
    const first = issued;

    // Once the access token ends, it is refreshed with the refresh token (HTTP Basic), and the
    // NEW refresh token is stored: the next refresh uses it (the old one no longer works).
    expiresIn = 0;
    await expireStoredTokens();
    fields = await keapFields(demo);
    expect(fields.json).toMatchObject({ live: true });
    const refreshes = tokenCalls.filter((c) => c.form.grant_type === 'refresh_token');
    expect(refreshes.map((c) => c.form.refresh_token)).toEqual([`refresh-${first}`]);
    expect(refreshes[0]!.form.client_secret).toBeUndefined();
    expect(modelCalls.at(-1)).toBe(`Bearer access-${first + 1}`);
    // expires_in 0: the new token is already due, so the next call refreshes again, with the
    // rotated refresh token.
    fields = await keapFields(demo);
    expect(fields.json).toMatchObject({ live: true });
    expect(
      tokenCalls
        .filter((c) => c.form.grant_type === 'refresh_token')
        .map((c) => c.form.refresh_token),
    ).toEqual([`refresh-${first}`, `refresh-${first + 1}`]);
  });
});

/** Moves the stored access token's end into the past, as time would. */
async function expireStoredTokens() {
  const { dynamoCredentials } = await import('#functions/merge-tags/credentials.ts');
  const stored = JSON.parse((await dynamoCredentials.load(TEAM, 'infusionsoft'))!) as {
    expires_at: number;
  };
  stored.expires_at = Date.now() - 1000;
  await dynamoCredentials.save(TEAM, 'infusionsoft', JSON.stringify(stored), 'test');
}
