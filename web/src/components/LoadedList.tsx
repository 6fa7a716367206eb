import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Spinner } from './Spinner.tsx';
import { loadFailure } from '../state/queryClient.ts';
import { LoadFailed } from './LoadFailed.tsx';

/** What `LoadedList` reads of a list's query. */
export type ListQuery<T> = Pick<UseQueryResult<T[]>, 'status' | 'data' | 'error' | 'refetch'>;

/**
 * A settings list read with `useQuery` (tokens, invitations, companies): a spinner with
 * `loadingText` while the first answer is on its way (a status, so it is announced), the
 * failure with Retry (the server's message, else the generic one; docs/accounts.md "Error answers
 * in the SPA"), `emptyText` when it holds nothing, else an `item-list` named by the heading
 * `labelledBy` with one `<li>` per item from `children` (which gives each its key). A list read
 * again after a change keeps showing what it had until the new answer comes.
 */
export function LoadedList<T>({
  query,
  loadingText,
  emptyText,
  labelledBy,
  testId,
  children,
}: {
  query: ListQuery<T>;
  loadingText: string;
  emptyText: string;
  labelledBy: string;
  testId?: string;
  children: (item: T) => ReactNode;
}) {
  if (query.status === 'pending') {
    return (
      <p className="muted" role="status">
        <Spinner /> {loadingText}
      </p>
    );
  }
  if (query.status === 'error') {
    return <LoadFailed message={loadFailure(query.error)} onRetry={() => void query.refetch()} />;
  }
  const items = query.data ?? [];
  if (items.length === 0) return <p className="muted">{emptyText}</p>;
  return (
    <ul className="item-list" data-testid={testId} aria-labelledby={labelledBy}>
      {items.map(children)}
    </ul>
  );
}
