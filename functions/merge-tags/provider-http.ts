/**
 * The HTTP client of the live merge-tag adapters (docs/export.md): one JSON GET to a
 * platform's API with the team's credentials, under the SSRF rules (docs/adr/0004-render-slice.md
 * "Render slice", docs/security.md "Sessions and tokens").
 *
 * Why not `guard.fetch`: it drops `Authorization` on purpose (it fetches user-given URLs and
 * follows redirects, where a credential must never travel), and Klaviyo, Keap and ManyChat
 * take their keys only in that header. So this client asks the guard to check the URL and pin
 * the address (`guard.check`: scheme, port, credentials, every resolved address public, one
 * DNS answer used), then makes the one exchange itself, to that address only, and never
 * follows a redirect: a credential goes to the host it was meant for or nowhere.
 * Time budget for the whole exchange and a byte cap on the body, as the guard does.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { configuredUrlGuard, UrlRefused, type UrlGuard } from '#lib/ssrf.ts';

/** Why a live call failed; stable codes for the answer and the logs. */
export type ProviderCallFailure =
  /** The platform refused the credentials (401 or 403). */
  | 'unauthorized'
  /** The SSRF rules refused the URL, or the network failed, or the time ran out. */
  | 'unreachable'
  /** A redirect, another error status, a body too large, or not JSON. */
  | 'bad_answer';

export class ProviderCallError extends Error {
  constructor(
    readonly failure: ProviderCallFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderCallError';
  }
}

export interface ProviderGetOptions {
  /** Request headers, credentials included (`authorization` is allowed here). */
  headers: Record<string, string>;
  /**
   * A form to POST instead of the GET (`application/x-www-form-urlencoded`; OAuth token
   * exchanges, functions/merge-tags/keap-oauth.ts).
   */
  form?: Record<string, string>;
  /** Budget for the whole exchange (DNS, connect, body), ms; default 5000. */
  timeoutMs?: number;
  /** Largest body, bytes; default 1 MiB. */
  maxBytes?: number;
}

const DEFAULT_TIMEOUT_MS = 5000;
const DEFAULT_MAX_BYTES = 1024 * 1024;

/**
 * The production guard; with STAGE=test, loopback ports listed in SSRF_TEST_PUBLIC_PORTS count
 * as public (fake platform servers in tests): functions/lib/ssrf.ts `configuredUrlGuard`.
 */
export const providerGuard = (): UrlGuard => configuredUrlGuard();

/** A `lookup` that answers the checked address whatever it is asked. */
const pinned =
  (address: string, family: 4 | 6): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };

async function readJson(response: IncomingMessage, maxBytes: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      response.destroy();
      throw new ProviderCallError('bad_answer', `answer above ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new ProviderCallError('bad_answer', 'answer is not JSON');
  }
}

/**
 * GETs a platform API URL (or POSTs `options.form` to it) and parses the JSON answer.
 * @param url an http(s) URL; checked by the SSRF guard before any connection.
 * @returns the parsed JSON of a 2xx answer.
 * @throws ProviderCallError: `unauthorized` on 401/403, `unreachable` when the guard refuses
 *   the URL, the connection fails or the time budget runs out, `bad_answer` on a redirect,
 *   another status, an oversized or non-JSON body.
 */
export async function providerGetJson(
  guard: UrlGuard,
  url: string,
  options: ProviderGetOptions,
): Promise<unknown> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  let target;
  try {
    target = await guard.check(url, signal);
  } catch (error) {
    const reason = error instanceof UrlRefused ? error.reason : 'invalid';
    throw new ProviderCallError('unreachable', `URL refused (${reason})`);
  }
  const { url: checked, address, family } = target;
  const client = checked.protocol === 'https:' ? https : http;
  const form = options.form ? new URLSearchParams(options.form).toString() : undefined;
  try {
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const request = client.request(
        {
          protocol: checked.protocol,
          hostname: checked.hostname.replace(/^\[|\]$/g, ''),
          port: checked.port || (checked.protocol === 'https:' ? 443 : 80),
          path: `${checked.pathname}${checked.search}`,
          method: form === undefined ? 'GET' : 'POST',
          headers: {
            accept: 'application/json',
            'accept-encoding': 'identity',
            'user-agent': 'PicSnippets-MergeTags/1.0',
            ...(form === undefined
              ? {}
              : {
                  'content-type': 'application/x-www-form-urlencoded',
                  'content-length': String(Buffer.byteLength(form)),
                }),
            ...options.headers,
            host: checked.host,
          },
          agent: false,
          lookup: pinned(address, family),
          family,
          signal,
        },
        resolve,
      );
      request.on('error', reject);
      request.end(form);
    });
    const status = response.statusCode ?? 0;
    if (status === 401 || status === 403) {
      response.resume();
      throw new ProviderCallError('unauthorized', `credentials refused (${status})`, status);
    }
    if (status < 200 || status >= 300) {
      response.resume();
      throw new ProviderCallError('bad_answer', `status ${status}`, status);
    }
    return await readJson(response, options.maxBytes ?? DEFAULT_MAX_BYTES);
  } catch (error) {
    if (error instanceof ProviderCallError) throw error;
    throw new ProviderCallError(
      'unreachable',
      signal.aborted ? `no answer within ${timeoutMs} ms` : 'connection failed',
    );
  }
}
