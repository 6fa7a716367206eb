import { useEffect } from 'react';
import { call, isApiError } from '../api/client.ts';
import { useAppStore } from '../state/store.ts';

/** docs/adr/0009-sessions-and-csrf.md "Sessions and CSRF": refresh every 240 000 ms … */
export const REFRESH_EVERY_MS = 240_000;
/** … and whenever 5 minutes have passed since the last refresh (a tab that slept) … */
export const REFRESH_AFTER_GAP_MS = 5 * 60_000;
/** … checked every 5000 ms. */
export const CHECK_EVERY_MS = 5_000;
/**
 * After a refresh that failed (the server down or unreachable), the next waits 10 s, then 20 s,
 * doubling up to this, ms (docs/adr/0068-failed-page-loads.md "Failed page loads"): a tab left open
 * through an outage asks a few times an hour, not every 5 s.
 */
export const RETRY_AT_MOST_MS = REFRESH_EVERY_MS;

/**
 * Keeps a signed-in user's session alive while the app is open (docs/adr/0009-sessions-and-csrf.md
 * "Sessions and CSRF" `PUT /spark/token`; "token refresh runs only for an authenticated user",
 * docs/billing.md "Flows"). A 401 from the refresh goes through the API client, which opens the
 * session-expired modal.
 */
export function useSessionKeepAlive(): void {
  // Not while the session-expired modal is open: there is no session to keep.
  const signedIn = useAppStore((s) => s.user !== null && !s.sessionExpired);
  useEffect(() => {
    if (!signedIn) return undefined;
    let last = Date.now();
    let inFlight = false;
    /** Refreshes failed in a row (at most 16 counted) and when the next may be tried (ms). */
    let failures = 0;
    let retryAt = 0;
    const refresh = async () => {
      if (inFlight) return;
      inFlight = true;
      try {
        await call('PUT /spark/token', {});
        last = Date.now();
        failures = 0;
        retryAt = 0;
      } catch (error) {
        failures = Math.min(failures + 1, 16);
        retryAt = Date.now() + Math.min(CHECK_EVERY_MS * 2 ** failures, RETRY_AT_MOST_MS);
        if (!isApiError(error) || error.status !== 401)
          console.error('session refresh failed', error);
      } finally {
        inFlight = false;
      }
    };
    const timer = window.setInterval(() => {
      const now = Date.now();
      const since = now - last;
      if (now < retryAt) return;
      if (since >= REFRESH_EVERY_MS || since >= REFRESH_AFTER_GAP_MS) void refresh();
    }, CHECK_EVERY_MS);
    return () => window.clearInterval(timer);
  }, [signedIn]);
}
