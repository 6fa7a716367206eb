import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

/**
 * Splits a location hash of the form `#/{tab}/{rest}` (docs/accounts.md "Screens") into the tab and
 * the rest (`''` when absent): `#/users/42/notes` → `{ tab: 'users', rest: '42/notes' }`.
 */
export function parseTabHash(hash: string): { tab: string; rest: string } {
  const [tab = '', ...rest] = hash.replace(/^#\/?/, '').split('/');
  return { tab, rest: rest.join('/') };
}

/**
 * The active tab, kept in the address as `#/{tab}/{rest}` (docs/accounts.md "Screens"): `select`
 * pushes the hash (a history entry, so back/forward re-activate tabs); an empty or unknown hash
 * means the first tab, with no rest. `rest` names something inside the tab (the kiosk's
 * `#/users/{id}`); `replace` is for keyboard moves between tabs, which should not fill the history.
 */
export function useHashTab<T extends string>(
  tabs: readonly T[],
): {
  tab: T;
  rest: string;
  select: (tab: T, options?: { replace?: boolean; rest?: string }) => void;
} {
  const { hash } = useLocation();
  const navigate = useNavigate();
  const wanted = parseTabHash(hash);
  const known = (tabs as readonly string[]).includes(wanted.tab);
  const tab = known ? (wanted.tab as T) : (tabs[0] as T);
  const select = useCallback(
    (next: T, options: { replace?: boolean; rest?: string } = {}) => {
      const rest = options.rest ? `/${options.rest.replace(/^\/+/, '')}` : '';
      navigate({ hash: `#/${next}${rest}` }, { replace: options.replace ?? false });
    },
    [navigate],
  );
  return { tab, rest: known ? wanted.rest : '', select };
}
