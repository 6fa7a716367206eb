/**
 * Sessions and CSRF (DESIGN.md §6; issue: accounts §1).
 *
 * - The session is an opaque 256-bit id in an `HttpOnly; SameSite=Lax` cookie, `Secure` except
 *   on plain-http localhost. DynamoDB keeps only its SHA-256, with an idle timeout (2 h) and an
 *   absolute one (7 days). Login always starts a new session (rotation).
 * - CSRF: any GET sets a readable `XSRF-TOKEN` cookie; a state-changing call must echo it in
 *   `X-XSRF-TOKEN` (or `X-CSRF-TOKEN`) and send `X-Requested-With: XMLHttpRequest`, else 419
 *   (the double-submit cookie pattern plus a custom header, with SameSite=Lax).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { config } from './config.ts';
import { db } from './db/index.ts';
import { csrfMismatch } from './errors.ts';
import type { ApiEvent } from './http.ts';

export const SESSION_COOKIE = 'picsnippets_session';
export const XSRF_COOKIE = 'XSRF-TOKEN';
/** A session unused this long ends, ms. */
export const IDLE_TIMEOUT_MS = 2 * 60 * 60 * 1000;
/** A session ends this long after login whatever its use, ms. */
export const ABSOLUTE_TIMEOUT_MS = 7 * 24 * 60 * 60 * 1000;
/** lastSeenAt is written at most this often, ms (no write per request). */
const TOUCH_EVERY_MS = 60 * 1000;

const hash = (token: string) => createHash('sha256').update(token).digest('base64url');

/** Cookies of a v2 event by name (API Gateway puts them in `event.cookies`). */
export function readCookies(event: Pick<ApiEvent, 'cookies' | 'headers'>): Record<string, string> {
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
  return out;
}

/** `Secure` is dropped only where the product itself runs on plain-http localhost. */
function secureFlag(): string {
  return /^http:\/\/(localhost|127\.0\.0\.1)(:|\/|$)/.test(config().PUBLIC_URL) ? '' : '; Secure';
}

/** The Set-Cookie value of a session, or of its removal (`token` empty). */
export function sessionCookie(token: string): string {
  const life = token ? `; Max-Age=${Math.floor(ABSOLUTE_TIMEOUT_MS / 1000)}` : '; Max-Age=0';
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax${life}${secureFlag()}`;
}

/** A new readable CSRF cookie (the SPA copies it into X-XSRF-TOKEN). */
export function xsrfCookie(): string {
  return `${XSRF_COOKIE}=${randomBytes(32).toString('base64url')}; Path=/; SameSite=Lax${secureFlag()}`;
}

/**
 * Starts a session for a user.
 * @returns the opaque token for the cookie (never stored as is).
 */
export async function createSession(userId: string, now = Date.now()): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db()
    .Session.put({
      sessionHash: hash(token),
      userId,
      createdAt: now,
      lastSeenAt: now,
      ttl: Math.ceil((now + ABSOLUTE_TIMEOUT_MS) / 1000),
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
 * reset ends older sessions; docs/security.md "Sessions and tokens").
 */
export async function readSessionDetails(
  token: string | undefined,
  now = Date.now(),
): Promise<{ userId: string; createdAt: number } | undefined> {
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
  return { userId: session.userId, createdAt: session.createdAt };
}

/** Ends a session (logout). */
export async function destroySession(token: string | undefined): Promise<void> {
  if (token)
    await db()
      .Session.delete({ sessionHash: hash(token) })
      .go();
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

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
  if (/^Bearer\s/i.test(headers.authorization ?? '')) return;
  const cookie = readCookies(event)[XSRF_COOKIE];
  const sent = headers['x-xsrf-token'] ?? headers['x-csrf-token'];
  const xhr = (headers['x-requested-with'] ?? '').toLowerCase() === 'xmlhttprequest';
  if (!xhr || !cookie || !sent) throw csrfMismatch();
  const a = Buffer.from(cookie);
  const b = Buffer.from(sent);
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw csrfMismatch();
}
