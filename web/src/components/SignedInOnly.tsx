import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useAppStore } from '../state/store.ts';
import { PageLoading } from './Spinner.tsx';

/**
 * Renders its children for a signed-in user; sends a signed-out visitor to /login, which comes
 * back here after signing in (`state.from`). While the first `/user/current` is on its way it
 * shows `loading` ("Loading…" unless the page names what it loads). After a 401 the page stays,
 * behind the session-expired modal, which offers to sign in again
 * (docs/adr/0040-session-expiry-keeps-the-work.md "Session expiry keeps the work").
 */
export function SignedInOnly({
  children,
  loading = 'Loading…',
}: {
  children: ReactNode;
  loading?: string;
}) {
  const status = useAppStore((s) => s.sessionStatus);
  const user = useAppStore((s) => s.user);
  const expired = useAppStore((s) => s.sessionExpired);
  const location = useLocation();
  if (status === 'loading') return <PageLoading>{loading}</PageLoading>;
  if (!user && !expired) return <Navigate to="/login" replace state={{ from: location }} />;
  return children;
}
