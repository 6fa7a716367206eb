/**
 * The change hook of the sticker panels whose settings a shared schema checks (countdown timer,
 * poll, weather, live crop; docs/editor.md "Countdown timer", "Poll", "Weather", "Live web
 * crop"): runs the panel's command
 * and answers the refused fields' messages instead of throwing, so a field can show them.
 */
import { useCallback } from 'react';
import { runCommandWith } from '../commands.ts';
import { SettingsError, type StickerCommandArgs } from '../commands/stickers.ts';
import { useEditorContext } from '../EditorContext.tsx';

/** The commands that change one kind of sticker settings with a patch. */
type SettingsCommand = 'setCountdown' | 'setPoll' | 'setWeather' | 'setWebCrop';

/**
 * Runs `name` on sticker `id` with a patch (`step`: an undo step of its own, where the command
 * takes it); answers the refused fields' messages, or null when the change was made.
 */
export function useSettingsChange<N extends SettingsCommand>(
  name: N,
  id: string,
): (patch: StickerCommandArgs[N]['patch'], step?: boolean) => Record<string, string> | null {
  const { store } = useEditorContext();
  return useCallback(
    (patch, step) => {
      try {
        runCommandWith(store, name, { id, patch, step });
        return null;
      } catch (e) {
        if (e instanceof SettingsError) return e.errors;
        throw e;
      }
    },
    [store, name, id],
  );
}
