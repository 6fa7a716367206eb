/// <reference lib="dom" />
/**
 * Webhooks through the built SPA in headless Chromium (docs/developer-api.md "Webhooks"): the
 * owner adds an endpoint in Team settings → Webhooks, copies the secret shown once, sends a
 * test event and sees its delivery with the receiver's answer, and the receiver checks the
 * signature with that secret. What the tab shows on its own (the selected tab, the empty list,
 * the form's errors, the secret gone once stored) is in
 * web/src/features/settings/WebhooksTab.test.tsx and web/src/pages/TeamSettingsPage.test.tsx. The
 * receiver listens on loopback, which the test stack's SSRF guard treats as public
 * (SSRF_TEST_PUBLIC_PORTS, honoured only with STAGE=test). Screenshots land in
 * test-results/e2e-webhooks-*.png.
 */
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/config.ts';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import { fillField, findByRole, press, signIn, snap, waitForText } from '../support/aria.ts';

const received: Array<{ signature: string; body: string }> = [];
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    received.push({
      signature: String(req.headers['picsnippets-signature']),
      body: Buffer.concat(chunks).toString('utf8'),
    });
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('hello from the receiver');
  });
});
let port = 0;

beforeAll(async () => {
  port = await new Promise<number>((ok) =>
    receiver.listen(0, '127.0.0.1', () => ok((receiver.address() as AddressInfo).port)),
  );
  process.env.SSRF_TEST_PUBLIC_PORTS = String(port);
  resetConfig();
});

const stack = useLocalStack({ web: 'preview', warmChromium: false });
const browser = useTestBrowser();

afterAll(async () => {
  delete process.env.SSRF_TEST_PUBLIC_PORTS;
  resetConfig();
  await new Promise((ok) => receiver.close(ok));
});

describe('webhooks in team settings', () => {
  it('adds an endpoint, shows its secret once, sends a test event and shows the delivery', async () => {
    const context = await browser().createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await signIn(page, stack().url, 'demo@example.com', 'demo-password');
    await page.goto(`${stack().url}/settings/companies/team-demo#/webhooks`, {
      waitUntil: 'networkidle0',
    });
    await findByRole(page, 'form', 'Add an endpoint');
    await snap(page, 'e2e-webhooks-1-empty');

    await fillField(page, 'Endpoint URL', `http://127.0.0.1:${port}/e2e-hook`);
    await press(page, 'A design was saved design.saved', 'checkbox');
    await fillField(page, 'Description (optional)', 'CRM sync');
    await press(page, 'Add endpoint');
    await waitForText(page, 'Endpoint added');
    const secret = await (
      await findByRole(page, 'textbox', 'Signing secret')
    ).evaluate((el) => (el as HTMLInputElement).value);
    expect(secret).toMatch(/^whsec_[\w-]{43}$/);
    await snap(page, 'e2e-webhooks-2-secret');
    await press(page, 'I have stored it');

    await findByRole(page, 'button', 'Send test event');
    await press(page, 'Send test event');
    await waitForText(page, 'Delivered (200)');
    await waitForText(page, 'hello from the receiver');
    await snap(page, 'e2e-webhooks-3-delivered');

    // The receiver got the event, signed with the secret the page showed.
    const got = received.at(-1)!;
    const t = /t=(\d+)/.exec(got.signature)![1]!;
    const mac = createHmac('sha256', secret).update(`${t}.${got.body}`).digest('hex');
    expect(got.signature).toBe(`t=${t},v1=${mac}`);
    expect(JSON.parse(got.body)).toMatchObject({ type: 'ping', team_id: 'team-demo' });
    await context.close();
  });
});
