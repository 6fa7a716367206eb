/**
 * Login throttling (issue: accounts §2): after 10 failures in 15 minutes for an account or an
 * IP, further attempts answer 429 until the window ends. The same counters rate-limit other
 * calls that could be abused (e-mail checks, verification mails; docs/security.md). Counters
 * live in DynamoDB with a TTL, so every Lambda container sees the same count.
 */
import { db } from '#lib/db/index.ts';

export const MAX_FAILURES = 10;
export const WINDOW_MS = 15 * 60 * 1000;

/**
 * True when the key has used up its allowance in the current window.
 * @param max how many counted events the window allows (login failures: `MAX_FAILURES`).
 */
export async function isThrottled(
  key: string,
  now = Date.now(),
  max = MAX_FAILURES,
): Promise<boolean> {
  const item = (await db().Throttle.get({ key }).go()).data;
  return item !== null && now - item.windowStart < WINDOW_MS && item.count >= max;
}

/**
 * Counts one event (a failure, or a use of a rate-limited call) for the key, starting a new
 * window when the last one ended.
 */
export async function recordFailure(key: string, now = Date.now()): Promise<void> {
  const item = (await db().Throttle.get({ key }).go()).data;
  if (item && now - item.windowStart < WINDOW_MS) {
    await db().Throttle.patch({ key }).add({ count: 1 }).go();
    return;
  }
  await db()
    .Throttle.put({ key, count: 1, windowStart: now, ttl: Math.ceil((now + WINDOW_MS) / 1000) })
    .go();
}

/** Clears an account's failures after a good login. */
export async function clearFailures(key: string): Promise<void> {
  await db().Throttle.delete({ key }).go();
}
