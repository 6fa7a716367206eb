/**
 * The SSRF guard (docs/security.md "SSRF guard"): the one module through which the
 * server fetches or opens any URL a user can influence (hosted-image and gravatar stickers,
 * web-page screenshots, and every sub-request of a page it opens in Chromium).
 *
 * Rules, in the order they are checked:
 * 1. The URL parses (WHATWG URL, so `HTTP://`, `http://0x7f.1/`, `http://2130706433/` and
 *    `http://0177.0.0.1/` are normalised before any check) and is at most 8 KiB long.
 * 2. Scheme http or https only (`file:`, `ftp:`, `gopher:`, `data:`, `javascript:`, `ws:`…
 *    refused).
 * 3. No credentials (`user:pass@`) in the URL.
 * 4. Port 80 or 443 only (explicit or default) in production.
 * 5. The host is resolved once (`dns.lookup`, every address); if ANY address is blocked
 *    (`isBlockedAddress`) the URL is refused, and an IP-literal host is checked as it is.
 * 6. The connection goes to the checked address only: the request's `lookup` returns the pinned
 *    address, so nothing resolves the name a second time (no DNS rebinding); TLS SNI, certificate
 *    check and `Host` keep the original hostname.
 * 7. Redirects are followed by hand, each `Location` (resolved against the current URL) checked
 *    afresh by rules 1–6; at most `maxRedirects`; never from https to http. A team's secret
 *    headers (`secretHeaders`) go to the first URL's origin only, never to a redirect's other one.
 * 8. One time budget for the whole chain (DNS, connect, redirects, body) and a byte cap on the
 *    (decoded) body, streamed and cut as soon as it is passed; `Content-Length` above the cap is
 *    refused before reading.
 *
 * Logs carry the host and the refusal reason only, never the full URL: its path and query can
 * hold secrets (signed links, tokens, e-mail addresses).
 */
import ipaddr from 'ipaddr.js';
import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage, type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { pipeline, type Readable, type Transform } from 'node:stream';
import zlib from 'node:zlib';
import type { HTTPRequest, Page } from 'puppeteer-core';
import { config } from '#lib/config.ts';
import { logger } from '#lib/logger.ts';

/** Why a URL was refused; stable codes for logs and tests. */
export type RefusalReason =
  /** Not a parseable absolute URL, or longer than 8 KiB. */
  | 'invalid'
  /** Scheme other than http or https. */
  | 'scheme'
  /** Port not allowed (production: 80 and 443 only). */
  | 'port'
  /** `user:pass@` in the URL. */
  | 'credentials'
  /** The host is, or resolves to, a blocked address (`isBlockedAddress`). */
  | 'address'
  /** The host does not resolve (or not within the DNS timeout). */
  | 'dns'
  /** More redirects than allowed, or a redirect without a usable `Location`. */
  | 'redirect'
  /** Body (or `Content-Length`, or a page's total) above the byte cap. */
  | 'size'
  /** The time budget ran out. */
  | 'timeout'
  /** Content type outside `allowedContentTypes`. */
  | 'type'
  /** Method other than GET/HEAD, or a page past its sub-request cap. */
  | 'limit'
  /** The connection or the HTTP exchange failed (refused, reset, TLS, malformed response). */
  | 'network';

/**
 * A URL the guard will not fetch. `host` is the URL's host (never the path or query), absent
 * when the URL did not parse.
 */
export class UrlRefused extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
    readonly host?: string,
  ) {
    super(message);
    this.name = 'UrlRefused';
  }
}

/** Resolves a hostname to every address it has (shape of `dns.lookup` with `all: true`). */
export type LookupFn = (hostname: string) => Promise<{ address: string; family: number }[]>;

