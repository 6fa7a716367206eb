/**
 * Reads that several screens share, as TanStack Query options (key, read, freshness), so each
 * screen that shows them reads and caches them the same way (docs/adr/0045-server-state.md "Server
 * state"). A screen's own reads stay beside it.
 */
import { queryOptions } from '@tanstack/react-query';
import { fetchCurrentTeam } from '../api/designs.ts';
import { fetchPlans } from '../api/plans.ts';
import { fetchTeams } from '../api/settings.ts';
import { STALE_TIME } from '../state/queryClient.ts';
import { queryKeys } from '../state/queryKeys.ts';

/**
 * The plans (registration, the subscription tabs). `fetchPlans` never fails: a failed read
 * answers the free plan alone, which stays fresh for no time, so the next screen asks again.
 */
export const plansQuery = () =>
  queryOptions({
    queryKey: queryKeys.reference.plans,
    queryFn: ({ signal }) => fetchPlans(signal),
    staleTime: (query) =>
      query.state.data?.source === 'fallback' ? STALE_TIME.account : STALE_TIME.reference,
  });

/** The user's teams (`GET /settings/companies`): the companies tab, the subscription tab. */
export const teamsQuery = () =>
  queryOptions({
    queryKey: queryKeys.teams.list,
    queryFn: ({ signal }) => fetchTeams(signal),
  });

/** The flags of the current team `teamId` (the session's `current_team_id`). */
export const currentTeamQuery = (teamId: string) =>
  queryOptions({
    queryKey: queryKeys.teams.current(teamId),
    queryFn: ({ signal }) => fetchCurrentTeam(signal),
  });
