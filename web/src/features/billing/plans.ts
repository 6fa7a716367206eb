/**
 * Registration step 1, the plan: which plans are shown and which one starts selected
 * (docs/adr/0011-registration.md "Registration").
 */
import type { Plan, PlanInterval } from '../../api/plans.ts';
import { formatMoney } from '../../lib/format.ts';

export const isFree = (plan: Plan): boolean => plan.price === 0;

/**
 * True when registering on the plan asks for the card and billing address now: a paid plan that
 * can be taken, unless it offers a trial without a card (docs/billing.md "Trials").
 */
export const asksForCard = (plan: Plan | undefined): boolean =>
  plan !== undefined && !isFree(plan) && plan.available && plan.card_up_front !== false;

/**
 * The note under a plan with a card-less trial ("14-day free trial, no card needed…"), or
 * undefined for any other plan (docs/billing.md "Trials").
 */
export function trialNote(plan: Plan | undefined): string | undefined {
  if (!plan?.available || !plan.trial_days || plan.card_up_front !== false) return undefined;
  return `${plan.trial_days}-day free trial, no card needed. Add a card on the Payment Method tab before the trial ends to keep the plan.`;
}

/** True when the list has paid plans of both intervals, so a monthly/yearly toggle helps. */
export function hasIntervalChoice(plans: readonly Plan[]): boolean {
  const paid = plans.filter((p) => !isFree(p));
  return paid.some((p) => p.interval === 'yearly') && paid.some((p) => p.interval === 'monthly');
}

/** The plans shown for an interval: the free plans, then the paid plans of that interval. */
export function plansFor(plans: readonly Plan[], interval: PlanInterval): Plan[] {
  return [...plans.filter(isFree), ...plans.filter((p) => !isFree(p) && p.interval === interval)];
}

/** The plan named in the URL's `plan` parameter, by id or by name (docs/accounts.md "Screens"). */
export function findRequestedPlan(
  plans: readonly Plan[],
  requested: string | null,
): Plan | undefined {
  const wanted = requested?.trim().toLowerCase();
  if (!wanted) return undefined;
  return (
    plans.find((p) => p.id.toLowerCase() === wanted) ??
    plans.find((p) => p.name.toLowerCase() === wanted)
  );
}

export interface PlanChoice {
  /** The selected plan's id; undefined only when no plan is selectable at all. */
  planId: string | undefined;
  interval: PlanInterval;
  /** The plan the URL asked for when it exists but cannot be taken now (billing offline). */
  unavailableRequest?: Plan;
}

/**
 * The plan selected when step 1 opens (docs/adr/0011-registration.md "Registration": "Default plan
 * at registration"): the plan from the query when it exists and can be taken; else the free plan
 * when an invitation is present; else the first paid plan of the active interval that can be taken;
 * else the free plan. The interval is yearly when there are no monthly plans or the requested plan
 * is yearly.
 *
 * @param plans      the plan list, in the server's order.
 * @param requested  the `plan` query parameter (an id or a name), or null.
 * @param invitation whether the URL carries an invitation.
 */
export function defaultPlanChoice(
  plans: readonly Plan[],
  requested: string | null,
  invitation: boolean,
): PlanChoice {
  const wanted = findRequestedPlan(plans, requested);
  const paid = plans.filter((p) => !isFree(p));
  const interval: PlanInterval =
    (paid.length > 0 && !paid.some((p) => p.interval === 'monthly')) ||
    (wanted && !isFree(wanted) && wanted.interval === 'yearly')
      ? 'yearly'
      : 'monthly';
  const free = plans.find((p) => isFree(p) && p.available);
  const unavailableRequest = wanted && !wanted.available ? wanted : undefined;

  let chosen: Plan | undefined;
  if (wanted?.available) chosen = wanted;
  else if (invitation) chosen = free;
  chosen ??= paid.find((p) => p.interval === interval && p.available) ?? free;
  chosen ??= plans.find((p) => p.available);
  return { planId: chosen?.id, interval, ...(unavailableRequest ? { unavailableRequest } : {}) };
}

/** "$29" for 2900 cents; whole amounts without decimals. Prices are in US dollars. */
export function formatPrice(cents: number): string {
  return formatMoney(cents, 'usd');
}
