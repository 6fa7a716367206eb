import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { fetchHealth, type Health } from '../api/health.ts';
import { GENERIC_ERROR_MESSAGE, isApiError } from '../api/client.ts';
import { queryKeys } from '../state/queryKeys.ts';

export type HealthState =
  | { phase: 'loading'; previous?: Health }
  | { phase: 'ready'; health: Health; checkedAt: Date }
  | { phase: 'error'; message: string; status: number };

/**
 * Loads `/api/health` on mount and whenever `refresh()` is called (a check on its way is
 * cancelled by a new one, or when the page goes). Never retried: the panel shows the state the
 * check found, and the user asks again.
 */
export function useHealth(): { state: HealthState; refresh: () => void } {
  const read = useQuery({
    queryKey: queryKeys.health,
    queryFn: ({ signal }) => fetchHealth(signal),
    retry: false,
  });
  const { refetch } = read;
  const refresh = useCallback(() => void refetch({ cancelRefetch: true }), [refetch]);

  let state: HealthState;
  if (read.isFetching || read.isPending) {
    state = { phase: 'loading', previous: read.isError ? undefined : read.data };
  } else if (read.isError) {
    const error = read.error;
    state = {
      phase: 'error',
      message: isApiError(error) ? error.message : GENERIC_ERROR_MESSAGE,
      status: isApiError(error) ? error.status : 0,
    };
  } else {
    state = { phase: 'ready', health: read.data, checkedAt: new Date(read.dataUpdatedAt) };
  }
  return { state, refresh };
}
