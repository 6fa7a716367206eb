import { useCallback, useEffect, useState } from 'react';
import { GENERIC_ERROR_MESSAGE, isApiError } from '../api/client.ts';

export type Load<T> =
  | { state: 'loading'; data?: undefined; error?: undefined }
  | { state: 'ready'; data: T; error?: undefined }
  | { state: 'error'; data?: undefined; error: string };

/**
 * Loads data when `key` changes; `reload` asks again (keeping the old data on screen while
 * it loads). Failures become a message to show (spec 001 §8: the answer's message, else the
 * generic one).
 */
export function useLoad<T>(
  load: (signal: AbortSignal) => Promise<T>,
  key: string,
): Load<T> & { reload: () => void } {
  const [result, setResult] = useState<Load<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal).then(
      (data) => setResult({ state: 'ready', data }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.error(error);
        setResult({
          state: 'error',
          error: !isApiError(error)
            ? GENERIC_ERROR_MESSAGE
            : error.status === 401
              ? 'Your session has expired. Sign in again.'
              : error.message,
        });
      },
    );
    return () => controller.abort();
    // `key` names what `load` reads: a new inline `load` each render must not reload.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, round]);

  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { ...result, reload };
}
