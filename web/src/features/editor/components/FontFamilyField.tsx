import { useEffect, useState } from 'react';
import { Notice } from '../../../components/Notice.tsx';
import { fetchTeam } from '../../../api/settings.ts';
import { useAppStore } from '../../../state/store.ts';
import {
  FONT_LOAD_FAILED,
  FontPicker,
  loadFont,
  registerAlwaysAvailableFonts,
} from '../../fonts/index.ts';

// The built-in and hosted families' @font-face rules are registered before the canvas first
// measures text, so a design opens drawn with its real faces (nothing downloads until used).
registerAlwaysAvailableFonts();

/**
 * Whether the current team may upload fonts (spec 000 §6 `can_upload_custom_fonts`); false
 * until known, and when the team cannot be read (logged).
 */
function useTeamCanUpload(): boolean {
  const teamId = useAppStore((s) => s.user?.current_team_id ?? null);
  const [canUpload, setCanUpload] = useState(false);
  useEffect(() => {
    if (!teamId) return;
    const controller = new AbortController();
    fetchTeam(teamId, controller.signal).then(
      (team) => setCanUpload(team.can_upload_custom_fonts),
      (error: unknown) => {
        if (!controller.signal.aborted) console.error('The team could not be read', error);
      },
    );
    return () => controller.abort();
  }, [teamId]);
  return canUpload;
}

/**
 * Whether the snippet's family cannot be drawn: unknown to the catalogue (then the default font
 * draws it, spec 000 §8 "Unknown fonts fall back to the default font") or its files failed.
 */
function useFontFailed(family: string): boolean {
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    loadFont(family).then(
      (resolution) => live && setFailed(resolution.source === 'fallback' ? family : null),
      () => live && setFailed(family),
    );
    return () => {
      live = false;
    };
  }, [family]);
  return failed === family;
}

/**
 * The text toolbar's font family (spec 000 §2): the font picker of web/src/features/fonts (the
 * catalogue, the built-in fonts of §9, the team's uploads), which hands on a family only once
 * its faces have loaded, so the canvas measures the text with the real face. A family that
 * cannot be drawn says so with the spec 000 §8 message.
 */
export function FontFamilyField({
  value,
  onChange,
}: {
  value: string;
  /** Called with the chosen family after it loaded. */
  onChange: (family: string) => void;
}) {
  const teamCanUpload = useTeamCanUpload();
  const failed = useFontFailed(value);
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
