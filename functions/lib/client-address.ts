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
