/**
 * The marketing hook (docs/accounts.md "Marketing hook"): with `MARKETING_HOOK_URL` set, a
 * registration that consented posts the account, its plan, the affiliate cookies and the
 * tracked values to the URL; one that did not posts nothing; a receiver that fails leaves the
 * registration working. No internet: the receiver listens on a loopback port the test config
 * marks public (SSRF_TEST_PUBLIC_PORTS, honoured only with STAGE=test).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetConfig } from '#lib/config.ts';
import { TestClient } from '../support/client.ts';
import { useLocalStack } from '../support/stack.ts';

let receiver: Server;
let port = 0;
let status = 204;
const received: { path: string; type: string; body: unknown }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        type: req.headers['content-type'] ?? '',
        body: JSON.parse(raw) as unknown,
      });
      res.writeHead(status).end();
    });
  });
  port = await new Promise<number>((ok) =>
    receiver.listen(0, '127.0.0.1', () => ok((receiver.address() as AddressInfo).port)),
  );
  process.env.SSRF_TEST_PUBLIC_PORTS = String(port);
  process.env.MARKETING_HOOK_URL = `http://127.0.0.1:${port}/hook?key=secret-key`;
  resetConfig();
});

afterAll(async () => {
  delete process.env.SSRF_TEST_PUBLIC_PORTS;
  delete process.env.MARKETING_HOOK_URL;
  resetConfig();
  await new Promise((ok) => receiver.close(ok));
});

beforeEach(() => {
  received.length = 0;
  status = 204;
});

const stack = useLocalStack({ warmChromium: false });

const form = (email: string, consent?: boolean) => ({
  name: 'Mara Market',
  email,
  team: 'Market Stall',
  password: 'saffron-lattice-63',
  password_confirmation: 'saffron-lattice-63',
  terms: true,
  plan: 'free',
  ...(consent === undefined ? {} : { marketing_consent: consent }),
});

describe('the marketing hook at registration', () => {
  it('posts the account, plan, affiliate cookies and tracked values when the user consented', async () => {
    const c = new TestClient(stack().url);
    c.cookies.set('affiliate_id', 'partner-77');
    c.cookies.set('utm_source', 'newsletter');
    const res = await c.request('POST', '/register', form('mara@example.org', true));
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    expect(received).toEqual([
      {
        path: '/hook?key=secret-key',
        type: 'application/json',
        body: {
          name: 'Mara Market',
          team: 'Market Stall',
          email: 'mara@example.org',
          plan_id: 'free',
          affiliate: { affiliate_id: 'partner-77', utm_source: 'newsletter' },
          trial_value: '47.00',
          lifetime_value: '564.00',
          currency: 'USD',
        },
      },
    ]);
  });

  it('posts nothing without consent (the field defaults to off)', async () => {
    const c = new TestClient(stack().url);
    expect((await c.request('POST', '/register', form('quiet@example.org'))).status).toBe(201);
    const d = new TestClient(stack().url);
    expect((await d.request('POST', '/register', form('no@example.org', false))).status).toBe(201);
    expect(received).toEqual([]);
  });

  it('a receiver that fails does not fail the registration; the log names its host only', async () => {
    status = 500;
    const { logger } = await import('#lib/logger.ts');
    const warn = vi.spyOn(logger, 'warn');
    try {
      const c = new TestClient(stack().url);
      const res = await c.request('POST', '/register', form('fails@example.org', true));
      expect(res.status).toBe(201);
      expect(received).toHaveLength(1);
      expect((await c.request('GET', '/user/current')).status).toBe(200);
      // The hook's URL may carry a key in its path or query (docs/accounts.md "Marketing hook").
      const logged = warn.mock.calls.filter(([message]) => String(message).includes('marketing'));
      expect(logged).toEqual([
        ['marketing hook answered an error', { host: `127.0.0.1:${port}`, status: 500 }],
      ]);
      expect(JSON.stringify(warn.mock.calls)).not.toContain('secret-key');
    } finally {
      warn.mockRestore();
    }
  });
});
