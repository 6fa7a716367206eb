/**
 * The SSRF guard against hostile URLs (docs/security.md "SSRF guard"). No local
 * stack, no internet: two loopback servers and Chromium.
 *
 * - The victim listens on 127.0.0.1:P and [::1]:P (TCP, plus UDP on 127.0.0.1:P for WebRTC)
 *   and records every connection, request, upgrade and datagram. It stands for everything
 *   private (metadata service, databases, admin ports); at the end it must have seen NOTHING.
 * - The attacker's "public" server listens on 127.0.0.1:A and answers redirects to private
 *   addresses, huge and slow bodies, wrong content types and hostile pages.
 *
 * Loopback is blocked, so for the attacker's server to be reachable the test guard has a policy
 * in which ONLY port A on loopback counts as public: `isBlocked(ip, port)` is false for port A
 * and `isBlockedAddress(ip)` otherwise. It also allows port P as a port, so that the URLs aimed
 * at the victim are refused by the address rule, not masked by the port rule. The production
 * guard (`urlGuard`) is checked against the same corpus too.
 */
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Server as NetServer } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { gzipSync } from 'node:zlib';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs } from '#functions/render/browser.ts';
import { chromiumExecutable } from '#functions/render/chromium-binary.ts';
import {
  CHROMIUM_LOCKDOWN_ARGS,
  createUrlGuard,
  isBlockedAddress,
  type RefusalReason,
  type UrlGuard,
  UrlRefused,
  urlGuard,
} from '#lib/ssrf.ts';
import { hostileUrls } from '../support/hostile-urls.ts';

/** A 1x1 transparent PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const victimSeen: string[] = [];
const attackerSeen: string[] = [];
const victims: Server[] = [];
let udp: UdpSocket;
let attacker: Server;
let P = 0; // the victim's port
let A = 0; // the attacker's port
let guard: UrlGuard;

const listen = async (server: NetServer, port: number, host: string): Promise<number> => {
  server.listen(port, host);
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
};

function victimServer(label: string): Server {
  const server = createServer((req, res) => {
    victimSeen.push(`${label} request ${req.method} ${req.url}`);
    res.end('secret');
  });
  server.on('connection', () => victimSeen.push(`${label} connection`));
  server.on('upgrade', (req: IncomingMessage, socket) => {
    victimSeen.push(`${label} upgrade ${req.url}`);
    socket.destroy();
  });
  return server;
}

/** Hostile pages, served by the attacker; `P` is the victim's port. */
const hostilePage = (withSockets: boolean) => `<!doctype html><html><body>
<img id="ok" src="/img.png">
<img src="http://127.0.0.1:${P}/img">
<img src="http://[::1]:${P}/img">
<img src="/to-victim">
<img src="http://0x7f000001:${P}/hex">
<iframe src="http://[::1]:${P}/frame"></iframe>
<iframe src="http://localhost:${P}/frame"></iframe>
<link rel="stylesheet" href="http://127.0.0.1:${P}/style.css">
<script src="http://127.1:${P}/x.js"></script>
<script>
window.results = [];
(async () => {
  const tries = [
    () => fetch('http://localhost:${P}/fetch'),
    () => fetch('http://[::ffff:127.0.0.1]:${P}/mapped'),
    () => fetch('/to-victim-v6'),
    () => fetch('http://127.0.0.1:${P}/post', { method: 'POST', body: 'x', mode: 'no-cors' }),
    () => new Promise((res, rej) => { const x = new XMLHttpRequest(); x.open('GET', 'http://127.0.0.1:${P}/xhr'); x.onload = res; x.onerror = rej; x.send(); }),
  ];
  for (const t of tries) { try { await t(); window.results.push('reached'); } catch { window.results.push('blocked'); } }
  try { navigator.sendBeacon('http://127.0.0.1:${P}/beacon', 'x'); } catch {}
  try { new EventSource('http://127.0.0.1:${P}/events'); } catch {}
  ${
    withSockets
      ? `await new Promise((res) => { const ws = new WebSocket('ws://127.0.0.1:${P}/ws'); ws.onerror = res; ws.onopen = res; setTimeout(res, 1500); });
  try {
    const pc = new RTCPeerConnection({ iceServers: [
      { urls: 'turn:127.0.0.1:${P}?transport=tcp', username: 'u', credential: 'c' },
      { urls: 'stun:127.0.0.1:${P}' } ] });
    pc.createDataChannel('x');
    await pc.setLocalDescription(await pc.createOffer());
    // Gathering complete: every STUN and TURN attempt has been made.
    await new Promise((res) => {
      const done = () => pc.iceGatheringState === 'complete' && res();
      pc.onicegatheringstatechange = done;
      done();
    });
  } catch {}`
      : ''
  }
  window.done = true;
})();
</script></body></html>`;

