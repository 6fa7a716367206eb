import { fetchCurrentTeam, type CurrentTeam } from '../../api/designs.ts';
import { useLoad } from '../../hooks/useLoad.ts';
import { useAppStore } from '../../state/store.ts';

/**
 * The current team's flags (spec 000 §4 frozen, §6 `can_export_pdf`), loaded again when the
 * user switches teams. While they load, or when they cannot be read, the team counts as not
 * frozen and without PDF export: the server refuses what a frozen team may not do anyway, and
 * says why (403 with its message).
 */
export function useCurrentTeam(): { team: CurrentTeam | null; loading: boolean } {
  const teamId = useAppStore((s) => s.user?.current_team_id ?? '');
  const load = useLoad((signal) => fetchCurrentTeam(signal), `current-team:${teamId}`);
  return {
    team: load.state === 'ready' ? load.data : null,
    loading: load.state === 'loading',
  };
}

/** A team's subscription settings (spec 000 §6 "a link leads to /settings/companies/{teamId}#/subscription"). */
export const subscriptionPath = (teamId: string): string =>
  `/settings/companies/${encodeURIComponent(teamId)}#/subscription`;
