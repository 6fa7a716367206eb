import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Notice } from '../../../components/Notice.tsx';
import { fetchTeam } from '../../../api/settings.ts';
import { queryKeys } from '../../../state/queryKeys.ts';
import { useAppStore } from '../../../state/store.ts';
import { FONT_LOAD_FAILED, FontPicker, loadFont } from '../../fonts/index.ts';

/**
 * Whether the current team may upload fonts (docs/adr/0023-team-roles.md "Team roles"
 * `can_upload_custom_fonts`); false until known, and when the team cannot be read. The team is the
 * cached one of the team settings, read again after a plan change.
 */
function useTeamCanUpload(): boolean {
  const teamId = useAppStore((s) => s.user?.current_team_id ?? '');
  const read = useQuery({
    queryKey: queryKeys.teams.one(teamId),
    queryFn: ({ signal }) => fetchTeam(teamId, signal),
    enabled: teamId !== '',
    select: (team) => team.can_upload_custom_fonts,
  });
  return read.data === true;
}

/** How a snippet's family is drawn, as far as the toolbar needs to know. */
export interface FontState {
  /** Unknown to the catalogue (the default font draws it, docs/editor.md "Messages") or its files failed. */
  failed: boolean;
  /** One of the team's uploaded fonts: no bold or italic (docs/editor.md "Editing rules"). */
  uploaded: boolean;
}

/**
 * Loads the snippet's family (`loadFont`) and says whether it cannot be drawn or is an
 * uploaded font; both false until known.
 */
export function useFontState(family: string): FontState {
  const [state, setState] = useState<FontState & { family: string }>({
    family,
    failed: false,
    uploaded: false,
  });
  useEffect(() => {
    let live = true;
    loadFont(family).then(
      (r) =>
        live &&
        setState({ family, failed: r.source === 'fallback', uploaded: r.source === 'custom' }),
      () => live && setState({ family, failed: true, uploaded: false }),
    );
    return () => {
      live = false;
    };
  }, [family]);
  return state.family === family ? state : { failed: false, uploaded: false };
}

/**
 * The text toolbar's font family (docs/editor.md "Architecture"): the font picker of
 * web/src/features/fonts (the catalogue, the built-in fonts of docs/editor.md "Constants", the
 * team's uploads), which hands on a family only once its faces have loaded, so the canvas measures
 * the text with the real face. A family that cannot be drawn says so with the docs/editor.md
 * "Messages" message.
 */
export function FontFamilyField({
  value,
  failed,
  onChange,
}: {
  value: string;
  /** The family cannot be drawn (`useFontState`). */
  failed: boolean;
  /** Called with the chosen family after it loaded. */
  onChange: (family: string) => void;
}) {
  const teamCanUpload = useTeamCanUpload();
  return (
    <div className="field text-toolbar__font">
      <span className="field__label" aria-hidden="true">
        Font
      </span>
      <FontPicker value={value} onChange={onChange} teamCanUpload={teamCanUpload} />
      {failed && <Notice tone="error">{FONT_LOAD_FAILED}</Notice>}
    </div>
  );
}
