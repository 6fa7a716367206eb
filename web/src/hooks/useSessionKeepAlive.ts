import { useEffect } from 'react';
import { call, isApiError } from '../api/client.ts';
import { useAppStore } from '../state/store.ts';

/** docs/decisions.md "Sessions and CSRF": refresh every 240 000 ms … */
export const REFRESH_EVERY_MS = 240_000;
/** … and whenever 5 minutes have passed since the last refresh (a tab that slept) … */
export const REFRESH_AFTER_GAP_MS = 5 * 60_000;
/** … checked every 5000 ms. */
export const CHECK_EVERY_MS = 5_000;

/**
 * Keeps a signed-in user's session alive while the app is open (docs/decisions.md "Sessions and CSRF" `PUT /spark/token`;
 * "token refresh runs only for an authenticated user", docs/billing.md "Flows"). A 401 from the refresh
 * goes through the API client, which opens the session-expired modal.
 */
export function useSessionKeepAlive(): void {
  // Not while the session-expired modal is open: there is no session to keep.
  const signedIn = useAppStore((s) => s.user !== null && !s.sessionExpired);
  useEffect(() => {
    if (!signedIn) return undefined;
    let last = Date.now();
    let inFlight = false;
    const refresh = async () => {
      if (inFlight) return;
      inFlight = true;
      try {
        await call('PUT /spark/token', {});
        last = Date.now();
      } catch (error) {
        if (!isApiError(error) || error.status !== 401)
          console.error('session refresh failed', error);
      } finally {
        inFlight = false;
      }
    };
    const timer = window.setInterval(() => {
      const since = Date.now() - last;
      if (since >= REFRESH_EVERY_MS || since >= REFRESH_AFTER_GAP_MS) void refresh();
    }, CHECK_EVERY_MS);
    return () => window.clearInterval(timer);
  }, [signedIn]);
}
