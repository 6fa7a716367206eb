/**
 * Lists read page by page (docs/adr/0020-dashboard-spa.md "Dashboard SPA": "All lists page by
 * infinite scroll"; the dashboard lists, the picture library, the editor's image, sticker and
 * template panels), on TanStack Query's `useInfiniteQuery`: the pages are cached under the list's
 * key, so a list shown again appears at once (and is read again behind it when stale), and what an
 * action changes in a list is written into that cache (`update`). docs/adr/0045-server-state.md
 * "Server state".
 */
import {
  hashKey,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
  type InfiniteData,
  type QueryKey,
} from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { isApiError } from '../api/client.ts';
import { loadFailure } from '../state/queryClient.ts';

/**
 * - `loading`: the first page is on its way (nothing to show yet);
 * - `ready`: the pages so far are shown; more may follow (`hasMore`);
 * - `loading-more`: a further page is on its way;
 * - `error`: the first page failed (`error` says why; `retry` asks again);
 * - `error-more`: a further page, or reading the list again, failed; the pages so far stay,
 *   `retry` asks again.
 */
export type PagedPhase = 'loading' | 'ready' | 'loading-more' | 'error' | 'error-more';

/** One page as a fetcher answers it: its items and what to send for the next (null: last). */
export interface Page<T, N> {
  items: T[];
  next: N | null;
}

export interface PagedList<T, P = Page<T, unknown>> {
  phase: PagedPhase;
  /** The items of the pages so far, each once. */
  items: T[];
  hasMore: boolean;
  /** The failure's message in the `error` phases (docs/accounts.md "Error answers in the SPA": the answer's, else generic). */
  error: string | null;
  /** The failed answer's HTTP status (0: no answer), in the `error` phases. */
  errorStatus: number | null;
  /** The first page as read, with whatever else it carries (the stickers' dynamic ones). */
  first: P | undefined;
  /** Asks for the next page; ignored while one is on its way, after a failure, after the last. */
  loadMore: () => void;
  /** After a failure: asks again for what failed (the first page, the next, or the list). */
  retry: () => void;
  /**
   * Changes the loaded items in the cache (an archived card leaves, a clone or an upload joins)
   * without reading the list again; `hasMore` tells whether later pages exist.
   */
  update: (change: (items: T[], hasMore: boolean) => T[]) => void;
}

/**
 * The items of `pages` in order, each once: an item a later page holds again (one that moved,
 * a clone `update` placed) is not repeated.
 */
export function pageItems<T>(pages: readonly Page<T, unknown>[], idOf: (item: T) => string): T[] {
  const seen = new Set<string>();
  const items: T[] = [];
  for (const page of pages) {
    for (const item of page.items) {
      const id = idOf(item);
      if (seen.has(id)) continue;
      seen.add(id);
      items.push(item);
    }
  }
  return items;
}

/**
 * The cached pages with their items changed by `change` (given the items each once, and
 * whether more pages follow). The items go back into as many pages as there were, each as long
 * as before and the last taking the rest, so each page keeps what to send for the next and a
 * refetch reads as many pages again.
 */
export function updatePages<T, N, P extends Page<T, N>>(
  data: InfiniteData<P, N | null>,
  change: (items: T[], hasMore: boolean) => T[],
  idOf: (item: T) => string,
): InfiniteData<P, N | null> {
  const { pages } = data;
  if (pages.length === 0) return data;
  const items = change(pageItems(pages, idOf), pages[pages.length - 1]!.next !== null);
  let at = 0;
  return {
    ...data,
    pages: pages.map((page, i) => {
      const end =
        i === pages.length - 1 ? items.length : Math.min(at + page.items.length, items.length);
      const slice = items.slice(at, end);
      at = end;
      return { ...page, items: slice };
    }),
  };
}

/** The message and status of a failed read. */
function failureOf(error: unknown, message: (error: unknown) => string) {
  return { error: message(error), errorStatus: isApiError(error) ? error.status : 0 };
}

