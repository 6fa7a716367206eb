/**
 * The history intent of a command run, for the image and sticker commands (commands/image.ts,
 * commands/stickers.ts): the same rule as commands.ts, kept apart so these modules need nothing
 * at run time from commands.ts (which imports them).
 */
import type { EditorCommand } from '../commands.ts';
import type { ChangeIntent } from '../store/designSlice.ts';

/**
 * The `applyChange` intent of a run of `command`: its event type and label; a `merge` command
 * merges by `mergeKey` (its name by default), a `step` command never merges.
 * @throws Error for a command whose history intent is `none`.
 */
export function changeIntent(
  command: Pick<EditorCommand<never>, 'name' | 'label' | 'history'>,
  mergeKey?: string,
): ChangeIntent {
  const history = command.history;
  if (history.kind === 'none') throw new Error(`${command.name} records no history`);
  return {
    eventType: history.eventType,
    label: command.label,
    mergeKey: history.kind === 'merge' ? (mergeKey ?? command.name) : null,
  };
}
