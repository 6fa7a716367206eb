/**
 * `GET /user/current` (spec 001 §7, "Profile, teams, members"): who is signed in.
 *
 * TODO: move `CurrentUser` to `shared/` beside the handler's `currentUser()` once the auth
 * feature publishes a schema, so both sides read one definition.
 */
import { api, ApiError } from './client.ts';

/** A team the user belongs to, with the user's role in it (`owner` or a team role). */
export interface TeamMembership {
  id: string;
  role: string;
}

/** The signed-in user as `GET /user/current` answers (spec 001 §3 User, the fields so far). */
export interface CurrentUser {
  id: string;
  name: string;
  email: string;
  photo_url: string | null;
  isAdmin: boolean;
  current_team_id: string | null;
  two_factor_enabled: boolean;
  /** The address is confirmed (a verification link or an invitation code; docs/security.md). */
  email_verified: boolean;
  /** The use case picked in onboarding (shared/onboarding.ts), `null` before. */
  onboarding_use_case: string | null;
  teams: TeamMembership[];
}

/**
 * Loads the current user.
 *
 * @returns the user, or `null` when signed out (the API answers 401).
 * @throws {ApiError} for any other failure, or when the answer is not a user.
 */
export async function fetchCurrentUser(signal?: AbortSignal): Promise<CurrentUser | null> {
  let body: unknown;
  try {
    body = await api<unknown>('GET', '/user/current', undefined, { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
  const user = toCurrentUser(body);
  if (!user) throw new ApiError(200, 'The current user came in a shape this page does not know.');
  return user;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks the untrusted answer; optional fields get safe defaults. */
function toCurrentUser(v: unknown): CurrentUser | undefined {
  if (!isRecord(v) || typeof v.id !== 'string' || typeof v.email !== 'string') return undefined;
  const teams = Array.isArray(v.teams) ? v.teams : [];
  return {
    id: v.id,
    name: typeof v.name === 'string' ? v.name : v.email,
    email: v.email,
    photo_url: typeof v.photo_url === 'string' ? v.photo_url : null,
    isAdmin: v.isAdmin === true,
    current_team_id: typeof v.current_team_id === 'string' ? v.current_team_id : null,
    two_factor_enabled: v.two_factor_enabled === true,
    email_verified: v.email_verified === true,
    onboarding_use_case: typeof v.onboarding_use_case === 'string' ? v.onboarding_use_case : null,
    teams: teams.flatMap((t) =>
      isRecord(t) && typeof t.id === 'string'
        ? [{ id: t.id, role: typeof t.role === 'string' ? t.role : '' }]
        : [],
    ),
  };
}

/**
 * `POST /logout`: ends the session and clears its cookie (a POST with the CSRF headers, not
 * the spec's GET; docs/security.md "State changes are not GETs").
 * @returns where to go next (`/`).
 * @throws {ApiError} when the call fails (network, 5xx); the session may then still be open.
 */
export async function signOutOfServer(): Promise<string> {
  const body = await api<unknown>('POST', '/logout', {});
  const redirect =
    typeof body === 'object' && body !== null && 'redirect' in body ? body.redirect : undefined;
  return typeof redirect === 'string' && redirect.startsWith('/') ? redirect : '/';
}
