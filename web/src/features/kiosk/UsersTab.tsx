import { useCallback, useState } from 'react';
import type { KioskTabProps } from './tab.ts';
import { UserProfile } from './users/UserProfile.tsx';
import { UserSearch } from './users/UserSearch.tsx';
import './users/kiosk-users.css';

/**
 * The kiosk's Users tab (docs/kiosk.md
 * "Users, impersonation and discounts"): `#/users` is the search,
 * `#/users/{id}` a profile. The search text and page live here, so going back from a profile
 * finds the search as it was left.
 */
export function UsersTab({ rest, go }: KioskTabProps) {
  const [text, setText] = useState('');
  const [page, setPage] = useState(1);
  const back = useCallback(() => go('users'), [go]);
  if (rest) return <UserProfile id={rest} back={back} />;
  return (
    <UserSearch
      text={text}
      page={page}
      onText={(next) => {
        setText(next);
        setPage(1);
      }}
      onPage={setPage}
      open={(id) => go('users', id)}
    />
  );
}
