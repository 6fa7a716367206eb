/**
 * The session slice of the app store: who is signed in.
 *
 * The user comes from `GET /user/current` (docs/adr/0009-sessions-and-csrf.md "Sessions and CSRF"),
 * loaded once when the app starts and again after anything that changes the session (sign-in,
 * registration). Signing out is `POST /logout` (with the CSRF headers; the spec's GET is refused,
 * docs/security.md "State changes are not GETs"), then a full page load of home.
 *
 * docs/adr/0040-session-expiry-keeps-the-work.md "Session expiry keeps the work": "HTTP 401: the
 * client logs out and opens a session-expired modal": any call answered 401 while a user is known
 * sets `sessionExpired`, which opens the modal (`SessionExpiredModal`), where the user signs in
 * again. The last known `user` is kept meanwhile, so the page behind the modal (whose loads and
 * keys follow the user and the current team) stays as it was, with what was typed and the editor's
 * unsaved changes; keep-alive stops (`useSessionKeepAlive`). Signing in again as the same user
 * clears the flag and the page goes on; the editor then saves what the 401 kept from the server
 * (docs/adr/0040-session-expiry-keeps-the-work.md "Session expiry keeps the work"). A 401 from
 * `/user/current` with no user known simply means "signed out".
 */
import type { StateCreator } from 'zustand';
import { isApiError, GENERIC_ERROR_MESSAGE } from '../api/client.ts';
import { fetchCurrentUser, signOutOfServer, type CurrentUser } from '../api/session.ts';

/**
 * - `loading`: the first `/user/current` has not answered yet (the header waits);
 * - `ready`: `user` is known (`null` when signed out);
 * - `error`: the check failed (network, server error); `user` is `null` and `sessionError`
 *   says why. The app then behaves as signed out.
 */
export type SessionStatus = 'loading' | 'ready' | 'error';

export interface SessionState {
  sessionStatus: SessionStatus;
  user: CurrentUser | null;
  sessionError: string | null;
  /**
   * A call was answered 401 while signed in: the session-expired modal is open and `user` is
   * the user the session was for, until someone signs in again.
   */
  sessionExpired: boolean;
}

export interface SessionActions {
  /** Loads the user unless a load has already started; for the app's start. */
  loadSession: () => Promise<void>;
  /**
   * Asks the server again who is signed in and stores the answer.
   * @returns the user, or `null` when signed out or when the check failed (never throws).
   */
  refreshSession: () => Promise<CurrentUser | null>;
  /** Ends the session: `POST /logout`, then a full page load of home (also if the call fails). */
  signOut: () => void;
  /** docs/adr/0040-session-expiry-keeps-the-work.md "Session expiry keeps the work": the server answered 401 to a signed-in user; the client logs out. */
  expireSession: () => void;
}

export type SessionSlice = SessionState & SessionActions;

/** The state before anything is known; tests reset the store to it. */
export const initialSessionState: SessionState = {
  sessionStatus: 'loading',
  user: null,
  sessionError: null,
  sessionExpired: false,
};

export const createSessionSlice: StateCreator<SessionSlice, [], [], SessionSlice> = (set, get) => {
  let started = false;
  // Only the latest request may write: a slow early answer must not undo a later sign-in.
  let latest = 0;

  const refreshSession = async (): Promise<CurrentUser | null> => {
    started = true;
    const request = ++latest;
    try {
      const user = await fetchCurrentUser();
      if (request === latest) {
        if (user) set({ sessionStatus: 'ready', user, sessionError: null, sessionExpired: false });
        // While the modal is open, the page keeps the user it was drawn for.
        else if (!get().sessionExpired) set({ sessionStatus: 'ready', user, sessionError: null });
      }
      return user;
    } catch (error) {
      console.error('GET /user/current failed', error);
      if (request === latest && !get().sessionExpired) {
        set({
          sessionStatus: 'error',
          user: null,
          sessionError: isApiError(error) ? error.message : GENERIC_ERROR_MESSAGE,
        });
      }
      return null;
    }
  };

  return {
    ...initialSessionState,
    loadSession: async () => {
      if (started) return;
      await get().refreshSession();
    },
    refreshSession,
    signOut: () => {
      void signOutOfServer()
        .catch(() => '/')
        .then((next) => window.location.assign(next));
    },
    expireSession: () => {
      if (!get().user || get().sessionExpired) return;
      // A newer answer than any /user/current still on its way.
      latest++;
      set({ sessionStatus: 'ready', sessionExpired: true });
    },
  };
};