/** Policy of a guard. Production uses the defaults; tests may widen `isBlocked`/`allowedPorts`. */
export interface UrlGuardOptions {
  /** Name resolution; default `dns.lookup(host, { all: true })`. */
  lookup?: LookupFn;
  /** Whether a resolved address may not be contacted on a port; default `isBlockedAddress(ip)`. */
  isBlocked?: (ip: string, port: number) => boolean;
  /** Ports that may be contacted; default `[80, 443]`. */
  allowedPorts?: number[];
  /** Longest wait for DNS, ms; default 2000 (a refusal with reason `dns`, never a hang). */
  dnsTimeoutMs?: number;
  /** `User-Agent` sent when the caller gives none. */
  userAgent?: string;
}

/** A URL that passed the checks, with the one address the connection will go to. */
export interface CheckedUrl {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** Options of `guard.fetch`. */
export interface GuardFetchOptions {
  /** Budget for the whole chain (DNS, connects, redirects, body), ms; default 5000. */
  timeoutMs?: number;
  /** Largest (decoded) body, bytes; default 5 MiB. */
  maxBytes?: number;
  /** Redirects followed at most; default 3. Ignored with `redirect: 'manual'`. */
  maxRedirects?: number;
  /** `Accept` request header. */
  accept?: string;
  /** Media types allowed in the final answer (tested against e.g. `image/png`, lower case). */
  allowedContentTypes?: RegExp;
  /**
   * GET (default) or HEAD; POST only with a `body` and `redirect: 'manual'` (a webhook
   * delivery: a body never follows a redirect); anything else is refused with reason `limit`.
   */
  method?: string;
  /** The request body of a POST (its `content-length` is set; give `content-type` in headers). */
  body?: string;
  /** Extra request headers (`host`, `cookie`, `authorization` and hop-by-hop ones are ignored). */
  headers?: Record<string, string>;
  /**
   * A team's secret headers (a web API's `Authorization` or key header; docs/data-sources.md
   * "Web APIs"): sent to the first URL's origin only. A redirect to another origin (scheme, host
   * or port) drops them; `host`, `cookie` and hop-by-hop names are ignored as in `headers`, but
   * `authorization` is sent. Tests: test/unit/ssrf-redirects.test.ts.
   */
  secretHeaders?: Record<string, string>;
  /**
   * `follow` (default): follow redirects, each one checked. `manual`: return the 3xx answer
   * itself, its `location` made absolute and NOT checked (the caller must check it, as the
   * intercepted page does when Chromium requests it).
   */
  redirect?: 'follow' | 'manual';
  /** Aborts the fetch (reason `timeout`). */
  signal?: AbortSignal;
}

/** What `guard.fetch` returns: the final answer of the chain. */
export interface GuardFetchResult {
  status: number;
  /** Response headers, lower-case names; `set-cookie` and hop-by-hop headers dropped. */
  headers: Record<string, string>;
  /** The decoded body (gzip/deflate/br undone), at most `maxBytes`. */
  body: Buffer;
  /** The URL that answered (after redirects). */
  url: string;
  /** Media type of the answer, lower case without parameters; '' when absent. */
  contentType: string;
}

/** Options of `guard.interceptPage`. */
export interface InterceptPageOptions {
  /** Sub-requests served at most per page (the document included); default 100. */
  maxRequests?: number;
  /** Bytes served at most per page, all requests together; default 20 MiB. */
  maxTotalBytes?: number;
  /** Budget per sub-request, ms; default 5000. */
  timeoutMs?: number;
  /** Largest single response, bytes; default 5 MiB. */
  maxBytes?: number;
}

/** A page under the guard: counters, and `close()` to refuse everything from now on. */
export interface PageInterception {
  readonly stats: { requests: number; served: number; refused: number; bytes: number };
  /** Aborts the fetches in flight; every later request of the page is refused. */
  close(): void;
}

/** The guard's operations (see `createUrlGuard`). */
export interface UrlGuard {
  /**
   * Checks a URL against rules 1–5 without fetching it, and picks the address to connect to.
   * @returns the parsed URL and the pinned address (the first resolved; all were checked).
   * @throws UrlRefused with reason invalid, scheme, credentials, port, dns, address or timeout.
   */
  check(url: string, signal?: AbortSignal): Promise<CheckedUrl>;
  /**
   * Fetches a URL under every rule (1–8): connects to the checked address only, follows
   * redirects by hand with a fresh check of each, one time budget (ms) for the whole chain,
   * body streamed and cut past `maxBytes` (bytes).
   * @returns the final answer; non-2xx statuses are returned, not thrown.
   * @throws UrlRefused (any reason, `network` for failed connections), never another error.
   */
  fetch(url: string, options?: GuardFetchOptions): Promise<GuardFetchResult>;
  /**
   * Puts a puppeteer page under the guard: request interception on, service workers bypassed,
   * and EVERY request of the page (document, sub-resources, fetch/XHR, frames) served by
   * `fetch` and handed to Chromium with `request.respond`. Why: Chromium then never resolves a
   * name or connects anywhere itself, so the address we checked is the one contacted (DNS
   * pinning; a rebinding name cannot answer Chromium differently). `data:` and `blob:` URLs
   * continue (no network); methods other than GET/HEAD, refusals and requests past the caps
   * (`maxRequests` per page, `maxTotalBytes` per page) are aborted with `blockedbyclient`.
   * Call it before the page's first navigation or `setContent`.
   */
  interceptPage(page: Page, options?: InterceptPageOptions): Promise<PageInterception>;
}

const MAX_URL_LENGTH = 8 * 1024;
const DEFAULT_PORTS = [80, 443];
const DEFAULT_TIMEOUT_MS = 5000;
const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const DEFAULT_MAX_REDIRECTS = 3;
const DEFAULT_DNS_TIMEOUT_MS = 2000;
const DEFAULT_PAGE_MAX_REQUESTS = 100;
const DEFAULT_PAGE_MAX_TOTAL_BYTES = 20 * 1024 * 1024;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Response headers never passed on: hop-by-hop, cookies, and the encoding we undo. */
const DROPPED_RESPONSE_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-encoding',
  'content-length',
  'set-cookie',
  'proxy-authenticate',
  'trailer',
  'upgrade',
]);
/** Request headers a caller may not set. */
const DROPPED_REQUEST_HEADERS = new Set([
  'host',
  'cookie',
  'authorization',
  'proxy-authorization',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'upgrade',
  'te',
  'accept-encoding',
]);

