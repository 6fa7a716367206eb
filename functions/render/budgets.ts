/**
 * The budgets stage of the render service (docs/security.md "Render limits", "Open-time
 * content"): token buckets in memory per client address, mail-proxy address, design and team,
 * one set for draws and one for open-time work (data lookups, first-open writes, weather), and
 * the team's monthly quota. Only draws spend the draw budgets: cache hits cost nothing.
 */
import { logger } from '#lib/logger.ts';
import type { RenderAllowance } from '#shared/billing.ts';
import { MAIL_PROXY_DRAWS_PER_SECOND } from '#shared/render-limits.ts';
import type { MailProxy } from './mail-proxies.ts';
import type { DesignRecord, RenderRequest, RenderServiceDeps } from './service-types.ts';

/**
 * Draw budgets, tokens per second with a burst (docs/security.md "Render limits"): per client
 * address, per mail-proxy address (much larger: one proxy fetches for many recipients), and per
 * design. Only draws count: cache hits cost nothing.
 */
export interface RateLimits {
  perIp: { ratePerSecond: number; burst: number };
  perProxyAddress: { ratePerSecond: number; burst: number };
  perDesign: { ratePerSecond: number; burst: number };
  /** How long a mail proxy's request may wait for its budget before the fallback, ms. */
  proxyWaitMs: number;
}

/** Who a draw is for: the client's address, the mail proxy it is, the edge's count. */
export interface DrawBudget {
  ip: string;
  /** A send list's pre-render: the monthly quota only (`RenderRequest.prerender`). */
  prerender?: boolean;
  proxy?: MailProxy;
  edgeLimited?: boolean;
  /** The edge counted this (proxy) address over a mail proxy's 5-minute budget. */
  edgeProxyLimited?: boolean;
  /**
   * The request's render of the month was counted (and the quota checked) with its open-time
   * work (`mayWorkAtOpen`): its draw is not counted again.
   */
  countedAtOpen?: boolean;
}

export const DEFAULT_LIMITS: RateLimits = {
  perIp: { ratePerSecond: 20, burst: 100 },
  perProxyAddress: { ratePerSecond: MAIL_PROXY_DRAWS_PER_SECOND, burst: 4000 },
  perDesign: { ratePerSecond: 200, burst: 1000 },
  proxyWaitMs: 3000,
};

/**
 * Token buckets in memory. Locally this is the only limit; in AWS a WAF rate rule on `/r/*`
 * limits before the CDN reaches Lambda (infra/constructs/render.ts), and this one guards each
 * container's Chromium. Only draws count: cache hits cost nothing.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  constructor(
    private readonly rule: { ratePerSecond: number; burst: number },
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one token for the key; false when the key is over its budget. */
  take(key: string): boolean {
    return this.reserve(key, 0) === 0;
  }

  /**
   * Takes one token for the key, or reserves the next one if it comes within `maxWaitMs`.
   * @param rule this key's own rate and burst (a team's plan), instead of the buckets' rule.
   * @returns 0 when a token was there, the ms to wait before using the reserved one, or -1
   *   (nothing taken) when the wait would be longer than `maxWaitMs`.
   */
  reserve(
    key: string,
    maxWaitMs: number,
    rule: { ratePerSecond: number; burst: number } = this.rule,
  ): number {
    const t = this.now();
    const b = this.buckets.get(key) ?? { tokens: rule.burst, at: t };
    b.tokens = Math.min(rule.burst, b.tokens + ((t - b.at) / 1000) * rule.ratePerSecond);
    b.at = t;
    if (this.buckets.size > 50_000) this.buckets.clear(); // bounded memory under a flood
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    const waitMs = ((1 - b.tokens) / rule.ratePerSecond) * 1000;
    if (waitMs > maxWaitMs) return -1;
    b.tokens -= 1; // the reservation: later requests queue behind it
    return Math.ceil(waitMs);
  }
}

/**
 * The budgets of one render service (one per container): the draw buckets (per address, per
 * mail-proxy address, per design, per team at its plan's rate) and the open-time buckets (the
 * same rates, spent apart), from `deps.limits` (default {@link DEFAULT_LIMITS}).
 * @param deps `teamAllowance` and `usage` (absent: no team rate and no monthly quota).
 * @returns `allowanceOf(teamId)`: the team's allowance or undefined (never throws);
 *   `spendBudget(design, budget, allowance)`: throws Error (cause `rate-limit`) when the
 *   request may not draw now; `mayWorkAtOpen(design, request, proxy)`: whether the request may
 *   do its open-time work and whether its render of the month was counted (never throws past
 *   the usage store's own errors).
 */
