import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { isApiError } from '../../api/client.ts';
import { PageLoading } from '../../components/Spinner.tsx';
import { useDocumentTitle } from '../../hooks/useDocumentTitle.ts';
import { queryKeys } from '../../state/queryKeys.ts';
import { actionFailure } from '../../lib/formFailure.ts';
import { DesignNotFound } from './DesignNotFound.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';

/** Where a page about one design stands: loading, ready with its data, or failed. */
export type DesignLoad<T> =
  | { state: 'loading' }
  | { state: 'ready'; data: T }
  | { state: 'error'; status: number; message: string };

/**
 * Loads what a page about one design shows (the show page, the editor, the export screen),
 * cached under `queryKeys.designs.one(what, id)`, again when `id` changes or `retry` is called.
 * A failure keeps its HTTP status (0 when no answer came), so a 404 (a design that is not the
 * current team's, docs/adr/0020-dashboard-spa.md "Dashboard SPA") can show the not-found state; its
 * message is the server's, else the generic one (docs/accounts.md "Error answers in the SPA").
 * `update` replaces the loaded data in the cache (e.g. after an action answered the new design).
 * Sets the document title: `title(data)` once loaded, "PicSnippet not found" on a 404, else
 * `pending`.
 *
 * @param what names the page's reading of the design (`show`, `editor`, `export`).
 * @param options.once for a page that takes the design over (the editor, the export screen):
 *   read fresh on each visit, never read again while it is open (that would replace the
 *   document being edited) and not kept once the page is left.
 */
export function useDesignLoad<T>(
  what: string,
  id: string,
  load: (id: string, signal: AbortSignal) => Promise<T>,
  titles: { pending: string; ready: (data: T) => string },
  options: { once?: boolean } = {},
): { loaded: DesignLoad<T>; retry: () => void; update: (change: (data: T) => T) => void } {
  const queryClient = useQueryClient();
  const queryKey = queryKeys.designs.one(what, id);
  const read = useQuery({
    queryKey,
    queryFn: ({ signal }) => load(id, signal),
    ...(options.once ? { staleTime: Infinity, gcTime: 0 } : {}),
  });
  const loaded: DesignLoad<T> =
    read.status === 'success'
      ? { state: 'ready', data: read.data }
      : read.status === 'error'
        ? {
            state: 'error',
            status: isApiError(read.error) ? read.error.status : 0,
            message: actionFailure(read.error),
          }
        : { state: 'loading' };

  useDocumentTitle(
    loaded.state === 'ready'
      ? titles.ready(loaded.data)
      : loaded.state === 'error' && loaded.status === 404
        ? 'PicSnippet not found'
        : titles.pending,
  );

  const { refetch } = read;
  const retry = useCallback(() => void refetch(), [refetch]);
  const update = useCallback(
    (change: (data: T) => T) =>
      queryClient.setQueryData<T>(queryKeys.designs.one(what, id), (data) =>
        data === undefined ? data : change(data),
      ),
    [queryClient, what, id],
  );
  return { loaded, retry, update };
}

/**
 * What a design page shows before its data is ready: a spinner with `loadingText` (a status,
 * so it is announced), the not-found state for a 404, or the failure with Retry.
 */
export function DesignLoadState({
  loaded,
  retry,
  loadingText,
  failedTitle,
}: {
  loaded: Exclude<DesignLoad<unknown>, { state: 'ready' }>;
  retry: () => void;
  loadingText: string;
  failedTitle: string;
}) {
  if (loaded.state === 'loading') {
    return <PageLoading>{loadingText}</PageLoading>;
  }
  if (loaded.status === 404) return <DesignNotFound />;
  return (
    <div className="container container--narrow">
      <LoadFailed title={failedTitle} message={loaded.message} onRetry={retry} />
    </div>
  );
}