/** Content encodings undone before the byte cap is applied. */
const DECODERS: Record<string, (() => Transform) | undefined> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/**
 * Chromium flags that take the network away from a page, to launch any browser that opens
 * user-given pages with (append them to `chromiumArgs()`). Request interception does not see
 * WebSocket handshakes nor WebRTC (STUN/TURN over UDP and TCP): checked in
 * test/integration/ssrf.test.ts, a page under `interceptPage` alone reaches a loopback port
 * with `new WebSocket('ws://127.0.0.1:…')` and with a TURN/STUN server URL. With these flags
 * nothing Chromium would do by itself gets out, while everything `interceptPage` serves works:
 * - `--host-resolver-rules=MAP * ~NOTFOUND`: Chromium's resolver answers nothing (IP literals
 *   included), so Chromium can connect nowhere on its own;
 * - `--proxy-server=http://proxy.invalid:9` with `--proxy-bypass-list=<-loopback>`: any
 *   connection it still tries goes to a proxy that does not exist, loopback included;
 * - `--force-webrtc-ip-handling-policy=disable_non_proxied_udp`: no direct WebRTC UDP.
 */
export const CHROMIUM_LOCKDOWN_ARGS: readonly string[] = [
  '--host-resolver-rules=MAP * ~NOTFOUND',
  '--proxy-server=http://proxy.invalid:9',
  '--proxy-bypass-list=<-loopback>',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/** IANA's global unicast block; every other IPv6 block is special-purpose or unallocated. */
const IPV6_GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * Whether an address must never be contacted: true for everything that is not plain public
 * unicast, and for anything that is not a valid IP address (fail closed).
 *
 * IPv4 (ipaddr.js `range()` !== 'unicast', i.e. RFC 6890 special-purpose blocks): 0/8,
 * 10/8, 100.64/10 (CGNAT), 127/8, 169.254/16 (link-local, incl. 169.254.169.254 metadata),
 * 172.16/12, 192.0.0/24, 192.0.2/24, 192.88.99/24, 192.168/16, 198.18/15, 198.51.100/24,
 * 203.0.113/24, 224/4, 240/4, 255.255.255.255, plus the AS112 and AMT anycast blocks.
 *
 * IPv6: anything outside 2000::/3 (IANA global unicast), which covers ::/128, ::1, the
 * IPv4-mapped ::ffff:0:0/96 and IPv4-compatible ::/96 forms whatever they map, NAT64
 * 64:ff9b::/96 and 64:ff9b:1::/48, discard-only 100::/64, unique-local fc00::/7, link-local
 * fe80::/10, site-local fec0::/10, multicast ff00::/8 and SRv6 5f00::/16; inside 2000::/3 the
 * ipaddr.js special ranges: 2001::/23 (Teredo 2001::/32, benchmarking, ORCHID…), documentation
 * 2001:db8::/32 and 3fff::/20, 6to4 2002::/16, AS112. Zone ids (`%eth0`) are refused.
 *
 * @param ip an IPv4 dotted-quad or an IPv6 address, with or without brackets.
 */
export function isBlockedAddress(ip: string): boolean {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (bare.includes('%') || isIP(bare) === 0) return true;
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.parse(bare);
  } catch {
    return true;
  }
  if (address.kind() === 'ipv4') return address.range() !== 'unicast';
  const v6 = address as ipaddr.IPv6;
  if (!v6.match(IPV6_GLOBAL_UNICAST)) return true;
  return v6.range() !== 'unicast';
}

