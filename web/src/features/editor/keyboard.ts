/**
 * Keyboard shortcuts of the editor (docs/editor.md "Commands"; the commands declare them,
 * commands.ts): Ctrl/⌘+Z undo, Ctrl/⌘+Shift+Z and Ctrl+Y redo, Delete/Backspace delete the
 * selection, arrows nudge 1 px (Shift: 10 px), Escape deselects. Pure matching here; the page
 * listens.
 *
 * While the user types in a field, the field keeps its keys (Backspace, arrows, Escape), except
 * undo and redo in the fields that edit the document (the snippet text, a sticker's fallback):
 * those run the editor's undo and redo (`historyShortcutFor`), so there is one history. A
 * focused control that moves with the arrow keys (a radio group, a slider, a select, a list)
 * keeps them too: they must not nudge the selected object at the same time.
 */
import { COMMANDS, type CommandArgs, type CommandName, type Shortcut } from './commands.ts';

/** Whether `Mod` means ⌘ on this device. */
export const IS_MAC =
  typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || '');

/** The parts of a `KeyboardEvent` the matching reads. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  /** Where the key went (a `KeyboardEvent`'s target); arrows stay with arrow-driven controls. */
  target?: EventTarget | null;
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
 *   then no shortcut applies, so the field's own Delete and arrows work (a field that edits the
 *   document routes undo and redo itself, `historyShortcutFor`). Arrow keys on a control that
 *   moves with them (`movesWithArrows`) are the control's too.
 * @param mac whether `Mod` means ⌘.
 */
export function shortcutFor(press: KeyPress, typing: boolean, mac: boolean): ShortcutMatch | null {
  if (typing) return null;
  if (ARROW_KEYS.has(press.key) && movesWithArrows(press.target)) return null;
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

const ARROW_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown']);

/** Input types whose value the arrow keys change (a radio moves the group's choice). */
const ARROW_INPUT_TYPES = new Set(['radio', 'range', 'number', 'date', 'time']);

/** ARIA roles whose widgets move with the arrow keys (WAI-ARIA APG keyboard patterns). */
const ARROW_ROLES = new Set([
  'radio',
  'radiogroup',
  'slider',
  'spinbutton',
  'listbox',
  'option',
  'menu',
  'menuitem',
  'menuitemradio',
  'tab',
  'tablist',
  'tree',
  'treeitem',
  'grid',
  'gridcell',
]);

/** The DOM parts `movesWithArrows` reads (duck-typed: the unit tests run without a DOM). */
interface ElementLike {
  tagName?: unknown;
  type?: unknown;
  getAttribute?: (name: string) => string | null;
}

/**
 * Whether a focused element uses the arrow keys itself (a radio, a slider, a select, a number
 * field, or an ARIA widget such as a listbox or a tab list), so they must not also nudge the
 * selected object.
 */
export function movesWithArrows(target: EventTarget | null | undefined): boolean {
  const element = target as ElementLike | null | undefined;
  if (!element || typeof element.tagName !== 'string') return false;
  const tag = element.tagName.toUpperCase();
  if (tag === 'SELECT') return true;
  if (tag === 'INPUT' && typeof element.type === 'string' && ARROW_INPUT_TYPES.has(element.type))
    return true;
  const role = element.getAttribute?.('role');
  return typeof role === 'string' && ARROW_ROLES.has(role);
}

/**
 * The editor's undo or redo a key press asks for, from the undo and redo commands' own
 * shortcuts (Ctrl/⌘+Z; Ctrl/⌘+Shift+Z, Ctrl+Y), or null. The fields that edit the document
 * call it in their key handler and, on a match, prevent the browser's own undo (which would
 * change the field's text behind the document's back) and run the command instead.
 */
export function historyShortcutFor(press: KeyPress, mac: boolean): 'undo' | 'redo' | null {
  for (const name of ['undo', 'redo'] as const) {
    if (COMMANDS[name].shortcuts.some((s) => matchesKeys(press, s.keys, mac))) return name;
  }
  return null;
}

/** The browser's history input types (Input Events: the Edit menu's or a gesture's undo). */
export function historyInputType(inputType: string): 'undo' | 'redo' | null {
  if (inputType === 'historyUndo') return 'undo';
  if (inputType === 'historyRedo') return 'redo';
  return null;
}

/**
 * Where the caret goes in a field whose text an undo or redo replaced: at the end of the part
 * that changed (after the text that came back, or where text went), as text editors place it.
 * @returns an offset into `after`, UTF-16 code units.
 */
export function caretAfterChange(before: string, after: string): number {
  let start = 0;
  const shortest = Math.min(before.length, after.length);
  while (start < shortest && before[start] === after[start]) start++;
  let end = 0;
  while (
    end < shortest - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  )
    end++;
  return after.length - end;
}
