/**
 * One of the product's limits, which live together in functions/lib/limits/: attempts (this file,
 * counted in DynamoDB before the guarded work), requests per API token (token-requests.ts, a fixed
 * window in DynamoDB) and the render's per-address and per-design buckets (in memory per process,
 * functions/render/budgets.ts `TokenBuckets`, with the WAF in front in AWS).
 *
 * Throttling (docs/security.md "Login throttling"). Counters live in DynamoDB with a TTL, so
 * every Lambda container sees the same count, and every change to them is one atomic,
 * conditional update: parallel requests cannot all read "under the limit" and all pass.
 *
 * - Sign-in: each attempt takes one from the account's allowance (`MAX_FAILURES` in
 *   `WINDOW_MS`) and one from the client address's (`MAX_FAILURES_PER_IP`, much higher, so
 *   guesses at one account do not lock other people out from a shared address) *before* the
 *   password is checked; a good sign-in clears the account's count and gives the address's back.
 * - Other calls that could be abused (e-mail checks, verification and reset mails, the public
 *   calls that reach Stripe or send mail) use the same counters through `isThrottled` /
 *   `recordFailure` or `takeAttempt`.
 */
import { addressBucket } from '#lib/client-address.ts';
import { db, isConditionFailure } from '#lib/db/index.ts';
import { tooManyRequests } from '#lib/errors.ts';

/** Sign-in attempts per account in the window (docs/security.md "Login throttling"). */
export const MAX_FAILURES = 10;
/**
 * Sign-in attempts per client address in the window: an office or a mobile carrier shares one
 * address, and one person's twelve wrong passwords must not lock the others out; a spray over
 * many accounts still stops here (and, in AWS, at the WAF's `/login` rate rule first).
 */
export const MAX_FAILURES_PER_IP = 100;
/** The counting window, ms (15 minutes). */
export const WINDOW_MS = 15 * 60 * 1000;

/**
 * True when the key has used up its allowance in the current window.
 * @param max how many counted events the window allows (login failures: `MAX_FAILURES`).
 * @param windowMs the window's length, ms (default `WINDOW_MS`; the support form's is an hour).
 */
export async function isThrottled(
  key: string,
  now = Date.now(),
  max = MAX_FAILURES,
  windowMs = WINDOW_MS,
): Promise<boolean> {
  const item = (await db().Throttle.get({ key }).go({ consistent: true })).data;
  return item !== null && now - item.windowStart < windowMs && item.count >= max;
}

/**
 * Takes one event from the key's allowance, atomically: one conditional update adds 1 while the
 * window is running and the count is under `max`; when there is no running window, a
 * conditional put starts one at 1. Of N parallel callers at most `max` get `true`.
 * @param max the events the window allows
 * @param windowMs the window's length, ms (default `WINDOW_MS`)
 * @returns true when the event was counted (go ahead), false when the allowance is used up
 */