const bareHost = (hostname: string): string =>
  hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;

const portOf = (url: URL): number =>
  url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);

/** The media type of a Content-Type header: lower case, without parameters. */
const mediaType = (value: string | undefined): string =>
  (value ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/** Creates the refusal and logs it with the host only. */
function refuse(reason: RefusalReason, message: string, host?: string): UrlRefused {
  logger.info('url refused', { reason, host });
  return new UrlRefused(reason, message, host);
}

/** Resolves with `promise`, or rejects with `onAbort()` when the signal fires or `ms` pass. */
function within<T>(
  promise: Promise<T>,
  ms: number,
  signal: AbortSignal | undefined,
  onTimeout: () => Error,
  onAbort: () => Error,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(onAbort());
      return;
    }
    const timer = setTimeout(() => finish(() => reject(onTimeout())), ms);
    const abort = () => finish(() => reject(onAbort()));
    signal?.addEventListener('abort', abort, { once: true });
    function finish(settle: () => void) {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
      settle();
    }
    promise.then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(error as Error)),
    );
  });
}

/** A `lookup` that answers the pinned address whatever it is asked (both callback shapes). */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/**
 * Whether a redirect from `from` to `to` leaves https for another scheme: refused (rule 7), so
 * what was private on the wire (secret headers, the values in the path) never goes out in clear.
 * Tests: test/unit/ssrf-redirects.test.ts.
 */
export function isDowngrade(from: URL, to: URL): boolean {
  return from.protocol === 'https:' && to.protocol !== 'https:';
}

/** Response headers as a flat record, without the dropped ones. */
function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || DROPPED_RESPONSE_HEADERS.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * The body stream with the content encoding undone (the byte cap applies after decoding, so a
 * compression bomb stops at the cap). `pipeline` carries an abort of the response to the decoder.
 */
function decoded(response: IncomingMessage): Readable {
  const decoder = DECODERS[mediaType(response.headers['content-encoding'])];
  if (!decoder) return response;
  const stream = decoder();
  pipeline(response, stream, () => undefined);
  return stream;
}

/** Byte budget shared by the requests of one page. */
interface Budget {
  remaining: number;
}

/**
 * Creates a guard with a policy. Production code uses the module's `urlGuard`; tests pass a
 * policy that lets one loopback port count as public, never a weaker production default.
 *
 * Production policy: http/https only, ports 80 and 443 only, no credentials, the host must
 * resolve and every address must pass `isBlockedAddress`.
 */
