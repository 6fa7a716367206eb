import { useEffect, useState } from 'react';
import { fetchPlans, FALLBACK_FREE_PLAN, type PlanList } from '../../api/plans.ts';

/**
 * The plan list for registration, loaded once on mount; `undefined` while loading. Never an
 * error: a failed load gives the free plan alone (see {@link fetchPlans}).
 */
export function usePlans(): PlanList | undefined {
  const [list, setList] = useState<PlanList>();
  useEffect(() => {
    const controller = new AbortController();
    fetchPlans(controller.signal).then(setList, (error: unknown) => {
      if (controller.signal.aborted) return;
      console.error('Loading the plans failed', error);
      setList({ plans: [FALLBACK_FREE_PLAN], source: 'fallback' });
    });
    return () => controller.abort();
  }, []);
  return list;
}
