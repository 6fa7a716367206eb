/**
 * Sessions and CSRF (docs/security.md "Sessions and tokens"; docs/adr/0009-sessions-and-csrf.md
 * "Sessions and CSRF").
 *
 * - The session is an opaque 256-bit id in an `HttpOnly; SameSite=Lax` cookie, `Secure` except
 *   on plain-http localhost. In AWS both cookies carry the `__Host-` prefix (`cookieNames`):
 *   browsers then accept them only with `Secure`, `Path=/` and no `Domain`, so a sibling
 *   subdomain or a plain-http page cannot set or overwrite them (docs/security.md "Cookies").
 *   DynamoDB keeps only its SHA-256, with an idle timeout (2 h) and an absolute one (7 days). Login
 *   always starts a new session (rotation).
 * - CSRF: any GET sets a readable `XSRF-TOKEN` cookie; a state-changing call must echo it in
 *   `X-XSRF-TOKEN` (or `X-CSRF-TOKEN`) and send `X-Requested-With: XMLHttpRequest`, else 419
 *   (the double-submit cookie pattern plus a custom header, with SameSite=Lax).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { config } from './config.ts';
import { db, isConditionFailure } from './db/index.ts';
import { csrfMismatch } from './errors.ts';
import type { ApiEvent } from './http.ts';

/** The session cookie's name locally; in AWS `__Host-` is prefixed (`cookieNames`). */
export const SESSION_COOKIE = 'picsnippets_session';
/** The readable CSRF cookie's name locally; in AWS `__Host-` is prefixed (`cookieNames`). */
export const XSRF_COOKIE = 'XSRF-TOKEN';
/** The prefix that makes browsers require `Secure`, `Path=/` and no `Domain` (RFC 6265bis §4.1.3.2). */
export const HOST_PREFIX = '__Host-';

type Stage = ReturnType<typeof config>['STAGE'];

/**
 * The cookie names of a stage: `__Host-picsnippets_session` and `__Host-XSRF-TOKEN` in AWS
 * (always https), the plain names elsewhere (the local stack runs on http://localhost, where
 * `Secure` cookies, and so `__Host-` ones, are not kept by every browser).
 * @param stage default: config().STAGE
 */
export function cookieNames(stage: Stage = config().STAGE): { session: string; xsrf: string } {
  return stage === 'aws'
    ? { session: HOST_PREFIX + SESSION_COOKIE, xsrf: HOST_PREFIX + XSRF_COOKIE }
    : { session: SESSION_COOKIE, xsrf: XSRF_COOKIE };
}
/** A session unused this long ends, ms. */
export const IDLE_TIMEOUT_MS = 2 * 60 * 60 * 1000;
/** A session ends this long after login whatever its use, ms. */
export const ABSOLUTE_TIMEOUT_MS = 7 * 24 * 60 * 60 * 1000;
/** lastSeenAt is written at most this often, ms (no write per request). */
const TOUCH_EVERY_MS = 60 * 1000;

const hash = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * Cookies of a v2 event by name (API Gateway puts them in `event.cookies`). In AWS the
 * product's own two cookies count only with the `__Host-` prefix and are answered under their
 * plain names (`SESSION_COOKIE`, `XSRF_COOKIE`): a plain `XSRF-TOKEN` or `picsnippets_session`
 * there (which a sibling subdomain could have set) is ignored.
 * @param stage default: config().STAGE
 */
export function readCookies(
  event: Pick<ApiEvent, 'cookies' | 'headers'>,
  stage: Stage = config().STAGE,
): Record<string, string> {
  const out: Record<string, string> = {};
  const raw = [
    ...(event.cookies ?? []),
    ...(event.headers?.cookie ? event.headers.cookie.split(';') : []),
  ];
  for (const part of raw) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    try {
      out[name] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      out[name] = part.slice(eq + 1).trim();
    }
  }
  if (stage !== 'aws') return out;
  for (const name of [SESSION_COOKIE, XSRF_COOKIE]) {
    const hosted = out[HOST_PREFIX + name];
    if (hosted === undefined) delete out[name];
    else out[name] = hosted;
  }
  return out;
}

/**
 * `Secure` is dropped only where the product itself runs on plain-http localhost, never in
 * AWS (`__Host-` needs it).
 */
function secureFlag(stage: Stage): string {
  if (stage === 'aws') return '; Secure';
  return /^http:\/\/(localhost|127\.0\.0\.1)(:|\/|$)/.test(config().PUBLIC_URL) ? '' : '; Secure';
}

/**
 * The Set-Cookie value of a session, or of its removal (`token` empty): HttpOnly, SameSite=Lax,
 * Path=/, no Domain, 7 days (`ABSOLUTE_TIMEOUT_MS`).
 * @param stage default: config().STAGE (names and `Secure` follow it, `cookieNames`)
 */
export function sessionCookie(token: string, stage: Stage = config().STAGE): string {
  const life = token ? `; Max-Age=${Math.floor(ABSOLUTE_TIMEOUT_MS / 1000)}` : '; Max-Age=0';
  const name = cookieNames(stage).session;
  return `${name}=${token}; Path=/; HttpOnly; SameSite=Lax${life}${secureFlag(stage)}`;
}

