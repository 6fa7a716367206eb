/**
 * `GET /spark/plans` (spec 001 §7, "Registration and lookups"): the plans a new account can
 * choose. Registration must work even when the list cannot be had, so this never throws for a
 * bad answer: it falls back to the free plan alone.
 *
 * TODO: read `PlanView` from `shared/` once the billing feature publishes its schema there.
 */
import { api } from './client.ts';

export type PlanInterval = 'monthly' | 'yearly';

/** A plan as the SPA uses it (spec 001 §3 Plan). */
export interface Plan {
  id: string;
  name: string;
  /** Price per interval in cents; 0 is the free plan (spec 001 §9). */
  price: number;
  interval: PlanInterval;
  type: 'user' | 'team';
  /** Team and member limits (spec 001 §9), when the server sent them. */
  attributes?: { teams: number; teamMembers: number };
  /** Pro capabilities (spec 001 §6), when the server sent them. */
  features?: { can_export_pdf: boolean; can_upload_custom_fonts: boolean };
  /**
   * Whether a new account can take the plan now. Free plans always; a paid plan only when the
   * server says `available: true` (billing online). While billing is offline the server
   * refuses paid plans ('Paid plans are not available: billing is not configured.').
   */
  available: boolean;
}

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
 * Loads the active plans in the server's order. Accepts a JSON array of plans or an object
 * with a `plans` array; entries that are not plans, inactive plans and the internal
 * `plan-freeze` are left out.
 *
 * @returns the plans, or {@link FALLBACK_FREE_PLAN} alone when the call fails (a 501 while
 *   billing is not built, a network failure) or nothing usable came back. Never throws, except
 *   the browser's `AbortError` when `signal` aborts.
 */
export async function fetchPlans(signal?: AbortSignal): Promise<PlanList> {
  let body: unknown;
  try {
    body = await api<unknown>('GET', '/spark/plans', undefined, { signal });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    // Not swallowed: the cause is logged, and the page says the list is limited.
    console.warn('GET /spark/plans failed; offering the free plan only.', error);
    return { plans: [FALLBACK_FREE_PLAN], source: 'fallback' };
  }
  const list = Array.isArray(body) ? body : isRecord(body) ? body.plans : undefined;
  const plans = (Array.isArray(list) ? list : []).flatMap((p) => {
    const plan = toPlan(p);
    return plan ? [plan] : [];
  });
  if (plans.length === 0) {
    console.warn('GET /spark/plans answered no usable plan; offering the free plan only.', body);
    return { plans: [FALLBACK_FREE_PLAN], source: 'fallback' };
  }
  return { plans, source: 'server' };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function toPlan(v: unknown): Plan | undefined {
  if (!isRecord(v) || typeof v.id !== 'string' || v.id === '' || v.id === 'plan-freeze') {
    return undefined;
  }
  if (v.active === false || !isCount(v.price) || v.price < 0) return undefined;
  const attributes = isRecord(v.attributes) ? v.attributes : undefined;
  const features = isRecord(v.features) ? v.features : undefined;
  return {
    id: v.id,
    name: typeof v.name === 'string' && v.name !== '' ? v.name : v.id,
    price: v.price,
    interval: v.interval === 'yearly' ? 'yearly' : 'monthly',
    type: v.type === 'team' ? 'team' : 'user',
    ...(attributes && isCount(attributes.teams) && isCount(attributes.teamMembers)
      ? { attributes: { teams: attributes.teams, teamMembers: attributes.teamMembers } }
      : {}),
    ...(features
      ? {
          features: {
            can_export_pdf: features.can_export_pdf === true,
            can_upload_custom_fonts: features.can_upload_custom_fonts === true,
          },
        }
      : {}),
    available: v.price === 0 || v.available === true,
  };
}