function attackerRoutes(req: IncomingMessage, res: ServerResponse): void {
  attackerSeen.push(`${req.method} ${req.url}`);
  const path = new URL(req.url ?? '/', 'http://attacker').pathname;
  const redirect = (location: string) => {
    res.writeHead(302, { location });
    res.end();
  };
  const chain = /^\/chain\/(\d+)$/.exec(path);
  if (chain) {
    const n = Number(chain[1]);
    if (n === 0) res.end('end of chain');
    else redirect(`/chain/${n - 1}`);
    return;
  }
  switch (path) {
    case '/ok':
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('hello');
      return;
    case '/img.png':
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
      return;
    case '/html':
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<p>not an image</p>');
      return;
    case '/page':
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(hostilePage(false));
      return;
    case '/page-sockets':
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(hostilePage(true));
      return;
    case '/to-victim':
      return redirect(`http://127.0.0.1:${P}/`);
    case '/to-victim-v6':
      return redirect(`http://[::1]:${P}/`);
    case '/to-mapped':
      return redirect(`http://[::ffff:7f00:1]:${P}/`);
    case '/to-decimal':
      return redirect(`http://2130706433:${P}/`);
    case '/to-metadata':
      return redirect('http://169.254.169.254/latest/meta-data/');
    case '/to-localhost':
      return redirect(`http://localhost:${P}`);
    case '/to-file':
      return redirect('file:///etc/passwd');
    case '/to-gopher':
      return redirect(`gopher://127.0.0.1:${P}/_x`);
    case '/to-credentials':
      return redirect(`http://user:pass@127.0.0.1:${A}/ok`);
    case '/to-relative':
      return redirect('/ok');
    case '/to-victim-later':
      return redirect('/to-victim'); // the second hop goes private
    case '/huge':
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(Buffer.alloc(3 * 1024 * 1024, 1)); // chunked, no Content-Length
      return;
    case '/huge-declared':
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(50_000_000) });
      res.write(Buffer.alloc(1024));
      return; // never ends; the client must refuse on the header
    case '/gzip-bomb':
      res.writeHead(200, { 'content-type': 'image/png', 'content-encoding': 'gzip' });
      res.end(gzipSync(Buffer.alloc(64 * 1024 * 1024)));
      return;
    case '/slow': {
      res.writeHead(200, { 'content-type': 'image/png' });
      const timer = setInterval(() => res.write('x'), 100);
      res.on('close', () => clearInterval(timer));
      return;
    }
    case '/slow-headers':
      return; // never answers
    default:
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
  }
}

beforeAll(async () => {
  // Victim: the same port on 127.0.0.1 and ::1 (retried until both are free), UDP beside.
  for (let attempt = 0; attempt < 5 && P === 0; attempt++) {
    const v4 = victimServer('v4');
    const port = await listen(v4, 0, '127.0.0.1');
    const v6 = victimServer('v6');
    try {
      await listen(v6, port, '::1');
      victims.push(v4, v6);
      P = port;
    } catch {
      v4.close();
    }
  }
  expect(P).not.toBe(0);
  udp = createSocket('udp4');
  udp.on('message', () => victimSeen.push('udp datagram'));
  udp.bind(P, '127.0.0.1');
  await once(udp, 'listening');

  attacker = createServer(attackerRoutes);
  A = await listen(attacker, 0, '127.0.0.1');
  guard = createUrlGuard({
    isBlocked: (ip, port) => (port === A ? false : isBlockedAddress(ip)),
    allowedPorts: [80, 443, A, P],
  });
});

afterAll(async () => {
  attacker?.closeAllConnections();
  await Promise.all([attacker, ...victims].map((s) => new Promise((resolve) => s?.close(resolve))));
  udp?.close();
});