/**
 * A new readable CSRF cookie (the SPA copies it into X-XSRF-TOKEN): 256-bit random,
 * SameSite=Lax, Path=/, no Domain, a browser-session cookie.
 * @param stage default: config().STAGE (names and `Secure` follow it, `cookieNames`)
 */
export function xsrfCookie(stage: Stage = config().STAGE): string {
  const value = randomBytes(32).toString('base64url');
  return `${cookieNames(stage).xsrf}=${value}; Path=/; SameSite=Lax${secureFlag(stage)}`;
}

/** Who started an impersonation session, and its audit record (docs/kiosk.md). */
export interface SessionImpersonation {
  impersonatorId: string;
  impersonationId: string;
}

/**
 * Starts a session for a user.
 * @param impersonation set when a platform admin starts the session as `userId`
 *   (functions/kiosk/impersonation.ts).
 * @returns the opaque token for the cookie (never stored as is).
 */
export async function createSession(
  userId: string,
  now = Date.now(),
  impersonation?: SessionImpersonation,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db()
    .Session.put({
      sessionHash: hash(token),
      userId,
      createdAt: now,
      lastSeenAt: now,
      ttl: Math.ceil((now + ABSOLUTE_TIMEOUT_MS) / 1000),
      ...impersonation,
    })
    .go();
  return token;
}

/**
 * The user id of a live session, or undefined when the token is unknown, idle too long or past
 * its absolute lifetime (such a session is deleted).
 */
export async function readSession(
  token: string | undefined,
  now = Date.now(),
): Promise<string | undefined> {
  return (await readSessionDetails(token, now))?.userId;
}

/**
 * A live session's user id and start (ms since the epoch), or undefined as for `readSession`.
 * The caller compares `createdAt` with the user's `sessionsValidFrom` (a password change or
 * reset ends older sessions; docs/security.md "Sessions and tokens"). `impersonation` is set on
 * a session an admin started as this user (docs/kiosk.md).
 */
export async function readSessionDetails(
  token: string | undefined,
  now = Date.now(),
): Promise<
  { userId: string; createdAt: number; impersonation?: SessionImpersonation } | undefined
> {
  if (!token || token.length > 100) return undefined;
  const sessionHash = hash(token);
  const session = (await db().Session.get({ sessionHash }).go()).data;
  if (!session) return undefined;
  if (now - session.lastSeenAt > IDLE_TIMEOUT_MS || now - session.createdAt > ABSOLUTE_TIMEOUT_MS) {
    await db().Session.delete({ sessionHash }).go();
    return undefined;
  }
  if (now - session.lastSeenAt > TOUCH_EVERY_MS) {
    await db().Session.patch({ sessionHash }).set({ lastSeenAt: now }).go();
  }
  const { impersonatorId, impersonationId } = session;
  return {
    userId: session.userId,
    createdAt: session.createdAt,
    ...(impersonatorId && impersonationId
      ? { impersonation: { impersonatorId, impersonationId } }
      : {}),
  };
}

/**
 * Ends a session (logout, or the rotation of a sign-in). An impersonation session's audit
 * record gets its end time (docs/kiosk.md), unless it already has one.
 */
export async function destroySession(token: string | undefined): Promise<void> {
  if (!token) return;
  const sessionHash = hash(token);
  const deleted = await db().Session.delete({ sessionHash }).go({ response: 'all_old' });
  const impersonationId = deleted.data?.impersonationId;
  if (impersonationId) await endImpersonation(impersonationId);
}

/**
 * Sets the end time of an impersonation's audit record once: a second call (or a record that
 * is gone) changes nothing.
 */
export async function endImpersonation(impersonationId: string, at = new Date()): Promise<void> {
  try {
    await db()
      .Impersonation.patch({ impersonationId })
      .set({ endedAt: at.toISOString() })
      .where(({ endedAt }, { notExists }) => notExists(endedAt))
      .go();
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The API token of an `Authorization: Bearer <token>` header: exactly one token after the
 * scheme. Undefined without the header or when it is anything else (`Bearer a b`, `Basic …`):
 * such a call is neither a token call nor, since it sent the header, a session call
 * (functions/lib/auth.ts refuses it). Tests: test/integration/api-tokens.test.ts.
 */
export function bearerOf(
  headers: Readonly<Record<string, string | undefined>>,
): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1];
}

/**
 * Checks CSRF on a state-changing call: the XHR header, and a token header equal to the
 * XSRF-TOKEN cookie (constant-time). Calls with a Bearer token carry no ambient credentials and
 * skip it.
 * @throws AppError 419 'CSRF token mismatch.'
 */
export function checkCsrf(event: ApiEvent): void {
  const method = event.requestContext?.http?.method ?? 'GET';
  if (!STATE_CHANGING.has(method)) return;
  const headers = event.headers ?? {};
  // Only a well-formed token call skips it (a malformed one is refused in auth.ts).
  if (bearerOf(headers) !== undefined) return;
  const cookie = readCookies(event)[XSRF_COOKIE];
  const sent = headers['x-xsrf-token'] ?? headers['x-csrf-token'];
  const xhr = (headers['x-requested-with'] ?? '').toLowerCase() === 'xmlhttprequest';
  if (!xhr || !cookie || !sent) throw csrfMismatch();
  const a = Buffer.from(cookie);
  const b = Buffer.from(sent);
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw csrfMismatch();
}
