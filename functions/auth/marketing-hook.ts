/**
 * The marketing hook (docs/accounts.md "Marketing hook"): after a registration, one POST of the
 * new account (name, team, e-mail, plan id, affiliate cookies) with the tracked trial value and
 * predicted lifetime value to `MARKETING_HOOK_URL`, only when the user consented. Off when the
 * URL is unset. Through the SSRF guard, timed and capped; it never fails or holds up
 * registration longer than its budget, and logs only the host and the outcome.
 */
import { config } from '#lib/config.ts';
import { logger } from '#lib/logger.ts';
import { configuredUrlGuard, UrlRefused } from '#lib/ssrf.ts';

/** The whole POST's budget, ms (DNS, connect, answer): registration waits at most this. */
const MARKETING_HOOK_TIMEOUT_MS = 2000;
/** The answer read at most, bytes (it is not used). */
const ANSWER_MAX_BYTES = 4096;
/** Affiliate cookies sent at most, and each value's length at most, characters. */
const MAX_COOKIES = 10;
const MAX_COOKIE_VALUE = 200;
/** Cookie name prefixes that are affiliate or campaign tracking (docs/accounts.md "Marketing hook"). */
const AFFILIATE_PREFIXES = ['affiliate', 'aff_', 'ref', 'utm_', 'fpr', 'partner'];

/** What the hook posts, as JSON. */
interface MarketingPayload {
  name: string;
  team: string;
  email: string;
  plan_id: string;
  /** Affiliate and campaign cookies of the registration request, by name. */
  affiliate: Record<string, string>;
  /** Decimal strings, e.g. `47.00` and `564.00`, in `currency` (ISO 4217). */
  trial_value: string;
  lifetime_value: string;
  currency: string;
}

/**
 * The affiliate cookies among a request's cookies: names starting with one of the prefixes
 * (case-insensitive), at most {@link MAX_COOKIES}, each value cut to {@link MAX_COOKIE_VALUE}.
 */
function affiliateCookies(cookies: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(cookies)) {
    if (Object.keys(out).length >= MAX_COOKIES) break;
    const lower = name.toLowerCase();
    if (AFFILIATE_PREFIXES.some((p) => lower.startsWith(p)))
      out[name] = value.slice(0, MAX_COOKIE_VALUE);
  }
  return out;
}

/** The host of a URL for the log (never its path or query, which may hold a key). */
const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return 'invalid';
  }
};

/**
 * Posts the account to the marketing hook when it is configured and the user consented;
 * otherwise does nothing. Never throws: a refusal, a timeout or an error answer is logged
 * (host and status only) and registration goes on.
 * @param consent the form's `marketing_consent`.
 * @param account the new account and its request's cookies (`readCookies`).
 * @returns whether a POST was answered with a 2xx status (tests).
 */
export async function postMarketingHook(
  consent: boolean,
  account: {
    name: string;
    team: string;
    email: string;
    planId: string;
    cookies: Record<string, string>;
  },
): Promise<boolean> {
  const c = config();
  const url = c.MARKETING_HOOK_URL;
  if (!url || !consent) return false;
  const payload: MarketingPayload = {
    name: account.name,
    team: account.team,
    email: account.email,
    plan_id: account.planId,
    affiliate: affiliateCookies(account.cookies),
    trial_value: c.MARKETING_TRIAL_VALUE,
    lifetime_value: c.MARKETING_LIFETIME_VALUE,
    currency: c.MARKETING_CURRENCY,
  };
  try {
    const answer = await configuredUrlGuard().fetch(url, {
      method: 'POST',
      body: JSON.stringify(payload),
      redirect: 'manual',
      timeoutMs: MARKETING_HOOK_TIMEOUT_MS,
      maxBytes: ANSWER_MAX_BYTES,
      headers: { 'content-type': 'application/json', 'user-agent': 'PicSnippets-Marketing/1.0' },
    });
    const ok = answer.status >= 200 && answer.status < 300;
    if (!ok)
      logger.warn('marketing hook answered an error', {
        host: hostOf(url),
        status: answer.status,
      });
    return ok;
  } catch (error) {
    logger.warn('marketing hook failed', {
      host: hostOf(url),
      reason: error instanceof UrlRefused ? error.reason : 'error',
    });
    return false;
  }
}