/**
 * A list read page by page under `queryKey` (queryKeys.ts): the first page loads when the key
 * is new (a cached list shows at once), `loadMore` appends the next.
 *
 * @param fetchPage reads one page: `null` for the first, else the previous page's `next`; its
 *   signal aborts when the list is no longer wanted.
 * @param idOf an item's identity, so an item is shown once.
 * @param staleTime how long a read list stays fresh (STALE_TIME in queryClient.ts).
 * @param failure the message of a failure (default: `loadFailure`).
 * @param enabled false while the list is not wanted (nothing is read; the list is `loading`).
 */
export function usePagedQuery<T, N, P extends Page<T, N> = Page<T, N>>({
  queryKey,
  fetchPage,
  idOf,
  staleTime,
  failure = loadFailure,
  enabled = true,
}: {
  queryKey: QueryKey;
  fetchPage: (next: N | null, signal: AbortSignal) => Promise<P>;
  idOf: (item: T) => string;
  staleTime?: number;
  failure?: (error: unknown) => string;
  enabled?: boolean;
}): PagedList<T, P> {
  const queryClient = useQueryClient();
  const query = useInfiniteQuery<P, Error, InfiniteData<P, N | null>, QueryKey, N | null>({
    queryKey,
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam as N | null, signal),
    initialPageParam: null,
    getNextPageParam: (last) => last.next,
    staleTime,
    enabled,
  });
  const { data, fetchNextPage, refetch, hasNextPage, isFetchNextPageError } = query;

  const phase: PagedPhase = query.isPending
    ? 'loading'
    : data === undefined
      ? 'error'
      : query.isFetchingNextPage
        ? 'loading-more'
        : query.isError
          ? 'error-more'
          : 'ready';
  const failed =
    phase === 'error' || phase === 'error-more' ? failureOf(query.error, failure) : null;
  const items = useMemo(() => pageItems(data?.pages ?? [], idOf), [data, idOf]);

  const loadMore = useCallback(() => {
    if (hasNextPage && (phase === 'ready' || phase === 'error-more')) {
      void fetchNextPage({ cancelRefetch: false });
    }
  }, [hasNextPage, phase, fetchNextPage]);

  const retry = useCallback(() => {
    if (isFetchNextPageError) void fetchNextPage();
    else void refetch();
  }, [isFetchNextPageError, fetchNextPage, refetch]);

  // The key by value: a new array with the same parts each render is the same list.
  const keyHash = hashKey(queryKey);
  const update = useCallback(
    (change: (items: T[], hasMore: boolean) => T[]) =>
      queryClient.setQueryData<InfiniteData<P, N | null>>(
        queryKey,
        (cached) => cached && updatePages(cached, change, idOf),
      ),
    // `keyHash` stands for `queryKey`, which is a new array each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [queryClient, keyHash, idOf],
  );

  return {
    phase,
    items,
    hasMore: hasNextPage,
    error: failed?.error ?? null,
    errorStatus: failed?.errorStatus ?? null,
    first: data?.pages[0],
    loadMore,
    retry,
    update,
  };
}

/**
 * Deleting an item of a paged list after a confirmation, as a mutation: `deleting` is the item
 * asked about (null when none), `remove` deletes it on the server and, once done, takes it out
 * of the cached list; `error` says why a delete failed.
 * @param del the server call; throws ApiError when refused.
 * @param failed shown when the failure has no message of its own.
 * @param onDeleted after a delete, e.g. to invalidate the other lists that showed the item.
 */
export function useDeleteFromList<T extends { id: string }>(
  list: Pick<PagedList<T, unknown>, 'update'>,
  del: (id: string) => Promise<void>,
  failed: string,
  onDeleted?: (item: T) => void,
) {
  const [deleting, setDeleting] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: (item: T) => del(item.id),
    onMutate: () => {
      setDeleting(null);
      setError(null);
    },
    onSuccess: (_answer, item) => {
      list.update((items) => items.filter((i) => i.id !== item.id));
      onDeleted?.(item);
    },
    onError: (e) => setError(isApiError(e) ? e.message : failed),
  });
  const { mutate } = mutation;
  const remove = useCallback((item: T) => mutate(item), [mutate]);
  return { deleting, setDeleting, remove, error, setError, pending: mutation.isPending };
}
