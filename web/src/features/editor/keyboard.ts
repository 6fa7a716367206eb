/**
 * Keyboard shortcuts of the editor (issue 6 "Keyboard"; the commands declare them, commands.ts):
 * Ctrl/⌘+Z undo, Ctrl/⌘+Shift+Z and Ctrl+Y redo, Delete/Backspace delete the selection, arrows
 * nudge 1 px (Shift: 10 px), Escape deselects. Pure matching here; the page listens.
 *
 * While the user types in a field, the field keeps its keys: its own undo, Backspace, arrows.
 */
import { COMMANDS, type CommandArgs, type CommandName, type Shortcut } from './commands.ts';

/** The parts of a `KeyboardEvent` the matching reads. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** A matched shortcut: the command and its arguments. */
export interface ShortcutMatch {
  name: CommandName;
  args: unknown;
}

/**
 * Whether `press` is the combination `keys` (`Mod+Shift+z`, `Ctrl+y`, `Shift+ArrowLeft`,
 * `Delete`). `Mod` is ⌘ on a Mac and Ctrl elsewhere; `Ctrl` is Ctrl everywhere. Letters compare
 * without case (Shift+Z reports `Z`). Modifiers not named must not be held.
 */
export function matchesKeys(press: KeyPress, keys: string, mac: boolean): boolean {
  const parts = keys.split('+');
  const key = parts.pop()!;
  const wants = new Set(parts);
  const mod = wants.has('Mod');
  const ctrl = wants.has('Ctrl') || (mod && !mac);
  const meta = mod && mac;
  const sameKey =
    key.length === 1 ? press.key.toLowerCase() === key.toLowerCase() : press.key === key;
  return (
    sameKey &&
    press.ctrlKey === ctrl &&
    press.metaKey === meta &&
    press.shiftKey === wants.has('Shift') &&
    press.altKey === wants.has('Alt')
  );
}

/**
 * The command a key press runs, if any.
 * @param typing true when focus is in a text field (input, textarea, select, contenteditable):
 *   then no shortcut applies, so the field's own undo, Delete and arrows work.
 * @param mac whether `Mod` means ⌘.
 */
export function shortcutFor(press: KeyPress, typing: boolean, mac: boolean): ShortcutMatch | null {
  if (typing) return null;
  for (const name of Object.keys(COMMANDS) as CommandName[]) {
    const shortcuts = COMMANDS[name].shortcuts as readonly Shortcut<CommandArgs[typeof name]>[];
    const hit = shortcuts.find((s) => matchesKeys(press, s.keys, mac));
    if (hit) return { name, args: hit.args };
  }
  return null;
}

/** How a shortcut reads on a button's title: `Ctrl+Shift+Z` or `⌘⇧Z`. */
export function shortcutLabel(keys: string, mac: boolean): string {
  const parts = keys.split('+').map((p) => (p.length === 1 ? p.toUpperCase() : p));
  if (!mac) return parts.map((p) => (p === 'Mod' ? 'Ctrl' : p)).join('+');
  const symbols: Record<string, string> = { Mod: '⌘', Shift: '⇧', Ctrl: '⌃', Alt: '⌥' };
  return parts.map((p) => symbols[p] ?? p).join('');
}
