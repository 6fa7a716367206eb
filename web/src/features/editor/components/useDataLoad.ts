/**
 * The data panel's loader (docs/editor.md "Data sources"): one answer per key, the previous one
 * aborted when the key changes, and a 403 (the routes are for the team's owner and admins)
 * told apart from other failures so the panel can say who to ask.
 */
import { useEffect, useState } from 'react';
import { GENERIC_ERROR_MESSAGE } from '../../../api/client.ts';
import { isNotManager } from '../dataSourcesApi.ts';

/** A load's state: loading, its value, a 403, or another failure's message. */
export type Load<T> =
  | { status: 'loading' }
  | { status: 'ready'; value: T }
  | { status: 'forbidden' }
  | { status: 'error'; message: string };

/**
 * Loads `fetcher`'s answer for `key` (null: nothing to load, the state stays `loading`),
 * aborting the previous load when the key changes; a stale answer is never shown.
 */
export function useLoad<T>(
  key: string | null,
  fetcher: (signal: AbortSignal) => Promise<T>,
): Load<T> {
  const [state, setState] = useState<{ key: string | null; load: Load<T> }>({
    key: null,
    load: { status: 'loading' },
  });
  useEffect(() => {
    if (key === null) return;
    const abort = new AbortController();
    fetcher(abort.signal).then(
      (value) => !abort.signal.aborted && setState({ key, load: { status: 'ready', value } }),
      (error: unknown) => {
        if (abort.signal.aborted) return;
        const load: Load<T> = isNotManager(error)
          ? { status: 'forbidden' }
          : {
              status: 'error',
              message: error instanceof Error ? error.message : GENERIC_ERROR_MESSAGE,
            };
        setState({ key, load });
      },
    );
    return () => abort.abort();
    // The fetcher is rebuilt every render; the key names what it loads.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return state.key === key ? state.load : { status: 'loading' };
}
