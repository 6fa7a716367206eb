import { useCallback, useEffect, useState } from 'react';
import { fetchHealth, type Health } from '../api/health.ts';
import { GENERIC_ERROR_MESSAGE, isApiError } from '../api/client.ts';

export type HealthState =
  | { phase: 'loading'; previous?: Health }
  | { phase: 'ready'; health: Health; checkedAt: Date }
  | { phase: 'error'; message: string; status: number };

/**
 * Loads `/api/health` on mount and whenever `refresh()` is called; a pending request is
 * cancelled when a new one starts or the component unmounts.
 */
export function useHealth(): { state: HealthState; refresh: () => void } {
  const [state, setState] = useState<HealthState>({ phase: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    fetchHealth(controller.signal).then(
      (health) => setState({ phase: 'ready', health, checkedAt: new Date() }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({
          phase: 'error',
          message: isApiError(error) ? error.message : GENERIC_ERROR_MESSAGE,
          status: isApiError(error) ? error.status : 0,
        });
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const refresh = useCallback(() => {
    setState((s) => ({ phase: 'loading', previous: s.phase === 'ready' ? s.health : undefined }));
    setAttempt((n) => n + 1);
  }, []);

  return { state, refresh };
}
