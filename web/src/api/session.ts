/**
 * `GET /user/current` (docs/security.md "Sessions and tokens", "Profile, teams, members"): who is
 * signed in, and `POST /logout`. The user's shape is the route's contract (shared/contract/auth.ts
 * `CurrentUserSchema`), which the server's answers are checked against.
 */
import type { CurrentUser } from '#shared/contract/auth.ts';
import { ApiError, call } from './client.ts';

export type { CurrentUser } from '#shared/contract/auth.ts';

/**
 * Loads the current user.
 *
 * @returns the user, or `null` when signed out (the API answers 401).
 * @throws {ApiError} for any other failure.
 */
export async function fetchCurrentUser(signal?: AbortSignal): Promise<CurrentUser | null> {
  try {
    return await call('GET /user/current', { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/**
 * `POST /logout`: ends the session and clears its cookie (a POST with the CSRF headers, not
 * the spec's GET; docs/security.md "State changes are not GETs").
 * @returns where to go next: the answer's `redirect` when it is a path on this site, else `/`.
 * @throws {ApiError} when the call fails (network, 5xx); the session may then still be open.
 */
export async function signOutOfServer(): Promise<string> {
  const { redirect } = await call('POST /logout', {});
  return redirect.startsWith('/') ? redirect : '/';
}
