import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Spinner } from '../../../components/Spinner.tsx';
import { useDebouncedValue } from '../../../hooks/useDebouncedValue.ts';
import { loadFailure } from '../../../state/queryClient.ts';
import { LoadFailed } from '../../dashboard/LoadFailed.tsx';
import { kioskKeys, searchUsers } from './api.ts';

/** How long typing rests before the users are searched, ms. */
const SEARCH_DELAY_MS = 300;

/**
 * The user search: a search box (name or e-mail, any part, any case), the users found a page
 * at a time, each opening its profile.
 */
export function UserSearch({
  text,
  page,
  onText,
  onPage,
  open,
}: {
  text: string;
  page: number;
  onText: (text: string) => void;
  onPage: (page: number) => void;
  open: (id: string) => void;
}) {
  const id = useId();
  const query = useDebouncedValue(text.trim(), SEARCH_DELAY_MS);
  const found = useQuery({
    queryKey: kioskKeys.userSearch(query, page),
    queryFn: ({ signal }) => searchUsers(query, page, signal),
    placeholderData: keepPreviousData,
  });
  return (
    <section className="stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card__title">
        Users
      </h2>
      <search className="kiosk-search">
        <label htmlFor={`${id}-q`}>Search users by name or e-mail</label>
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
      {found.status === 'pending' && (
        <p className="muted" role="status">
          <Spinner /> Searching…
        </p>
      )}
      {found.status === 'error' && (
        <LoadFailed
          title="The users could not be searched."
          message={loadFailure(found.error)}
          onRetry={() => void found.refetch()}
        />
      )}
      {found.data && (
        <>
          <p className="muted" role="status">
            {found.data.total === 1 ? '1 user found' : `${found.data.total} users found`}
          </p>
          {found.data.data.length > 0 && (
            <table className="kiosk-table">
              <caption className="visually-hidden">Users found</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">E-mail</th>
                  <th scope="col">Signed up</th>
                </tr>
              </thead>
              <tbody>
                {found.data.data.map((user) => (
                  <tr key={user.id}>
                    <td>
                      <a
                        href={`#/users/${encodeURIComponent(user.id)}`}
                        onClick={(event) => {
                          event.preventDefault();
                          open(user.id);
                        }}
                      >
                        {user.name}
                      </a>
                      {user.isAdmin && <span className="badge kiosk-badge">Admin</span>}
                    </td>
                    <td>{user.email}</td>
                    <td>
                      {user.created_at ? new Date(user.created_at).toLocaleDateString() : '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {found.data.last_page > 1 && (
            <nav className="kiosk-pager" aria-label="Pages of users">
              <button
                type="button"
                className="button button--small button--secondary"
                disabled={page <= 1}
                onClick={() => onPage(page - 1)}
              >
                Previous
              </button>
              <span>
                Page {found.data.current_page} of {found.data.last_page}
              </span>
              <button
                type="button"
                className="button button--small button--secondary"
                disabled={page >= found.data.last_page}
                onClick={() => onPage(page + 1)}
              >
                Next
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}