/** Awaits a refusal and returns its reason. */
async function reasonOf(promise: Promise<unknown>): Promise<RefusalReason> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UrlRefused);
  return (error as UrlRefused).reason;
}

/** The corpus: hostile URL and the reason(s) the test guard gives (P = victim's port). */
const corpus = () => hostileUrls(P);

/** Redirects from the attacker's public server to private places. */
const hostileRedirects = (): [string, RefusalReason[]][] => [
  [`http://127.0.0.1:${A}/to-victim`, ['address']],
  [`http://127.0.0.1:${A}/to-victim-v6`, ['address']],
  [`http://127.0.0.1:${A}/to-mapped`, ['address']],
  [`http://127.0.0.1:${A}/to-decimal`, ['address']],
  [`http://127.0.0.1:${A}/to-metadata`, ['address']],
  [`http://127.0.0.1:${A}/to-localhost`, ['address']],
  [`http://127.0.0.1:${A}/to-victim-later`, ['address']],
  [`http://127.0.0.1:${A}/to-file`, ['scheme']],
  [`http://127.0.0.1:${A}/to-gopher`, ['scheme']],
  [`http://127.0.0.1:${A}/to-credentials`, ['credentials']],
];

describe('isBlockedAddress', () => {
  it('refuses every special range and allows public unicast', () => {
    for (const ip of ['127.0.0.1', '::1', '169.254.169.254', '10.1.2.3', '::ffff:8.8.8.8']) {
      expect(isBlockedAddress(ip), ip).toBe(true);
    }
    for (const ip of ['8.8.8.8', '93.184.215.14', '2606:4700:4700::1111', '2a00:1450::1']) {
      expect(isBlockedAddress(ip), ip).toBe(false);
    }
  });
});

describe('guard.check and guard.fetch on the hostile corpus', () => {
  it('has at least 40 hostile URLs', () => {
    expect(corpus().length + hostileRedirects().length).toBeGreaterThanOrEqual(40);
  });

  it('refuses every URL of the corpus in check, with the expected reason', async () => {
    for (const [url, reasons] of corpus()) {
      expect(reasons, url).toContain(await reasonOf(guard.check(url)));
    }
  });

  it('refuses every URL of the corpus in fetch (test and production guards)', async () => {
    for (const [url, reasons] of corpus()) {
      expect(reasons, url).toContain(await reasonOf(guard.fetch(url, { timeoutMs: 3000 })));
      await reasonOf(urlGuard.fetch(url, { timeoutMs: 3000 }));
    }
  });

  it('refuses every redirect to a private address or another scheme', async () => {
    for (const [url, reasons] of hostileRedirects()) {
      expect(reasons, url).toContain(await reasonOf(guard.fetch(url)));
    }
    expect(attackerSeen).toContain('GET /to-victim-later');
  });

  it('refuses a name if ANY of its addresses is blocked', async () => {
    const twoFaced = createUrlGuard({
      lookup: () =>
        Promise.resolve([
          { address: '93.184.215.14', family: 4 },
          { address: '127.0.0.1', family: 4 },
        ]),
    });
    expect(await reasonOf(twoFaced.check('http://two-faced.test/'))).toBe('address');
  });

  it('refuses, never hangs, when DNS does not answer', async () => {
    const silent = createUrlGuard({ lookup: () => new Promise(() => {}), dnsTimeoutMs: 200 });
    const started = Date.now();
    expect(await reasonOf(silent.fetch('http://silent.test/'))).toBe('dns');
    // A safety budget (docs/security.md "SSRF guard", rule 5: a name that does not resolve is
    // refused, never waited on): the guard's own DNS budget, not the 2 s default, with a wide
    // margin for a loaded machine.
    expect(Date.now() - started).toBeLessThan(1500);
  });
});

