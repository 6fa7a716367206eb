import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { isApiError } from '../../../api/client.ts';
import { Notice } from '../../../components/Notice.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { loadFailure } from '../../../state/queryClient.ts';
import { LoadFailed } from '../../../components/LoadFailed.tsx';
import { useEscapeBack } from '../users/useEscapeBack.ts';

/**
 * The frame of a kiosk profile (a user's or a team's, docs/kiosk.md): "Back to the search"
 * (also Esc), then the profile's load state: a spinner while it loads, "There is no such …" on a
 * 404, a retry on any other failure, and `children(data)` once it is there.
 *
 * @param noun what the profile is of, for the messages: `user`, `team`.
 */
export function KioskProfileFrame<T>({
  query,
  noun,
  back,
  children,
}: {
  query: UseQueryResult<T>;
  noun: string;
  back: () => void;
  children: (data: T) => ReactNode;
}) {
  useEscapeBack(back);
  return (
    <div className="stack">
      <p>
        <button type="button" className="button button--small button--secondary" onClick={back}>
          ← Back to the search
        </button>
      </p>
      {query.status === 'pending' && (
        <p className="muted" role="status">
          <Spinner /> Loading the {noun}…
        </p>
      )}
      {query.status === 'error' &&
        (isApiError(query.error) && query.error.status === 404 ? (
          <Notice tone="error">There is no such {noun}.</Notice>
        ) : (
          <LoadFailed
            title={`The ${noun} could not be loaded.`}
            message={loadFailure(query.error)}
            onRetry={() => void query.refetch()}
          />
        ))}
      {query.data !== undefined && children(query.data)}
    </div>
  );
}