export function createBudgets(deps: Pick<RenderServiceDeps, 'limits' | 'teamAllowance' | 'usage'>) {
  const limits = deps.limits ?? DEFAULT_LIMITS;
  const perIp = new TokenBuckets(limits.perIp);
  const perProxy = new TokenBuckets(limits.perProxyAddress);
  const perDesign = new TokenBuckets(limits.perDesign);
  // Each team's own rule (its plan's renders a second) is passed per call.
  const perTeam = new TokenBuckets(limits.perDesign);
  // Open-time work (data lookups, first-open writes) has budgets of its own, the draw budgets'
  // rates, spent before that work: a cache hit costs no draw, but its lookups cost a fetch.
  const lookupsPerIp = new TokenBuckets(limits.perIp);
  const lookupsPerProxy = new TokenBuckets(limits.perProxyAddress);
  const lookupsPerDesign = new TokenBuckets(limits.perDesign);

  /** The team's allowance, or undefined when unknown (no quota then: fail open, logged). */
  async function allowanceOf(teamId: string): Promise<RenderAllowance | undefined> {
    if (!deps.teamAllowance) return undefined;
    return deps.teamAllowance(teamId).catch((error: unknown) => {
      logger.warn('team render allowance not read: not limiting', {
        teamId,
        error: error as Error,
      });
      return undefined;
    });
  }

  /**
   * Spends the draw budget of a request (docs/security.md "Render limits"). A mail proxy's
   * request waits for its address's large budget (up to `proxyWaitMs`); any other address gets
   * its small one, or none once the edge counted it over its 5-minute budget. Then the team's
   * draws a second (its plan's), which a proxy also waits for within what is left of its wait.
   * @throws Error (cause `rate-limit`) when the request may not draw now.
   */
  async function spendBudget(
    design: DesignRecord,
    budget: DrawBudget,
    allowance: RenderAllowance | undefined,
  ): Promise<void> {
    const refuse = () =>
      Object.assign(new Error('render budget exceeded'), { cause: 'rate-limit' });
    let waitedMs = 0;
    if (budget.proxy) {
      if (budget.edgeProxyLimited) throw refuse();
      const waitMs = perProxy.reserve(`${budget.proxy}:${budget.ip}`, limits.proxyWaitMs);
      if (waitMs < 0) throw refuse();
      waitedMs = waitMs;
    } else if (budget.edgeLimited || !perIp.take(budget.ip)) {
      throw refuse();
    }
    if (allowance) {
      const teamWaitMs = perTeam.reserve(
        design.teamId,
        budget.proxy ? limits.proxyWaitMs - waitedMs : 0,
        { ratePerSecond: allowance.rendersPerSecond, burst: allowance.burst },
      );
      if (teamWaitMs < 0) throw refuse();
      waitedMs = Math.max(waitedMs, teamWaitMs);
    }
    if (waitedMs > 0) await new Promise((r) => setTimeout(r, waitedMs));
    if (!perDesign.take(design.designId)) throw refuse();
  }

  /**
   * Spends the open-time budget of a request whose design looks data up or writes a first open
   * (docs/security.md "Open-time content"): anonymous work the draw budgets do not see, since a
   * cache hit draws nothing but still looks up. A recognised mail proxy spends its address's
   * large budget, or none once the edge counted the address over a proxy's 5-minute budget; any
   * other address its small one (the draw rates: 20/s, burst 100), or none once the edge counted
   * it over its 5-minute budget; then the design's (200/s, burst 1,000). A send list's
   * pre-render is outside those (the worker's reserved concurrency bounds it). Last, the team's
   * monthly quota: the work counts as one render of the team's month, and past the quota there
   * is none (docs/security.md "Open-time content", "Counted as the team's renders").
   * @returns `allowed` false when the request may not do that work now: it gets the values as
   *   given and the fallbacks, uncached; `counted` true when the request's one render of the
   *   month was counted here (its draw, if any, is then not counted again).
   */
  async function mayWorkAtOpen(
    design: DesignRecord,
    request: RenderRequest,
    proxy: MailProxy | undefined,
  ): Promise<{ allowed: boolean; counted: boolean }> {
    const refused = { allowed: false, counted: false };
    if (!request.prerender) {
      const address = proxy
        ? !request.edgeProxyLimited && lookupsPerProxy.take(`${proxy}:${request.sourceIp}`)
        : !request.edgeLimited && lookupsPerIp.take(request.sourceIp);
      if (!address || !lookupsPerDesign.take(design.designId)) return refused;
    }
    const allowance = await allowanceOf(design.teamId);
    if (!allowance || !deps.usage) return { allowed: true, counted: false };
    if (await deps.usage.isOver(design.teamId, allowance.rendersPerMonth)) return refused;
    deps.usage.countDraw(design.teamId, allowance.rendersPerMonth);
    return { allowed: true, counted: true };
  }

  return { allowanceOf, spendBudget, mayWorkAtOpen };
}

/** The budgets stage as the service's other stages receive it. */
export type Budgets = ReturnType<typeof createBudgets>;
