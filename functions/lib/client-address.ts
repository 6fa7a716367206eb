/**
 * The address of the person calling, for per-IP limits (docs/security.md "Login throttling").
 *
 * In AWS every API request comes through CloudFront: the API refuses any request without the
 * origin-verify secret (origin-verify.ts), so the `CloudFront-Viewer-Address` header that the
 * distribution forwards (origin request policy AllViewerExceptHostHeader) is set by CloudFront
 * itself, never by the caller. The TCP peer API Gateway reports there is a CloudFront edge,
 * shared by everyone near it, so keying limits on it would let one visitor lock out a city.
 * Locally (no CloudFront) the header is the caller's own claim and is ignored: the local
 * gateway's socket address is the caller.
 */
import { isIP } from 'node:net';
import { config } from './config.ts';

/** CloudFront's viewer address header, as the chain's header normaliser leaves it. */
export const VIEWER_ADDRESS_HEADER = 'cloudfront-viewer-address';

/** The part of the event the address is read from (an API Gateway v2 event). */
export interface AddressedEvent {
  headers?: Record<string, string | undefined> | undefined;
  requestContext?: { http?: { sourceIp?: string | undefined } | undefined } | undefined;
}

/**
 * Splits CloudFront's `ip:port` value (`198.51.100.7:46532`, `2001:db8::1:46532`): the port is
 * after the last colon.
 * @returns the IP, or undefined when the value has no `:port` or an empty address
 */
export function viewerIp(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const colon = value.lastIndexOf(':');
  if (colon <= 0) return undefined;
  const ip = value.slice(0, colon).trim();
  return ip === '' || ip.length > 64 ? undefined : ip.toLowerCase();
}

/**
 * The client's IP address: in AWS (`STAGE=aws`) CloudFront's viewer address, elsewhere the
 * socket peer (`requestContext.http.sourceIp`).
 * @param stage the deployment's stage (default: config().STAGE); tests pass one
 * @returns an IP string, or `unknown` when neither is present
 */
export function clientAddress(event: AddressedEvent, stage = config().STAGE): string {
  if (stage === 'aws') {
    const viewer = viewerIp(event.headers?.[VIEWER_ADDRESS_HEADER]);
    if (viewer) return viewer;
  }
  return event.requestContext?.http?.sourceIp ?? 'unknown';
}

/**
 * The unit a per-address limit counts (docs/polls.md "Abuse"): an IPv6 address's /64
 * (`2001:db8:1:2::/64`), since one home, phone or server is given a whole /64 and could take a
 * fresh address per request from it; an IPv4 address (also written IPv4-mapped, `::ffff:a.b.c.d`)
 * as it is; anything else (`unknown`) unchanged. Linear, no lookups.
 * @param ip an address as {@link clientAddress} gives it
 * @returns the key part (test/unit/client-address.test.ts)
 */
export function addressBucket(ip: string): string {
  const lower = ip.toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(lower);
  if (mapped) return mapped[1]!;
  if (isIP(lower) !== 6) return ip;
  const [head = '', tail = ''] = lower.split('::', 2);
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const missing = lower.includes('::') ? 8 - left.length - right.length : 0;
  const groups = [...left, ...Array<string>(Math.max(0, missing)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
