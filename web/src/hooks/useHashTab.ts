import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

/**
 * The active tab, kept in the address as `#/{tab}/{rest}` (spec 001 §2): `select` pushes the
 * hash (a history entry, so back/forward re-activate tabs); an empty or unknown hash means the
 * first tab. `replace` is for keyboard moves between tabs, which should not fill the history.
 */
export function useHashTab<T extends string>(
  tabs: readonly T[],
): { tab: T; select: (tab: T, options?: { replace?: boolean }) => void } {
  const { hash } = useLocation();
  const navigate = useNavigate();
  const wanted = hash.replace(/^#\/?/, '').split('/')[0] ?? '';
  const tab = (tabs as readonly string[]).includes(wanted) ? (wanted as T) : (tabs[0] as T);
  const select = useCallback(
    (next: T, options: { replace?: boolean } = {}) => {
      navigate({ hash: `#/${next}` }, { replace: options.replace ?? false });
    },
    [navigate],
  );
  return { tab, select };
}
