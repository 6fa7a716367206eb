import { useMemo, useState } from 'react';
import type { Plan, PlanInterval, PlanList } from '../../api/plans.ts';
import { asksForCard, defaultPlanChoice, isFree, plansFor } from '../billing/plans.ts';
import { usePlans } from './usePlans.ts';

/** Registration step 1's plan choice, from {@link usePlanChoice}. */
export interface PlanChoiceState {
  /** The plans, undefined while they load. */
  planList: PlanList | undefined;
  interval: PlanInterval;
  selectedPlanId: string | undefined;
  selectedPlan: Plan | undefined;
  /**
   * A paid plan that can be taken now and asks for a card up front is chosen: the card and
   * address are asked for (not for a card-less trial, docs/billing.md "Trials").
   */
  paid: boolean;
  /** The URL's plan when it cannot be taken now (billing offline). */
  unavailableRequest: Plan | undefined;
  /** The server's errors on `plan`, until another plan is chosen. */
  errors: string[] | undefined;
  setErrors: (errors: string[] | undefined) => void;
  chooseInterval: (interval: PlanInterval) => void;
  choose: (planId: string) => void;
}

/**
 * The plan list and the plan chosen (docs/accounts.md "Screens"): the URL's `plan` (or, with an
 * invitation, the free plan) until the user picks one; switching the interval away from the chosen
 * paid plan falls back to the free plan.
 */
export function usePlanChoice(query: {
  plan: string | null;
  invitation: string | undefined;
}): PlanChoiceState {
  const planList = usePlans();
  const defaults = useMemo(
    () => planList && defaultPlanChoice(planList.plans, query.plan, query.invitation !== undefined),
    [planList, query.plan, query.invitation],
  );
  const [pickedInterval, setPickedInterval] = useState<PlanInterval>();
  const [pickedPlanId, setPickedPlanId] = useState<string>();
  const [errors, setErrors] = useState<string[]>();
  const interval = pickedInterval ?? defaults?.interval ?? 'monthly';
  const selectedPlanId = pickedPlanId ?? defaults?.planId;
  const selectedPlan = planList?.plans.find((p) => p.id === selectedPlanId);

  return {
    planList,
    interval,
    selectedPlanId,
    selectedPlan,
    paid: asksForCard(selectedPlan),
    unavailableRequest: defaults?.unavailableRequest,
    errors,
    setErrors,
    chooseInterval: (next) => {
      setPickedInterval(next);
      // A paid plan of the other interval is no longer shown: fall back to the free plan.
      if (planList && selectedPlan && !plansFor(planList.plans, next).includes(selectedPlan)) {
        setPickedPlanId(planList.plans.find((p) => isFree(p) && p.available)?.id);
      }
    },
    choose: (planId) => {
      setPickedPlanId(planId);
      setErrors(undefined);
    },
  };
}
