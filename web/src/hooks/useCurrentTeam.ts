import { useQuery } from '@tanstack/react-query';
import type { CurrentTeam } from '../api/designs.ts';
import { currentTeamQuery } from './queries.ts';
import { useAppStore } from '../state/store.ts';

/**
 * The current team's flags (docs/adr/0018-design-lists.md "Design lists" frozen,
 * docs/adr/0023-team-roles.md "Team roles" `can_export_pdf`), loaded again when the user switches
 * teams. While they load, or when they cannot be read, the team counts as not frozen and without
 * PDF export: the server refuses what a frozen team may not do anyway, and says why (403 with its
 * message).
 */
export function useCurrentTeam(): { team: CurrentTeam | null; loading: boolean } {
  const teamId = useAppStore((s) => s.user?.current_team_id ?? '');
  const read = useQuery(currentTeamQuery(teamId));
  return { team: read.data ?? null, loading: read.isPending };
}

/** A team's subscription settings (docs/adr/0023-team-roles.md "Team roles": "a link leads to /settings/companies/{teamId}#/subscription"). */
export const subscriptionPath = (teamId: string): string =>
  `/settings/companies/${encodeURIComponent(teamId)}#/subscription`;
