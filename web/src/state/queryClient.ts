/**
 * The SPA's one TanStack Query client: the server state (lists, pages of lists, the records a
 * screen shows) is cached here, keyed by `queryKeys` (./queryKeys.ts), while the zustand store
 * keeps the client state (the session, the editor's document). docs/adr/0045-server-state.md
 * "Server state".
 */
import { isCancelledError, QueryCache, QueryClient } from '@tanstack/react-query';
import { GENERIC_ERROR_MESSAGE, isApiError } from '../api/client.ts';
import { SESSION_EXPIRED_MESSAGE } from '../lib/formFailure.ts';

/** How many times a failed read is asked again (network failures and 5xx only). */
export const MAX_RETRIES = 2;

/** The first retry waits this long, ms; each further one twice as long. */
const RETRY_BASE_MS = 500;

/** No retry waits longer than this, ms. */
const RETRY_MAX_MS = 4000;

/**
 * How long a read stays fresh, ms: while fresh, a screen that mounts shows the cached answer
 * without asking again. Stale answers still show at once, and are read again behind them.
 * - `account`: what the user's actions or other screens change (designs, teams, tokens,
 *   billing): read again on every mount, kept up to date by the mutations in between;
 * - `library`: the shared libraries (pictures, stickers, templates), changed by admins
 *   elsewhere; the user's own changes update or invalidate them;
 * - `reference`: what only a deployment changes (roles, token abilities, plans).
 */
export const STALE_TIME = {
  account: 0,
  library: 5 * 60_000,
  reference: 60 * 60_000,
} as const;

/**
 * Whether a failed read is asked again: only when the failure may pass, a network failure
 * (status 0) or a 5xx other than 501 (not built on this server), at most {@link MAX_RETRIES}
 * times. A 4xx is the server's answer and stays one (a 401 opens the session-expired modal,
 * a 403 or 404 will not change); anything that is not an `ApiError` is a bug or a refusal of
 * the SPA's own (an abort, an unreadable answer), not worth repeating.
 * @param failureCount failures so far, less one (TanStack counts from 0).
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES || !isApiError(error)) return false;
  return error.status === 0 || (error.status >= 500 && error.status !== 501);
}

/** The wait before retry `failureCount + 1`, ms: 0.5 s, 1 s, 2 s … up to 4 s. */
export const retryDelay = (failureCount: number): number =>
  Math.min(RETRY_BASE_MS * 2 ** failureCount, RETRY_MAX_MS);

/**
 * The message for a read that failed (docs/adr/0040-session-expiry-keeps-the-work.md "Session
 * expiry keeps the work"): the answer's message, the session-expired one for a 401 (the modal opens
 * as well), else the generic one (the client's cache logs that failure, as it is a bug or a
 * surprise).
 */
export function loadFailure(error: unknown): string {
  if (!isApiError(error)) return GENERIC_ERROR_MESSAGE;
  return error.status === 401 ? SESSION_EXPIRED_MESSAGE : error.message;
}

/**
 * A client with the SPA's defaults:
 * - reads retry per {@link shouldRetry}, waiting {@link retryDelay}; writes never retry (the
 *   user sees the failure and decides);
 * - reads are fresh for {@link STALE_TIME}`.account` unless their options say otherwise;
 * - no refetch when the window regains focus: forms are filled from what was read, and a
 *   refresh under a user who is typing would be a surprise; a screen reads again when it mounts;
 * - `networkMode: 'always'`: a request is sent even when the browser believes it is offline, so
 *   a failure says "We could not reach PicSnippets" (the client's status 0) instead of waiting;
 * - a read that fails with anything but an `ApiError` is logged.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      // A failure that is not the server's answer is a bug or a surprise: logged once here.
      onError: (error) => {
        if (!isApiError(error) && !isCancelledError(error)) console.error(error);
      },
    }),
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        retryDelay,
        staleTime: STALE_TIME.account,
        refetchOnWindowFocus: false,
        networkMode: 'always',
      },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}

/** The app's client (main.tsx provides it to React; mutations outside React use it too). */
export const queryClient = createQueryClient();