export function createUrlGuard(options: UrlGuardOptions = {}): UrlGuard {
  const lookup: LookupFn =
    options.lookup ?? ((hostname) => dnsLookup(hostname, { all: true, order: 'verbatim' }));
  const isBlocked = options.isBlocked ?? ((ip: string) => isBlockedAddress(ip));
  const allowedPorts = new Set(options.allowedPorts ?? DEFAULT_PORTS);
  const dnsTimeoutMs = options.dnsTimeoutMs ?? DEFAULT_DNS_TIMEOUT_MS;
  const userAgent = options.userAgent ?? 'PicSnippets-Render/1.0';

  /**
   * Checks a URL against rules 1–5 and picks the address to connect to.
   * @returns the parsed URL and the pinned address (the first one resolved; all were checked).
   * @throws UrlRefused with reason invalid, scheme, credentials, port, dns, address or timeout.
   */
  async function check(raw: string, signal?: AbortSignal): Promise<CheckedUrl> {
    if (raw.length > MAX_URL_LENGTH) throw refuse('invalid', 'URL refused: longer than 8 KiB');
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw refuse('invalid', 'URL refused: not an absolute URL');
    }
    const host = url.hostname;
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw refuse('scheme', `URL refused: scheme ${url.protocol} is not http or https`, host);
    }
    if (url.username !== '' || url.password !== '') {
      throw refuse('credentials', `URL refused: credentials in the URL (host ${host})`, host);
    }
    const port = portOf(url);
    if (!allowedPorts.has(port)) {
      throw refuse('port', `URL refused: port ${port} is not allowed (host ${host})`, host);
    }
    const name = bareHost(host);
    let addresses: { address: string; family: number }[];
    if (isIP(name) !== 0) {
      addresses = [{ address: name, family: isIP(name) }];
    } else {
      try {
        addresses = await within(
          lookup(name),
          dnsTimeoutMs,
          signal,
          () => new Error('DNS timeout'),
          () => refuse('timeout', `URL refused: time budget spent resolving ${host}`, host),
        );
      } catch (error) {
        if (error instanceof UrlRefused) throw error;
        throw refuse('dns', `URL refused: host ${host} does not resolve`, host);
      }
    }
    if (addresses.length === 0) {
      throw refuse('dns', `URL refused: host ${host} has no address`, host);
    }
    for (const { address } of addresses) {
      if (isBlocked(address, port)) {
        throw refuse('address', `URL refused: host ${host} is or resolves to ${address}`, host);
      }
    }
    const first = addresses[0]!;
    return { url, address: first.address, family: isIP(first.address) === 6 ? 6 : 4 };
  }

  /** One HTTP exchange with the pinned address; resolves at the response head. */
  function send(
    target: CheckedUrl,
    method: string,
    headers: Record<string, string>,
    signal: AbortSignal,
    body?: string,
  ): Promise<IncomingMessage> {
    const { url, address, family } = target;
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const request = client.request(
        {
          protocol: url.protocol,
          hostname: bareHost(url.hostname),
          port: portOf(url),
          path: `${url.pathname}${url.search}`,
          method,
          // `Host` (and with it the TLS servername Node derives) stays the original host.
          headers: {
            ...headers,
            ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
            host: url.host,
          },
          // A fresh agent per request: no pooled socket to another address, no env proxy.
          agent: false,
          lookup: pinnedLookup(address, family),
          family,
          signal,
        },
        resolve,
      );
      request.on('error', reject);
      request.end(body);
    });
  }

  /** Reads a body within the cap (the request's and the page's), else refuses with 'size'. */
  async function readBody(
    response: IncomingMessage,
    maxBytes: number,
    budget: Budget | undefined,
    host: string,
  ): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let total = 0;
    const stream = decoded(response);
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (budget) budget.remaining -= chunk.length;
      if (total > maxBytes || (budget && budget.remaining < 0)) {
        response.destroy();
        stream.destroy();
        throw refuse('size', `URL refused: body from ${host} above ${maxBytes} bytes`, host);
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  }

  async function guardedFetch(
    raw: string,
    opts: GuardFetchOptions,
    budget?: Budget,
  ): Promise<GuardFetchResult> {
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
    const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    const method = (opts.method ?? 'GET').toUpperCase();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onCallerAbort = () => controller.abort();
    if (opts.signal?.aborted) controller.abort();
    opts.signal?.addEventListener('abort', onCallerAbort, { once: true });
    const signal = controller.signal;

    const headers: Record<string, string> = { 'user-agent': userAgent };
    for (const [name, value] of Object.entries(opts.headers ?? {})) {
      if (!DROPPED_REQUEST_HEADERS.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
    }
    if (opts.accept !== undefined) headers.accept = opts.accept;
    headers['accept-encoding'] = 'identity';
    const secret: Record<string, string> = {};
    for (const [name, value] of Object.entries(opts.secretHeaders ?? {})) {
      const lower = name.toLowerCase();
      if (lower === 'authorization' || !DROPPED_REQUEST_HEADERS.has(lower)) secret[lower] = value;
    }

    let host: string | undefined;
    try {
      const post = method === 'POST' && opts.body !== undefined && opts.redirect === 'manual';
      if (method !== 'GET' && method !== 'HEAD' && !post) {
        throw refuse('limit', `URL refused: method ${method} is not GET or HEAD`);
      }
      let target = await check(raw, signal);
      host = target.url.hostname;
      /** The origin the secret headers belong to: the first URL's. */
      const secretOrigin = target.url.origin;
      for (let redirects = 0; ; redirects++) {
        let response: IncomingMessage;
        const sent = target.url.origin === secretOrigin ? { ...headers, ...secret } : headers;
        try {
          response = await send(target, method, sent, signal, post ? opts.body : undefined);
        } catch (error) {
          if (signal.aborted) throw error;
          throw refuse('network', `URL refused: request to ${host} failed`, host);
        }
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        if (REDIRECTS.has(status) && location !== undefined) {
          response.destroy();
          let next: URL;
          try {
            next = new URL(location, target.url);
          } catch {
            throw refuse('redirect', `URL refused: bad redirect from ${host}`, host);
          }
          if (opts.redirect === 'manual') {
            const out = flatHeaders(response.headers);
            out.location = next.href;
            return {
              status,
              headers: out,
              body: Buffer.alloc(0),
              url: target.url.href,
              contentType: mediaType(response.headers['content-type']),
            };
          }
          if (redirects >= maxRedirects) {
            throw refuse('redirect', `URL refused: more than ${maxRedirects} redirects`, host);
          }
          if (isDowngrade(target.url, next)) {
            throw refuse('redirect', `URL refused: redirect from https to http by ${host}`, host);
          }
          target = await check(next.href, signal);
          host = target.url.hostname;
          continue;
        }
        const contentType = mediaType(response.headers['content-type']);
        if (opts.allowedContentTypes && !opts.allowedContentTypes.test(contentType)) {
          response.destroy();
          throw refuse('type', `URL refused: content type ${contentType || 'none'}`, host);
        }
        const declared = Number(response.headers['content-length'] ?? NaN);
        if (
          Number.isFinite(declared) &&
          (declared > maxBytes || (budget && declared > budget.remaining))
        ) {
          response.destroy();
          throw refuse('size', `URL refused: ${host} declares ${declared} bytes`, host);
        }
        if (method === 'HEAD') response.resume();
        const body =
          method === 'HEAD' ? Buffer.alloc(0) : await readBody(response, maxBytes, budget, host);
        return {
          status,
          headers: flatHeaders(response.headers),
          body,
          url: target.url.href,
          contentType,
        };
      }
    } catch (error) {
      if (error instanceof UrlRefused) throw error;
      if (signal.aborted) {
        throw refuse(
          'timeout',
          timedOut
            ? `URL refused: time budget of ${timeoutMs} ms spent (host ${host ?? '?'})`
            : `URL refused: fetch aborted (host ${host ?? '?'})`,
          host,
        );
      }
      throw refuse('network', `URL refused: request to ${host ?? '?'} failed`, host);
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  /**
   * Serves every request of a puppeteer page through `guardedFetch`, so that Chromium itself
   * never resolves a name nor opens a connection: this is the DNS pinning for pages, and what
   * defeats DNS rebinding (a name answering a public address to our check and a private one to
   * Chromium's own resolver a moment later). Chromium honours the answers we give it, nothing
   * else: redirects come back to it as 3xx answers and are checked again when it asks for them.
   */
  async function interceptPage(
    page: Page,
    opts: InterceptPageOptions = {},
  ): Promise<PageInterception> {
    const maxRequests = opts.maxRequests ?? DEFAULT_PAGE_MAX_REQUESTS;
    const budget: Budget = { remaining: opts.maxTotalBytes ?? DEFAULT_PAGE_MAX_TOTAL_BYTES };
    const closed = new AbortController();
    const stats = { requests: 0, served: 0, refused: 0, bytes: 0 };
    let capLogged = false;

    const abort = (request: HTTPRequest) => {
      stats.refused += 1;
      request.abort('blockedbyclient').catch(() => undefined);
    };

    const onRequest = (request: HTTPRequest) => {
      const url = request.url();
      // data: and blob: URLs are decoded in the renderer: no network request, nothing to pin.
      if (url.startsWith('data:') || url.startsWith('blob:')) {
        request.continue().catch(() => undefined);
        return;
      }
      if (closed.signal.aborted || stats.requests >= maxRequests) {
        if (!closed.signal.aborted && !capLogged) {
          capLogged = true;
          logger.info('page requests past the cap refused', { reason: 'limit', maxRequests });
        }
        abort(request);
        return;
      }
      stats.requests += 1;
      const forwarded: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers())) {
        if (name === 'accept' || name === 'accept-language' || name === 'user-agent') {
          forwarded[name] = value;
        }
      }
      guardedFetch(
        url,
        {
          method: request.method(),
          headers: forwarded,
          timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          maxBytes: opts.maxBytes ?? DEFAULT_MAX_BYTES,
          redirect: 'manual',
          signal: closed.signal,
        },
        budget,
      ).then(
        (answer) => {
          if (closed.signal.aborted) {
            abort(request);
            return;
          }
          stats.served += 1;
          stats.bytes += answer.body.length;
          request
            .respond({ status: answer.status, headers: answer.headers, body: answer.body })
            .catch(() => undefined);
        },
        () => abort(request),
      );
    };

    await page.setBypassServiceWorker(true);
    await page.setRequestInterception(true);
    page.on('request', onRequest);
    page.once('close', () => closed.abort());
    return {
      stats,
      close: () => closed.abort(),
    };
  }

  return { check, fetch: (url, options = {}) => guardedFetch(url, options), interceptPage };
}

