/**
 * Webhooks (docs/developer-api.md "Webhooks"): endpoints managed by a team's owner, events
 * queued on the local queue (DynamoDB Local) and delivered by the real worker through the
 * local poller to a receiver listening on loopback, which the test stack's SSRF guard treats as
 * public (SSRF_TEST_PUBLIC_PORTS, honoured only with STAGE=test). A second loopback "victim"
 * server is not listed, so the guard refuses it like any private address. Retries run without
 * delay here (WEBHOOK_RETRY_BASE_S=0).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/config.ts';
import { TestClient } from '../support/client.ts';
import { pollUntil, useLocalStack } from '../support/stack.ts';

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A receiver that records each request and answers the next status of its path's script. */
function receiver() {
  const received: Received[] = [];
  const scripts = new Map<string, number[]>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = scripts.get(path)?.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status < 300 ? `thanks for ${path}` : `receiver broke (${status})`);
    });
  });
  return { server, received, scripts };
}

const listen = (server: Server) =>
  new Promise<number>((ok) =>
    server.listen(0, '127.0.0.1', () => ok((server.address() as AddressInfo).port)),
  );

const hook = receiver();
const victim = receiver();
let port = 0;
let victimPort = 0;

beforeAll(async () => {
  port = await listen(hook.server);
  victimPort = await listen(victim.server);
  process.env.SSRF_TEST_PUBLIC_PORTS = String(port);
  process.env.WEBHOOK_RETRY_BASE_S = '0';
  resetConfig();
});

const stack = useLocalStack({ warmChromium: false });

afterAll(async () => {
  delete process.env.SSRF_TEST_PUBLIC_PORTS;
  delete process.env.WEBHOOK_RETRY_BASE_S;
  resetConfig();
  await Promise.all([
    new Promise((ok) => hook.server.close(ok)),
    new Promise((ok) => victim.server.close(ok)),
  ]);
});

const TEAM = 'team-demo';
const base = `/settings/companies/${TEAM}/webhooks`;

async function owner() {
  const c = new TestClient(stack().url);
  await c.login('demo@example.com');
  return c;
}

/** Verifies a delivery as docs/developer-api.md "Verifying a delivery" tells a receiver to. */
function verify(secret: string, header: string, body: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  const fresh = Math.abs(Date.now() / 1000 - Number(parts.t)) < 300;
  return fresh && given.length === expected.length && timingSafeEqual(given, expected);
}

async function deliveries(c: TestClient, id: string) {
  return (await c.request('GET', `${base}/${id}/deliveries`)).json.deliveries as Array<{
    ok: boolean;
    status: number | null;
    attempt: number;
    response: string;
    error: string | null;
    event_type: string;
  }>;
}

