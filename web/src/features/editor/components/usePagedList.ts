/**
 * A library list read page by page (spec 000 §7 lists `page` → `data`, `last_page`; issue 7
 * "infinite scroll"): the first page loads when the component mounts, the next one when
 * `loadMore` runs (the list's end, `ListEnd`, calls it when it scrolls into view). A list shows
 * one thing: give the component a React `key` per tab, search or pack, so a new one starts again
 * from page 1 and answers for the old one are dropped.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiError } from '../../../api/client.ts';
import type { Paged } from '../images-api.ts';

export interface PagedList<T> {
  items: T[];
  loading: boolean;
  /** The last failure's message, or null. */
  error: string | null;
  /** True when the last page has been read. */
  done: boolean;
  /** Reads the next page (the list's end and its Retry button call it). */
  loadMore(): void;
  /** Changes the loaded items in place (a favourite toggled, an upload deleted or added). */
  update(change: (items: T[]) => T[]): void;
}

interface ListState<T> {
  items: T[];
  next: number | null;
  loading: boolean;
  error: string | null;
}

/** @param fetchPage reads one page (1-based); its signal aborts when the list goes away. */
export function usePagedList<T>(
  fetchPage: (page: number, signal: AbortSignal) => Promise<Paged<T>>,
): PagedList<T> {
  const [state, setState] = useState<ListState<T>>({
    items: [],
    next: 1,
    loading: true,
    error: null,
  });
  const fetcher = useRef(fetchPage);
  useEffect(() => {
    fetcher.current = fetchPage;
  });
  const progress = useRef({ next: 1 as number | null, busy: false, abort: new AbortController() });

  /** Reads the next page into the state (its answer sets it; nothing is set before). */
  const fetchNext = useCallback((): boolean => {
    const p = progress.current;
    const page = p.next;
    if (page === null || p.busy) return false;
    p.busy = true;
    const signal = p.abort.signal;
    fetcher.current(page, signal).then(
      (result) => {
        if (signal.aborted) return;
        p.busy = false;
        p.next = result.nextPage;
        setState((s) => ({
          items: [...s.items, ...result.items],
          next: result.nextPage,
          loading: false,
          error: null,
        }));
      },
      (e: unknown) => {
        if (signal.aborted) return;
        p.busy = false;
        const error = isApiError(e) ? e.message : 'The list could not be loaded.';
        setState((s) => ({ ...s, loading: false, error }));
      },
    );
    return true;
  }, []);

  // The first page (the state starts as loading).
  useEffect(() => {
    const p = progress.current;
    fetchNext();
    return () => {
      // Answers on their way are dropped; a remount (React's development check) starts again.
      p.abort.abort();
      p.abort = new AbortController();
      p.busy = false;
    };
  }, [fetchNext]);

  const loadMore = useCallback(() => {
    if (fetchNext()) setState((s) => ({ ...s, loading: true, error: null }));
  }, [fetchNext]);
  const update = useCallback(
    (change: (items: T[]) => T[]) => setState((s) => ({ ...s, items: change(s.items) })),
    [],
  );
  return {
    items: state.items,
    loading: state.loading,
    error: state.error,
    done: state.next === null,
    loadMore,
    update,
  };
}

/**
 * Deleting an item of a paged list after a confirmation: `deleting` is the item asked about
 * (null when none), `remove` deletes it on the server and drops it from the list, `error` says
 * why a delete failed.
 * @param del the server call; throws ApiError when refused.
 * @param failed shown when the failure has no message of its own.
 */
export function useDeleteFromList<T extends { id: string }>(
  list: PagedList<T>,
  del: (id: string) => Promise<void>,
  failed: string,
) {
  const [deleting, setDeleting] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const remove = async (item: T) => {
    setDeleting(null);
    setError(null);
    try {
      await del(item.id);
      list.update((items) => items.filter((i) => i.id !== item.id));
    } catch (e) {
      setError(isApiError(e) ? e.message : failed);
    }
  };
  return { deleting, setDeleting, remove, error, setError };
}
