import { useQuery } from '@tanstack/react-query';
import type { WatermarkSettings } from '#shared/scene/watermark.ts';
import type { CurrentTeam } from '../../../api/designs.ts';
import { currentTeamQuery } from '../../../hooks/queries.ts';
import { useAppStore } from '../../../state/store.ts';

/** No watermarks: while the team loads, or when it cannot be read (the render decides anyway). */
const NONE: WatermarkSettings = { team: null, productMark: false };

/**
 * The current team (the editor opens its designs) and its watermark settings for the editor's
 * preview (docs/adr/0057-watermark.md "Watermark"): its image and whether its plan asks for the
 * product mark. The settings object keeps its identity while the team's answer does not change.
 */
export function useWatermarkSettings(): { team: CurrentTeam | null; settings: WatermarkSettings } {
  const teamId = useAppStore((s) => s.user?.current_team_id ?? '');
  const read = useQuery({
    ...currentTeamQuery(teamId),
    select: (team) => ({
      team,
      settings: { team: team.watermark, productMark: team.product_watermark },
    }),
  });
  return read.data ?? { team: null, settings: NONE };
}
