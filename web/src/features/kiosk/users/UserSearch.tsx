import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDebouncedValue } from '../../../hooks/useDebouncedValue.ts';
import { KioskSearch } from '../shared/KioskSearch.tsx';
import { kioskKeys, searchUsers } from './api.ts';
import { formatDay } from '../../../lib/format.ts';

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
  const query = useDebouncedValue(text.trim(), SEARCH_DELAY_MS);
  const found = useQuery({
    queryKey: kioskKeys.userSearch(query, page),
    queryFn: ({ signal }) => searchUsers(query, page, signal),
    placeholderData: keepPreviousData,
  });
  return (
    <KioskSearch
      title="Users"
      label="Search users by name or e-mail"
      noun="users"
      text={text}
      onText={onText}
      query={found}
    >
      {(users) => (
        <>
          <p className="muted" role="status">
            {users.total === 1 ? '1 user found' : `${users.total} users found`}
          </p>
          {users.data.length > 0 && (
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
                {users.data.map((user) => (
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
                    <td>{user.created_at ? formatDay(user.created_at) : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {users.last_page > 1 && (
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
                Page {users.current_page} of {users.last_page}
              </span>
              <button
                type="button"
                className="button button--small button--secondary"
                disabled={page >= users.last_page}
                onClick={() => onPage(page + 1)}
              >
                Next
              </button>
            </nav>
          )}
        </>
      )}
    </KioskSearch>
  );
}