describe('guard.fetch on the allowed server', () => {
  it('returns the body, the content type and the final URL', async () => {
    const answer = await guard.fetch(`http://127.0.0.1:${A}/ok`);
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe('hello');
    expect(answer.contentType).toBe('text/plain');
    expect(answer.url).toBe(`http://127.0.0.1:${A}/ok`);
  });

  it('follows a relative redirect and chains up to maxRedirects', async () => {
    const relative = await guard.fetch(`http://127.0.0.1:${A}/to-relative`);
    expect(relative.url).toBe(`http://127.0.0.1:${A}/ok`);
    expect(relative.body.toString()).toBe('hello');
    const three = await guard.fetch(`http://127.0.0.1:${A}/chain/3`, { maxRedirects: 3 });
    expect(three.body.toString()).toBe('end of chain');
    expect(await reasonOf(guard.fetch(`http://127.0.0.1:${A}/chain/4`, { maxRedirects: 3 }))).toBe(
      'redirect',
    );
  });

  it('returns a redirect as is in manual mode, its Location made absolute', async () => {
    const answer = await guard.fetch(`http://127.0.0.1:${A}/to-victim`, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe(`http://127.0.0.1:${P}/`);
  });

  it('connects to the address it checked: DNS is asked once per hop (no rebinding)', async () => {
    let calls = 0;
    const rebinding = createUrlGuard({
      // First answer public (in this test's policy), every later one private.
      lookup: () => {
        calls += 1;
        return Promise.resolve([{ address: calls === 1 ? '127.0.0.1' : '10.0.0.1', family: 4 }]);
      },
      isBlocked: (ip, port) => (port === A ? false : isBlockedAddress(ip)),
      allowedPorts: [A],
    });
    const answer = await rebinding.fetch(`http://rebind.test:${A}/ok`);
    expect(answer.body.toString()).toBe('hello');
    expect(calls).toBe(1);
    expect(attackerSeen).toContain('GET /ok');
  });

  it('https: connects to the pinned address with the hostname as SNI, and verifies TLS', async () => {
    const names: string[] = [];
    // No certificate at all: the handshake records the SNI name and fails.
    const tlsServer = createTlsServer({
      SNICallback: (name, callback) => {
        names.push(name);
        callback(new Error('no certificate here'));
      },
    });
    const port = await listen(tlsServer, 0, '127.0.0.1');
    const tlsGuard = createUrlGuard({
      lookup: () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]),
      isBlocked: (ip, p) => (p === port ? false : isBlockedAddress(ip)),
      allowedPorts: [port],
    });
    expect(await reasonOf(tlsGuard.fetch(`https://images.example.test:${port}/a.png`))).toBe(
      'network',
    );
    expect(names).toEqual(['images.example.test']);
    await new Promise((resolve) => tlsServer.close(resolve));
  });

  it('refuses a content type outside allowedContentTypes', async () => {
    const image = /^image\/(png|jpeg|gif|webp)$/;
    const png = await guard.fetch(`http://127.0.0.1:${A}/img.png`, {
      allowedContentTypes: image,
    });
    expect(png.body.equals(PNG)).toBe(true);
    expect(
      await reasonOf(guard.fetch(`http://127.0.0.1:${A}/html`, { allowedContentTypes: image })),
    ).toBe('type');
  });

  it('caps bytes: streamed, declared and decompressed', async () => {
    const cap = { maxBytes: 1024 * 1024 };
    expect(await reasonOf(guard.fetch(`http://127.0.0.1:${A}/huge`, cap))).toBe('size');
    // Refused on the header: the body never ends, so reading it would end in 'timeout'.
    expect(await reasonOf(guard.fetch(`http://127.0.0.1:${A}/huge-declared`, cap))).toBe('size');
    expect(await reasonOf(guard.fetch(`http://127.0.0.1:${A}/gzip-bomb`, cap))).toBe('size');
  });

  it('caps time across the whole exchange: slow body and silent server', async () => {
    for (const path of ['/slow', '/slow-headers']) {
      const started = Date.now();
      expect(await reasonOf(guard.fetch(`http://127.0.0.1:${A}${path}`, { timeoutMs: 400 }))).toBe(
        'timeout',
      );
      // A safety budget (docs/security.md "SSRF guard", rule 8: one time budget for the whole
      // chain): the 400 ms asked for, not the 5 s default, with a wide margin for a loaded
      // machine.
      expect(Date.now() - started).toBeLessThan(3000);
    }
  });

  it('refuses methods other than GET and HEAD', async () => {
    expect(await reasonOf(guard.fetch(`http://127.0.0.1:${A}/ok`, { method: 'POST' }))).toBe(
      'limit',
    );
    const head = await guard.fetch(`http://127.0.0.1:${A}/ok`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });
});

