import { useCallback, useEffect, useState } from 'react';
import { isApiError } from '../../api/client.ts';
import { PageLoading } from '../../components/Spinner.tsx';
import { useDocumentTitle } from '../../hooks/useDocumentTitle.ts';
import { actionFailure } from '../settings/formFailure.ts';
import { DesignNotFound } from './DesignNotFound.tsx';
import { LoadFailed } from './LoadFailed.tsx';

/** Where a page about one design stands: loading, ready with its data, or failed. */
export type DesignLoad<T> =
  | { state: 'loading' }
  | { state: 'ready'; data: T }
  | { state: 'error'; status: number; message: string };

/**
 * Loads what a page about one design shows (the show page, the editor, the export screen),
 * again when `id` changes or `retry` is called. A failure keeps its HTTP status (0 when no
 * answer came), so a 404 (a design that is not the current team's, spec 000 §2) can show the
 * not-found state; its message is the server's, else the generic one (spec 001 §8).
 * `update` replaces the loaded data (e.g. after an action answered the new design).
 * Sets the document title: `title(data)` once loaded, "PicSnippet not found" on a 404, else
 * `pending`.
 */
export function useDesignLoad<T>(
  id: string,
  load: (id: string, signal: AbortSignal) => Promise<T>,
  titles: { pending: string; ready: (data: T) => string },
): { loaded: DesignLoad<T>; retry: () => void; update: (change: (data: T) => T) => void } {
  const [loaded, setLoaded] = useState<DesignLoad<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    load(id, controller.signal).then(
      (data) => setLoaded({ state: 'ready', data }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setLoaded({
          state: 'error',
          status: isApiError(error) ? error.status : 0,
          message: actionFailure(error),
        });
      },
    );
    return () => controller.abort();
    // `id` names what `load` reads: a new inline `load` each render must not reload.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id, round]);

  useDocumentTitle(
    loaded.state === 'ready'
      ? titles.ready(loaded.data)
      : loaded.state === 'error' && loaded.status === 404
        ? 'PicSnippet not found'
        : titles.pending,
  );

  const retry = useCallback(() => {
    setLoaded({ state: 'loading' });
    setRound((n) => n + 1);
  }, []);
  const update = useCallback(
    (change: (data: T) => T) =>
      setLoaded((l) => (l.state === 'ready' ? { state: 'ready', data: change(l.data) } : l)),
    [],
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