export async function takeAttempt(
  key: string,
  max: number,
  now = Date.now(),
  windowMs = WINDOW_MS,
): Promise<boolean> {
  const windowOpen = now - windowMs;
  for (let round = 0; round < 3; round++) {
    try {
      await db()
        .Throttle.update({ key })
        .add({ count: 1 })
        .where((a, op) => `${op.gt(a.windowStart, windowOpen)} AND ${op.lt(a.count, max)}`)
        .go({ response: 'none' });
      return true;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    // No running window, or the allowance is used up: only the first may start a new window.
    try {
      await db()
        .Throttle.put({ key, count: 1, windowStart: now, ttl: Math.ceil((now + windowMs) / 1000) })
        .where((a, op) => `${op.notExists(a.windowStart)} OR ${op.lte(a.windowStart, windowOpen)}`)
        .go({ response: 'none' });
      return true;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    // A running window exists: used up unless someone else just started it (then try again).
    if (await isThrottled(key, now, max, windowMs)) return false;
  }
  return false;
}

/** Gives back one event taken by `takeAttempt` (a sign-in that succeeded), never below 0. */
export async function refundAttempt(key: string): Promise<void> {
  try {
    await db()
      .Throttle.update({ key })
      .add({ count: -1 })
      .where((a, op) => op.gt(a.count, 0))
      .go({ response: 'none' });
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/**
 * Counts one event (a failure, or a use of a rate-limited call) for the key, starting a new
 * window when the last one ended. Atomic like `takeAttempt`, but never refuses.
 */
export async function recordFailure(key: string, now = Date.now()): Promise<void> {
  await takeAttempt(key, Number.MAX_SAFE_INTEGER, now);
}

/** Clears an account's failures after a good login. */
export async function clearFailures(key: string): Promise<void> {
  await db().Throttle.delete({ key }).go();
}

/** The message of a refused sign-in (docs/security.md "Login throttling"). */
export const TOO_MANY_LOGINS = 'Too many login attempts. Please try again in 15 minutes.';

/**
 * The per-account and per-address counters of sign-in; the address counted as
 * `addressBucket` counts it (an IPv6 address by its /64: docs/security.md "Login throttling";
 * test/unit/address-limits.test.ts).
 */
export const loginKeys = (email: string, ip: string) => ({
  account: `login#email#${email}`,
  address: `login#ip#${addressBucket(ip)}`,
});

/**
 * Takes one sign-in attempt from the address's and then the account's allowance, before any
 * password is checked.
 * @returns false when either is used up (the caller answers 429 `TOO_MANY_LOGINS`)
 */
export async function takeLoginAttempt(email: string, ip: string, now = Date.now()) {
  const keys = loginKeys(email, ip);
  if (!(await takeAttempt(keys.address, MAX_FAILURES_PER_IP, now))) return false;
  if (await takeAttempt(keys.account, MAX_FAILURES, now)) return true;
  // The account is locked: this attempt checks nothing, so the address keeps its allowance.
  await refundAttempt(keys.address);
  return false;
}

/** After a good sign-in: the account starts afresh and the address gets its attempt back. */
export async function loginSucceeded(email: string, ip: string): Promise<void> {
  const keys = loginKeys(email, ip);
  await Promise.all([clearFailures(keys.account), refundAttempt(keys.address)]);
}

/**
 * Calls anyone may make that reach Stripe or send mail, and how many one client address may
 * make per window (`WINDOW_MS`). Far above what a person registering needs (a few coupon
 * checks, a tax preview per country change, one registration, a reset mail or two); a script
 * looping on them stops here, and in AWS sooner at the WAF's rate rule. E-mail checks have
 * their own limit (`MAX_EMAIL_CHECKS` in handler.ts), reset mails one per address as well.
 */
export const PUBLIC_CALL_LIMITS = {
  /** `GET /coupon/{code}`: a Stripe promotion-code look-up. */
  coupon: 30,
  /** `POST /tax-rate`: a Stripe tax preview. */
  'tax-rate': 60,
  /** `POST /register` (mails a confirmation link; a paid plan creates a Stripe customer). */
  register: 20,
  /** `POST /password/email`: mails a reset link. */
  'password-email': 20,
} as const;

/** The answer of a public call past its limit. */
export const TOO_MANY_CALLS = 'Too many attempts. Please try again in 15 minutes.';

/**
 * Takes one use of a public call for a client address.
 * @param call which call (`PUBLIC_CALL_LIMITS`)
 * @param ip the client address (functions/lib/client-address.ts `clientAddress`)
 * @throws AppError 429 `TOO_MANY_CALLS` when the address has used up the call's allowance
 */
export async function limitPublicCall(
  call: keyof typeof PUBLIC_CALL_LIMITS,
  ip: string,
  now = Date.now(),
): Promise<void> {
  if (!(await takeAttempt(publicCallKey(call, ip), PUBLIC_CALL_LIMITS[call], now)))
    throw tooManyRequests(TOO_MANY_CALLS);
}

/**
 * The counter of a public call for a client address, the address counted as `addressBucket`
 * counts it (an IPv6 address by its /64, so fresh addresses from one block share one allowance;
 * test/unit/address-limits.test.ts).
 */
export const publicCallKey = (call: keyof typeof PUBLIC_CALL_LIMITS, ip: string): string =>
  `public#${call}#ip#${addressBucket(ip)}`;
