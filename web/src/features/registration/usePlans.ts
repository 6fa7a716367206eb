import { useQuery } from '@tanstack/react-query';
import type { PlanList } from '../../api/plans.ts';
import { plansQuery } from '../../hooks/queries.ts';

/**
 * The plan list for registration (the cached one of the subscription tabs), read on mount;
 * `undefined` while loading. Never an error: a failed load gives the free plan alone (see
 * `fetchPlans`).
 */
export function usePlans(): PlanList | undefined {
  return useQuery(plansQuery()).data;
}
