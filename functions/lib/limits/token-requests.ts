/**
 * One of the product's limits in functions/lib/limits/ (attempts.ts beside it: sign-in and public
 * call attempts).
 *
 * Rate limits per API token (docs/developer-api.md "Rate limits";
 * docs/adr/0052-rate-limits-per-token.md "Rate limits per token";
 * test/integration/rate-limits.test.ts). Every request authenticated by a Bearer API token takes
 * one from the token's allowance in a fixed window of `TOKEN_RATE_WINDOW_S` seconds aligned to the
 * epoch; the count is one atomic DynamoDB ADD on a `Throttle` item per token and window (expired by
 * TTL), so every Lambda container sees the same count. Sessions (the SPA) are not counted here.
 *
 * A user's tokens together get {@link USER_TOKENS_FACTOR} times one token's allowance, counted
 * the same way on one item per user and window: making many tokens does not multiply it.
 *
 * Every answer to a token request carries the IETF draft's `RateLimit-Policy` and `RateLimit`
 * fields, one item per policy (`"token"` and `"user"`); past either allowance the answer is a
 * 429 with `Retry-After`.
 */
import { FREE_PLAN_ID } from '#shared/billing.ts';
import { config } from '../config.ts';
import { db } from '../db/index.ts';
import { AppError } from '../errors.ts';

/**
 * Requests per window (`TOKEN_RATE_WINDOW_S`, default 60 s) per token, by the plan of the token
 * owner's current team; a plan not listed (frozen, renamed) gets the free plan's. The
 * `TOKEN_RATE_LIMIT` setting replaces them all (the test stack's small limit).
 */
const TOKEN_RATE_LIMITS: Readonly<Record<string, number>> = {
  [FREE_PLAN_ID]: 60,
  'starter-monthly': 300,
  'starter-yearly': 300,
  'pro-monthly': 1200,
  'pro-yearly': 1200,
};

/** All of a user's tokens together, as a multiple of one token's allowance. */
export const USER_TOKENS_FACTOR = 2;

/** What one counted request left of the allowance. */
interface RateState {
  /** The policy's name in `RateLimit-Policy` and `RateLimit`. */
  policy: 'token' | 'user';
  /** Requests allowed in the window. */
  limit: number;
  /** Requests still allowed in the window (0 when used up). */
  remaining: number;
  /** Seconds until the window ends and the allowance is whole again (1 or more). */
  resetSeconds: number;
  /** The window's length, s. */
  windowSeconds: number;
  /** This request went past the allowance. */
  exceeded: boolean;
}

/** Plans of teams, read at most once a minute per process (bounded to `PLAN_CACHE_SIZE`). */
const planCache = new Map<string, { planId: string; at: number }>();
const PLAN_CACHE_MS = 60_000;
const PLAN_CACHE_SIZE = 1000;

/** The plan of a user's current team (free without one), cached per process for a minute. */
async function planOfUser(userId: string, now: number): Promise<string> {
  const cached = planCache.get(userId);
  if (cached && now - cached.at < PLAN_CACHE_MS) return cached.planId;
  const user = (await db().User.get({ userId }).go()).data;
  const teamId = user?.currentTeamId;
  const team = teamId ? (await db().Team.get({ teamId }).go()).data : null;
  const planId = team?.planId ?? FREE_PLAN_ID;
  if (planCache.size >= PLAN_CACHE_SIZE) planCache.clear();
  planCache.set(userId, { planId, at: now });
  return planId;
}

/**
 * The allowance of a token's requests per window.
 * @returns requests per window: `TOKEN_RATE_LIMIT` when set, else `TOKEN_RATE_LIMITS` by plan.
 */
async function tokenLimit(userId: string, now = Date.now()): Promise<number> {
  const fixed = config().TOKEN_RATE_LIMIT;
  if (fixed !== undefined) return fixed;
  const planId = await planOfUser(userId, now);
  return TOKEN_RATE_LIMITS[planId] ?? TOKEN_RATE_LIMITS[FREE_PLAN_ID]!;
}

/**
 * Counts one request: one atomic ADD on the policy's counter of the current window.
 * @param policy `token` (one token's count) or `user` (all of a user's tokens)
 * @param id the API token's id (not the secret), or the user's id
 * @param limit requests allowed per window
 * @param now ms since the epoch
 */
async function countRequest(
  policy: RateState['policy'],
  id: string,
  limit: number,
  now = Date.now(),
): Promise<RateState> {
  const windowSeconds = config().TOKEN_RATE_WINDOW_S;
  const windowMs = windowSeconds * 1000;
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const result = await db()
    .Throttle.update({ key: `ratelimit#${policy}#${id}#${windowStart}` })
    .add({ count: 1 })
    .set({ windowStart, ttl: Math.ceil((windowStart + 2 * windowMs) / 1000) })
    .go({ response: 'all_new' });
  const count = result.data.count ?? 1;
  return {
    policy,
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)),
    windowSeconds,
    exceeded: count > limit,
  };
}

/**
 * The draft's header fields for the states (docs/adr/0052-rate-limits-per-token.md "Rate limits per
 * token"): `RateLimit-Policy: "token";q=<limit>;w=<window s>, "user";q=…;w=…` and `RateLimit:
 * "token";r=<remaining>;t=<s>, "user";r=…;t=…`, plus `Retry-After: <s>` when the request went past
 * an allowance.
 */
function rateLimitHeaders(states: readonly RateState[]): Record<string, string> {
  const exceeded = states.filter((s) => s.exceeded);
  return {
    'ratelimit-policy': states
      .map((s) => `"${s.policy}";q=${s.limit};w=${s.windowSeconds}`)
      .join(', '),
    ratelimit: states.map((s) => `"${s.policy}";r=${s.remaining};t=${s.resetSeconds}`).join(', '),
    ...(exceeded.length > 0
      ? { 'retry-after': String(Math.max(...exceeded.map((s) => s.resetSeconds))) }
      : {}),
  };
}

/** The headers decided for a request, by its event object, until the answer is sent. */
const pending = new WeakMap<object, Record<string, string>>();

/** The 429's message. */
const RATE_LIMITED = 'Too many requests with this API token. Try again after Retry-After seconds.';

/**
 * Counts a token request and keeps its header fields for the answer ({@link rateLimitAnswer}
 * adds them to whatever the request answers, errors included).
 * @throws AppError 429 `too_many_requests` past the allowance.
 */
export async function limitTokenRequest(
  event: object,
  token: { tokenId: string; userId: string },
  now = Date.now(),
): Promise<void> {
  const limit = await tokenLimit(token.userId, now);
  const states = await Promise.all([
    countRequest('token', token.tokenId, limit, now),
    countRequest('user', token.userId, limit * USER_TOKENS_FACTOR, now),
  ]);
  pending.set(event, rateLimitHeaders(states));
  if (states.some((s) => s.exceeded)) throw new AppError(429, 'too_many_requests', RATE_LIMITED);
}

/**
 * The rate-limit header fields decided for this request's event, or undefined (not a token
 * request, or the token was refused before it was counted).
 */
export const rateLimitAnswer = (event: object): Record<string, string> | undefined =>
  pending.get(event);