/**
 * The production guard: http/https on ports 80 and 443, no credentials, every resolved
 * address public unicast (`isBlockedAddress`), 5 s and 5 MiB per fetch by default.
 */
export const urlGuard: UrlGuard = createUrlGuard();

let testAwareGuard: { ports: string; guard: UrlGuard } | undefined;

/**
 * The production guard; with STAGE=test, loopback ports listed in SSRF_TEST_PUBLIC_PORTS count
 * as public (fake servers in tests: merge-tag platforms, webhook receivers). Any other loopback
 * port stays refused, and no other stage reads the setting.
 */
export function configuredUrlGuard(): UrlGuard {
  const c = config();
  const ports =
    c.STAGE === 'test' && c.SSRF_TEST_PUBLIC_PORTS
      ? c.SSRF_TEST_PUBLIC_PORTS.split(',').map((p) => Number(p.trim()))
      : [];
  if (ports.length === 0) return urlGuard;
  const key = ports.join(',');
  if (testAwareGuard?.ports !== key) {
    testAwareGuard = {
      ports: key,
      guard: createUrlGuard({
        allowedPorts: [80, 443, ...ports],
        isBlocked: (ip, port) =>
          !(ports.includes(port) && ip === '127.0.0.1') && isBlockedAddress(ip),
      }),
    };
  }
  return testAwareGuard.guard;
}
