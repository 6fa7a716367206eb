import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiError } from '../../api/client.ts';
import { actionFailure } from '../settings/formFailure.ts';

/**
 * - `loading`: the first page is on its way (nothing to show yet);
 * - `ready`: the pages so far are shown; more may follow (`hasMore`);
 * - `loading-more`: a further page is on its way;
 * - `error`: the first page failed (`error` says why; `retry` asks again);
 * - `error-more`: a further page failed; the pages so far stay, `retry` asks for it again.
 */
export type PagedPhase = 'loading' | 'ready' | 'loading-more' | 'error' | 'error-more';

/** One page as a fetcher answers it: its items and what to send for the next (null: last). */
export interface Page<T, N> {
  items: T[];
  next: N | null;
}

export interface PagedList<T> {
  phase: PagedPhase;
  items: T[];
  hasMore: boolean;
  /** The failure's message in the `error` phases (spec 001 §8: the answer's, else generic). */
  error: string | null;
  /** The failed answer's HTTP status (0: no answer), in the `error` phases. */
  errorStatus: number | null;
  /** Asks for the next page; ignored while one is on its way or after the last. */
  loadMore: () => void;
  /** After a failure: asks again for the page that failed. */
  retry: () => void;
  /**
   * Changes the loaded items in place (an archived card leaves, a clone joins) without
   * reading the list again; `hasMore` tells whether later pages exist.
   */
  update: (change: (items: T[], hasMore: boolean) => T[]) => void;
}

interface State<T, N> {
  key: string;
  items: T[];
  next: N | null;
  phase: Exclude<PagedPhase, 'loading'>;
  error: string | null;
  errorStatus: number | null;
}

/** The message and status of a failed page. */
const failure = (error: unknown) => ({
  error: actionFailure(error),
  errorStatus: isApiError(error) ? error.status : 0,
});

/**
 * A list read page by page (the dashboard lists, spec 000 §2 "All lists page by infinite
 * scroll"; the picture library). The first page loads when `key` changes; `loadMore` appends
 * the next. Items already shown are not repeated when a later page holds them again (an item
 * that moved, a clone placed by `update`).
 *
 * @param key names what `fetchPage` reads (view, sort, filter): a new key starts over.
 * @param fetchPage reads one page: `null` for the first, else the previous page's `next`.
 *   Keep it stable (`useCallback`), like `key`.
 * @param idOf an item's identity, for the repeat check.
 */
export function usePagedList<T, N>(
  key: string,
  fetchPage: (next: N | null, signal: AbortSignal) => Promise<Page<T, N>>,
  idOf: (item: T) => string,
): PagedList<T> {
  const [state, setState] = useState<State<T, N> | null>(null);
  const [round, setRound] = useState(0);
  const more = useRef<AbortController | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    fetchPage(null, controller.signal).then(
      (page) =>
        setState({
          key,
          items: page.items,
          next: page.next,
          phase: 'ready',
          error: null,
          errorStatus: null,
        }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ key, items: [], next: null, phase: 'error', ...failure(error) });
      },
    );
    return () => {
      controller.abort();
      more.current?.abort();
      more.current = null;
    };
  }, [key, round, fetchPage]);

  // Another key's pages are not this list's: until the first page arrives, it is loading.
  const current = state?.key === key ? state : null;

  const loadMore = useCallback(() => {
    if (!current?.next || more.current) return;
    if (current.phase !== 'ready' && current.phase !== 'error-more') return;
    const controller = new AbortController();
    more.current = controller;
    setState((s) =>
      s && s.key === key ? { ...s, phase: 'loading-more', error: null, errorStatus: null } : s,
    );
    fetchPage(current.next, controller.signal)
      .then(
        (page) =>
          setState((s) => {
            if (!s || s.key !== key) return s;
            const shown = new Set(s.items.map(idOf));
            const fresh = page.items.filter((item) => !shown.has(idOf(item)));
            return { ...s, items: [...s.items, ...fresh], next: page.next, phase: 'ready' };
          }),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setState((s) =>
            s && s.key === key ? { ...s, phase: 'error-more', ...failure(error) } : s,
          );
        },
      )
      .finally(() => {
        if (more.current === controller) more.current = null;
      });
  }, [current, key, fetchPage, idOf]);

  const retry = useCallback(() => {
    if (current?.phase === 'error-more') return loadMore();
    setState(null);
    setRound((r) => r + 1);
  }, [current?.phase, loadMore]);

  const update = useCallback(
    (change: (items: T[], hasMore: boolean) => T[]) =>
      setState((s) => (s && s.key === key ? { ...s, items: change(s.items, s.next !== null) } : s)),
    [key],
  );

  return {
    phase: current?.phase ?? 'loading',
    items: current?.items ?? [],
    hasMore: current?.next != null,
    error: current?.error ?? null,
    errorStatus: current?.errorStatus ?? null,
    loadMore,
    retry,
    update,
  };
}
