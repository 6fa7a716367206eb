import type { UseQueryResult } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import { Spinner } from '../../../components/Spinner.tsx';
import { loadFailure } from '../../../state/queryClient.ts';
import { LoadFailed } from '../../../components/LoadFailed.tsx';

/**
 * A kiosk search (users, teams; docs/kiosk.md): the titled section, a labelled search box, and
 * the search's state: "Searching…" before the first answer, a retry on failure, and
 * `children(data)` for the results (earlier results stay while the next search runs).
 *
 * @param title the section's heading: `Users`.
 * @param label the search box's label: `Search users by name or e-mail`.
 * @param noun what is searched, plural, for the failure message: `users`.
 */
export function KioskSearch<T>({
  title,
  label,
  noun,
  text,
  onText,
  query,
  children,
}: {
  title: string;
  label: string;
  noun: string;
  text: string;
  onText: (text: string) => void;
  query: UseQueryResult<T>;
  children: (data: T) => ReactNode;
}) {
  const id = useId();
  return (
    <section className="stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card__title">
        {title}
      </h2>
      <search className="kiosk-search">
        <label htmlFor={`${id}-q`}>{label}</label>
        <input
          id={`${id}-q`}
          type="search"
          className="input"
          value={text}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => onText(event.target.value)}
        />
      </search>
      {query.status === 'pending' && (
        <p className="muted" role="status">
          <Spinner /> Searching…
        </p>
      )}
      {query.status === 'error' && (
        <LoadFailed
          title={`The ${noun} could not be searched.`}
          message={loadFailure(query.error)}
          onRetry={() => void query.refetch()}
        />
      )}
      {query.data !== undefined && children(query.data)}
    </section>
  );
}