describe('guard.interceptPage in Chromium', () => {
  let browser: Browser | undefined;
  let locked: Browser | undefined;

  const launch = async (extra: readonly string[]) =>
    puppeteer.launch({
      executablePath: await chromiumExecutable(process.env.CHROMIUM_PATH),
      args: [...chromiumArgs().filter((a) => a !== '--single-process'), ...extra],
      headless: true,
    });

  beforeAll(async () => {
    [browser, locked] = await Promise.all([launch([]), launch(CHROMIUM_LOCKDOWN_ARGS)]);
  });

  afterAll(async () => {
    await Promise.all([browser?.close(), locked?.close()]);
  });

  it('serves the allowed image and blocks every private sub-request (interception alone)', async () => {
    const page = await browser!.newPage();
    const intercepted = await guard.interceptPage(page);
    await page.goto(`http://127.0.0.1:${A}/page`, { waitUntil: 'load' });
    await page.waitForFunction('window.done === true', { timeout: 10_000 });
    expect(await page.$eval('#ok', (img) => (img as HTMLImageElement).naturalWidth)).toBe(1);
    expect(await page.evaluate('window.results')).toEqual(Array(5).fill('blocked'));
    expect(attackerSeen).toContain('GET /img.png');
    expect(intercepted.stats.served).toBeGreaterThanOrEqual(3); // page, image, /to-victim hop
    expect(intercepted.stats.refused).toBeGreaterThanOrEqual(10);
    intercepted.close();
    await page.close();
  });

  it('with the lockdown flags, WebSocket and WebRTC reach nothing either', async () => {
    const page = await locked!.newPage();
    const intercepted = await guard.interceptPage(page);
    await page.goto(`http://127.0.0.1:${A}/page-sockets`, { waitUntil: 'load' });
    await page.waitForFunction('window.done === true', { timeout: 10_000 });
    expect(await page.$eval('#ok', (img) => (img as HTMLImageElement).naturalWidth)).toBe(1);
    expect(await page.evaluate('window.results')).toEqual(Array(5).fill('blocked'));
    intercepted.close();
    await page.close();
  });

  it('caps the sub-requests and the bytes of a page', async () => {
    const page = await locked!.newPage();
    const intercepted = await guard.interceptPage(page, { maxRequests: 5 });
    const images = Array.from(
      { length: 20 },
      (_, i) => `<img src="http://127.0.0.1:${A}/img.png?${i}">`,
    ).join('');
    await page.setContent(`<!doctype html>${images}`, { waitUntil: 'load' });
    expect(intercepted.stats.requests).toBe(5);
    expect(intercepted.stats.refused).toBeGreaterThanOrEqual(15);
    await page.close();

    const small = await locked!.newPage();
    const byBytes = await guard.interceptPage(small, { maxTotalBytes: 200 });
    await small.setContent(`<!doctype html>${images}`, { waitUntil: 'load' });
    expect(byBytes.stats.served).toBe(2); // 2 × 70 bytes fit in 200
    expect(byBytes.stats.bytes).toBeLessThanOrEqual(200);
    expect(byBytes.stats.refused).toBeGreaterThan(0);
    await small.close();
  });
});

describe('the victim', () => {
  it('received nothing: no connection, request, upgrade or datagram', async () => {
    // The browsers are closed. This test's own probes go last: each of the victim's sockets
    // takes what arrives in order, so once it has counted a probe, it has counted anything that
    // reached it before.
    const probes = ['udp datagram', 'v4 connection', 'v6 connection'];
    const connectAndClose = (host: string) =>
      new Promise<void>((done, fail) => {
        const socket = connect({ host, port: P }, () => socket.end(done));
        socket.once('error', fail);
      });
    const probe = createSocket('udp4');
    await Promise.all([
      connectAndClose('127.0.0.1'),
      connectAndClose('::1'),
      new Promise((sent) => probe.send('probe', P, '127.0.0.1', sent)),
    ]);
    probe.close();
    await expect
      .poll(() => probes.every((p) => victimSeen.includes(p)), { timeout: 10_000 })
      .toBe(true);
    expect([...victimSeen].sort()).toEqual(probes);
  });
});
