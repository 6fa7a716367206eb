import type { ReactNode } from 'react';
import { Spinner } from '../../components/Spinner.tsx';
import type { Load } from '../../hooks/useLoad.ts';
import { LoadFailed } from '../dashboard/LoadFailed.tsx';

/**
 * A settings list read with `useLoad` (tokens, invitations, companies): a spinner with
 * `loadingText` while it loads (a status, so it is announced), the failure with Retry (the
 * server's message, else the generic one; spec 001 §8), `emptyText` when it holds nothing, else
 * an `item-list` named by the heading `labelledBy` with one `<li>` per item from `children`
 * (which gives each its key).
 */
export function LoadedList<T>({
  load,
  loadingText,
  emptyText,
  labelledBy,
  testId,
  children,
}: {
  load: Load<T[]> & { reload: () => void };
  loadingText: string;
  emptyText: string;
  labelledBy: string;
  testId?: string;
  children: (item: T) => ReactNode;
}) {
  if (load.state === 'loading') {
    return (
      <p className="muted" role="status">
        <Spinner /> {loadingText}
      </p>
    );
  }
  if (load.state === 'error') return <LoadFailed message={load.error} onRetry={load.reload} />;
  if (load.data.length === 0) return <p className="muted">{emptyText}</p>;
  return (
    <ul className="item-list" data-testid={testId} aria-labelledby={labelledBy}>
      {load.data.map(children)}
    </ul>
  );
}