describe('webhooks', () => {
  it('adds an endpoint with a secret shown once and delivers a signed test event', async () => {
    const c = await owner();
    const created = await c.request('POST', base, {
      url: `http://127.0.0.1:${port}/test-event`,
      events: ['design.saved'],
      description: 'CRM sync',
    });
    expect(created.status).toBe(201);
    const secret = created.json.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const id = (created.json.endpoint as { id: string }).id;

    const listed = await c.request('GET', base);
    expect(JSON.stringify(listed.json)).not.toContain(secret);
    expect(listed.json.endpoints).toEqual([
      expect.objectContaining({
        id,
        description: 'CRM sync',
        enabled: true,
        events: ['design.saved'],
      }),
    ]);

    expect((await c.request('POST', `${base}/${id}/test`)).status).toBe(200);
    const rows = await pollUntil(
      'the test delivery',
      () => deliveries(c, id),
      (d) => d.length > 0,
    );
    expect(rows[0]).toMatchObject({ ok: true, status: 200, attempt: 1, event_type: 'ping' });
    expect(rows[0]!.response).toBe('thanks for /test-event');

    const got = hook.received.find((r) => r.path === '/test-event')!;
    expect(got.headers['content-type']).toBe('application/json');
    expect(verify(secret, String(got.headers['picsnippets-signature']), got.body)).toBe(true);
    // A changed body, or another secret, does not verify.
    expect(verify(secret, String(got.headers['picsnippets-signature']), `${got.body} `)).toBe(
      false,
    );
    expect(verify('whsec_other', String(got.headers['picsnippets-signature']), got.body)).toBe(
      false,
    );
    expect(JSON.parse(got.body)).toMatchObject({
      type: 'ping',
      team_id: TEAM,
      id: expect.stringMatching(/^evt_/),
    });
  });

  it('sends design.saved when a design is saved, retrying after 500s until the receiver takes it', async () => {
    const c = await owner();
    const { json } = await c.request('POST', base, {
      url: `http://127.0.0.1:${port}/retry`,
      events: ['design.saved', 'design.archived'],
    });
    const id = (json.endpoint as { id: string }).id;
    hook.scripts.set('/retry', [500, 503]);

    const design = (await c.request('GET', '/api/pic-snippet/design-demo-welcome')).json;
    const saved = await c.request('PUT', '/api/pic-snippet/design-demo-welcome', {
      version: design.version,
      title: 'Saved for a webhook',
    });
    expect(saved.status).toBe(200);

    const rows = await pollUntil(
      'three attempts',
      () => deliveries(c, id),
      (d) => d.some((x) => x.ok),
      { timeoutMs: 20_000 },
    );
    expect([...rows].reverse().map((d) => [d.attempt, d.status, d.ok])).toEqual([
      [1, 500, false],
      [2, 503, false],
      [3, 200, true],
    ]);
    expect(rows[2]!.response).toBe('receiver broke (500)');
    const bodies = hook.received.filter((r) => r.path === '/retry').map((r) => JSON.parse(r.body));
    // Every attempt carries the same event (same id), so a receiver can drop repeats.
    expect(new Set(bodies.map((b: { id: string }) => b.id)).size).toBe(1);
    expect(bodies[0]).toMatchObject({
      type: 'design.saved',
      data: { design: { id: 'design-demo-welcome', title: 'Saved for a webhook' } },
    });
    // Working again: no failing streak.
    const listed = (await c.request('GET', base)).json.endpoints as Array<{
      id: string;
      failing_since: string | null;
    }>;
    expect(listed.find((e) => e.id === id)!.failing_since).toBeNull();
    await c.request('DELETE', `${base}/${id}`);
  });

  it('tells nothing for a save that changed nothing, and the next real save once', async () => {
    const c = await owner();
    const { json } = await c.request('POST', base, {
      url: `http://127.0.0.1:${port}/quiet`,
      events: ['design.saved'],
    });
    const id = (json.endpoint as { id: string }).id;
    const design = (await c.request('GET', '/api/pic-snippet/design-demo-welcome')).json;
    // An autosave with nothing in it: 200, same version, no event.
    const idle = await c.request('PUT', '/api/pic-snippet/design-demo-welcome', {
      version: design.version,
    });
    expect(idle.status).toBe(200);
    expect(idle.json.version).toBe(design.version);
    const saved = await c.request('PUT', '/api/pic-snippet/design-demo-welcome', {
      version: design.version,
      title: 'Saved once',
    });
    expect(saved.json.version).toBe((design.version as number) + 1);
    const rows = await pollUntil(
      'the real save',
      () => deliveries(c, id),
      (d) => d.some((x) => x.ok),
      { timeoutMs: 20_000 },
    );
    // The idle save was first; had it been told, its delivery would be here too.
    const bodies = hook.received.filter((r) => r.path === '/quiet').map((r) => JSON.parse(r.body));
    expect(rows).toHaveLength(1);
    expect(
      bodies.map((b: { data: { design: { version: number } } }) => b.data.design.version),
    ).toEqual([saved.json.version]);
    await c.request('DELETE', `${base}/${id}`);
  });

  it('refuses a private address when the endpoint is added, and when a delivery would go there', async () => {
    const c = await owner();
    for (const url of [
      `http://127.0.0.1:${victimPort}/`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.7/hook',
    ]) {
      const refused = await c.request('POST', base, { url, events: ['design.saved'] });
      expect(refused.status, url).toBe(422);
      expect(refused.json.errors).toHaveProperty('url');
    }

    // A name that resolved publicly when added and privately later (DNS rebinding): the
    // worker's own check refuses it before any connection.
    const { json } = await c.request('POST', base, {
      url: `http://127.0.0.1:${port}/moved`,
      events: ['design.saved'],
    });
    const id = (json.endpoint as { id: string }).id;
    const { db } = await import('#lib/db/index.ts');
    await db()
      .WebhookEndpoint.patch({ teamId: TEAM, webhookId: id })
      .set({ url: `http://127.0.0.1:${victimPort}/secret` })
      .go();
    await c.request('POST', `${base}/${id}/test`);
    const rows = await pollUntil(
      'the refused delivery',
      () => deliveries(c, id),
      (d) => d.length > 0,
    );
    expect(rows[0]).toMatchObject({ ok: false, status: null });
    expect(rows[0]!.error).toMatch(/^(address|port): URL refused/);
    expect(victim.received).toEqual([]);
    await c.request('DELETE', `${base}/${id}`);
  });

  it('disables an endpoint that kept failing and e-mails the owner', async () => {
    const c = await owner();
    const { json } = await c.request('POST', base, {
      url: `http://127.0.0.1:${port}/down`,
      events: ['design.archived'],
    });
    const id = (json.endpoint as { id: string }).id;
    hook.scripts.set('/down', [500, 500, 500]);
    const { db } = await import('#lib/db/index.ts');
    const fourDaysAgo = new Date(Date.now() - 4 * 86_400_000).toISOString();
    await db()
      .WebhookEndpoint.patch({ teamId: TEAM, webhookId: id })
      .set({ failingSince: fourDaysAgo })
      .go();
    const { emitWebhookEvent } = await import('#domain/webhooks.ts');
    await emitWebhookEvent(TEAM, 'design.archived', { design: { id: 'x' } });

    const endpoint = await pollUntil(
      'the endpoint disabled',
      async () =>
        ((await c.request('GET', base)).json.endpoints as Array<Record<string, unknown>>).find(
          (e) => e.id === id,
        )!,
      (e) => e.enabled === false,
    );
    expect(endpoint.disabled_reason).toBe('Deliveries failed for 4 days.');
    // No retry once disabled: one attempt.
    expect((await deliveries(c, id)).length).toBe(1);
    const { readOutbox } = await import('#lib/mailer.ts');
    const mail = await pollUntil(
      'the owner told',
      async () =>
        (await readOutbox()).find(
          (m) => m.to === 'demo@example.com' && m.subject.includes('webhook endpoint'),
        ),
      (m) => m !== undefined,
    );
    expect(mail!.text).toContain(`http://127.0.0.1:${port}/down`);

    // Turned on again by the owner: a fresh start.
    const on = await c.request('PUT', `${base}/${id}`, { enabled: true });
    expect(on.json).toMatchObject({ enabled: true, failing_since: null, disabled_reason: null });
  });

  it("keeps other teams' endpoints apart and needs an owner or admin", async () => {
    const c = await owner();
    const { json } = await c.request('POST', base, {
      url: `http://127.0.0.1:${port}/mine`,
      events: ['design.saved'],
    });
    const id = (json.endpoint as { id: string }).id;
    const admin = new TestClient(stack().url);
    await admin.login('admin@example.com');
    // Another team's id in the path: not found; the admin's own team does not have it.
    expect((await admin.request('GET', base)).status).toBe(404);
    expect(
      (await admin.request('GET', `/settings/companies/team-admin/webhooks/${id}/deliveries`))
        .status,
    ).toBe(404);
    expect(
      (await admin.request('DELETE', `/settings/companies/team-admin/webhooks/${id}`)).status,
    ).toBe(404);
    expect(
      (await c.request('POST', base, { url: 'ftp://example.com/', events: [] })).json,
    ).toMatchObject({
      errors: { url: [expect.any(String)], events: [expect.any(String)] },
    });
  });
});
