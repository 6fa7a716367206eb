/**
 * `GET /spark/plans` (docs/billing.md "Flows", "Registration and lookups"): the plans a new account
 * can choose. Registration must work even when the list cannot be had, so this never throws for a
 * failed call: it falls back to the free plan alone.
 */
import { FREEZE_PLAN_ID, type Plan as PlanAnswer } from '#shared/billing.ts';
import { call } from './client.ts';

export type { PlanInterval } from '#shared/billing.ts';

/**
 * A plan as the SPA uses it: a plan of the answer (shared/contract/billing.ts `PlanSchema`;
 * docs/billing.md "Model" Plan). Its limits and capabilities are optional because the fallback
 * plan, used when the list cannot be had, does not know them.
 */
export type Plan = Omit<PlanAnswer, 'active' | 'attributes' | 'features'> &
  Partial<Pick<PlanAnswer, 'attributes' | 'features'>>;

/** Used when the plan list is unavailable: registration still works on the free plan. */
export const FALLBACK_FREE_PLAN: Plan = {
  id: 'free',
  name: 'Free',
  price: 0,
  interval: 'monthly',
  type: 'user',
  available: true,
};

export interface PlanList {
  plans: Plan[];
  /** `fallback` when the answer failed or had no usable plan, `server` otherwise. */
  source: 'server' | 'fallback';
}

/**
 * Loads the active plans in the server's order, leaving out inactive plans and the internal
 * `plan-freeze`. `available` says whether a new account can take the plan now: the free plan
 * always, a paid plan only while billing is online (the server refuses it otherwise: 'Paid
 * plans are not available: billing is not configured.').
 *
 * @returns the plans, or {@link FALLBACK_FREE_PLAN} alone when the call fails (a network
 *   failure, a 5xx) or nothing usable came back. Never throws, except the browser's
 *   `AbortError` when `signal` aborts.
 */
export async function fetchPlans(signal?: AbortSignal): Promise<PlanList> {
  let answer: PlanAnswer[];
  try {
    answer = await call('GET /spark/plans', { signal });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    // Not swallowed: the cause is logged, and the page says the list is limited.
    console.warn('GET /spark/plans failed; offering the free plan only.', error);
    return { plans: [FALLBACK_FREE_PLAN], source: 'fallback' };
  }
  const plans = answer.filter((p) => p.active && p.id !== FREEZE_PLAN_ID);
  if (plans.length === 0) {
    console.warn('GET /spark/plans answered no usable plan; offering the free plan only.', answer);
    return { plans: [FALLBACK_FREE_PLAN], source: 'fallback' };
  }
  return { plans, source: 'server' };
}
