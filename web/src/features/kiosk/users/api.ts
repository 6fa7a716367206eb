/**
 * The kiosk's user and team calls (docs/kiosk.md "Kiosk"; shared/contract/kiosk-users.ts) and
 * their query keys, in a `kiosk` family of their own: nothing else shows these answers.
 */
import type {
  AdditionalPermissionsInput,
  KioskDiscountInput,
} from '#shared/contract/kiosk-users.ts';
import { call } from '../../../api/client.ts';

export const kioskKeys = {
  all: ['kiosk'] as const,
  /** A page of the user search. */
  userSearch: (query: string, page: number) => ['kiosk', 'users', 'search', query, page] as const,
  user: (id: string) => ['kiosk', 'users', 'one', id] as const,
  teamSearch: (query: string) => ['kiosk', 'teams', 'search', query] as const,
  team: (id: string) => ['kiosk', 'teams', 'one', id] as const,
};

/** A page of users whose name or e-mail holds `query` (25 a page). @throws {ApiError} */
export const searchUsers = (query: string, page: number, signal: AbortSignal) =>
  call('POST /spark/kiosk/users/search', { body: { query, page }, signal });

/** A user's kiosk profile. @throws {ApiError} 404 for an unknown user. */
export const fetchUserProfile = (id: string, signal: AbortSignal) =>
  call('GET /spark/kiosk/users/{id}/profile', { params: { id }, signal });

/**
 * Starts impersonating the user; the server swaps the session cookie.
 * @returns where the browser goes next. @throws {ApiError} 403 for an admin.
 */
export const impersonate = async (id: string) =>
  (await call('POST /spark/kiosk/users/impersonate/{id}', { params: { id }, body: undefined }))
    .redirect;

/** Ends the impersonation; the admin's own session comes back. @returns where to go next. */
export const stopImpersonating = async () =>
  (await call('POST /spark/kiosk/users/stop-impersonating', {})).redirect;

/** Applies a discount (`value` dollars or percent). @throws {ApiError} 503 offline, 409, 422. */
export const addDiscount = (id: string, body: KioskDiscountInput) =>
  call('POST /spark/kiosk/users/discount/{id}', { params: { id }, body });

/** Teams whose name or slug holds `query` (at most 25). */
export const searchTeams = (query: string, signal: AbortSignal) =>
  call('POST /teams/search', { body: { query }, signal });

/** A team's kiosk profile. @throws {ApiError} 404 for an unknown team. */
export const fetchTeamProfile = (id: string, signal: AbortSignal) =>
  call('GET /custom/teams/{id}', { params: { id }, signal });

/** Saves a team's additional permissions; @returns the team's profile afterwards. */
export const savePermissions = async (id: string, body: AdditionalPermissionsInput) =>
  (await call('POST /custom/teams/{id}/additional_permissions', { params: { id }, body })).team;
