import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { TextSnippet } from '#shared/design.ts';
import { runCommand } from '../commands.ts';
import { useEditorContext } from '../EditorContext.tsx';
import { caretAfterChange, historyInputType, historyShortcutFor } from '../keyboard.ts';
import { IS_MAC } from './EditorToolbar.tsx';
import {
  movePlaceholder,
  placeholderAtCaret,
  placeholderRanges,
  shiftPlaceholder,
  snapSelection,
  type PlaceholderRange,
  type TextSelection,
} from '../document/placeholders.ts';

/** The id of the selected snippet's text field (a double click on the canvas focuses it). */
export const SNIPPET_TEXT_FIELD_ID = 'editor-snippet-text';

/** The placeholder a selection covers exactly, or that a caret touches. */
function placeholderOf(text: string, selection: TextSelection): PlaceholderRange | null {
  const ranges = placeholderRanges(text);
  return (
    ranges.find((r) => r.start === selection.start && r.end === selection.end) ??
    (selection.start === selection.end
      ? (ranges.find((r) => r.start <= selection.start && selection.start <= r.end) ?? null)
      : null)
  );
}

/** Asks before leaving the page while a text snippet is being edited (docs/editor.md "Architecture"). */
function useUnloadWarning(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the warning only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [active]);
}

/**
 * A text snippet's text with `{{param}}` placeholders as whole units (docs/editor.md "Editing
 * rules": "Parameters inside text are selected or deleted as whole units"; docs/editor.md
 * "Commands": "Dragging a parameter"). A plain textarea, so typing, IME, spell-free editing and
 * screen readers behave as in any field, with its selection snapped:
 * - the caret skips over a placeholder (arrow keys); a click inside one selects all of it; a
 *   selection that cuts one grows to take it whole;
 * - Backspace just after a placeholder, or Delete just before it, removes it whole, and its
 *   parameter with it when it was the last (one undo step that re-adds both);
 * - a selected placeholder dragged to another place in the text moves there (one step);
 *   Alt+Left and Alt+Right move it one word, the keyboard way to do the same.
 * Undo and redo in the field (Ctrl/⌘+Z, Ctrl/⌘+Shift+Z, Ctrl+Y, or the browser's Edit menu) are
 * the editor's: one history, where a burst of typing is one step (store/history.ts merges it).
 * Escape leaves the field with the snippet still selected (the next Escape deselects it, as on
 * the canvas), unless it ends an IME composition.
 * While the field has focus, leaving the page asks first (docs/editor.md "Architecture": "unload
 * warning").
 */
export function SnippetTextField({
  snippet,
  describedBy,
}: {
  snippet: TextSnippet;
  describedBy: string;
}) {
  const { store } = useEditorContext();
  const ref = useRef<HTMLTextAreaElement>(null);
  const previous = useRef<TextSelection | null>(null);
  /** A selection to set once the text a command produced is in the field. */
  const pending = useRef<TextSelection | null>(null);
  /** The text being dragged inside the field (set when the browser starts moving it). */
  const dragged = useRef<TextSelection | null>(null);
  const [editing, setEditing] = useState(false);
  const id = snippet.id;
  useUnloadWarning(editing);

  /** Puts the pending selection in the field (after the command's text is rendered). */
  const applyPending = useCallback(() => {
    const field = ref.current;
    if (!field || !pending.current) return;
    field.setSelectionRange(pending.current.start, pending.current.end);
    previous.current = pending.current;
    pending.current = null;
  }, []);
  useLayoutEffect(applyPending);
  /** Runs a command that changes the text, then selects `selection` in the new text. */
  const edit = useCallback(
    (selection: TextSelection, run: () => void) => {
      pending.current = selection;
      run();
      // A command that changed nothing renders nothing: select now.
      queueMicrotask(applyPending);
    },
    [applyPending],
  );

  /**
   * Runs the editor's undo or redo instead of the field's own (one history, docs/editor.md): the
   * document's text comes back into the field, the caret at the end of what changed.
   */
  const historyStep = useCallback(
    (name: 'undo' | 'redo') => {
      const before = ref.current?.value ?? '';
      runCommand(store, name);
      const after = store.getState().design?.text_snippets.find((s) => s.id === id)?.text;
      if (after === undefined || after === before) return;
      const caret = caretAfterChange(before, after);
      pending.current = { start: caret, end: caret };
      queueMicrotask(applyPending);
    },
    [store, id, applyPending],
  );

  // Native drag and drop inside the field: the browser would delete the dragged text, then
  // insert it at the drop point (two edits, the parameter removed in between); both are taken
  // over so the move is one change that keeps the parameter.
  useEffect(() => {
    const field = ref.current;
    if (!field) return;
    const onBeforeInput = (event: InputEvent) => {
      // The browser's own undo (Edit menu, a shake or a gesture) would fight the document's.
      const history = historyInputType(event.inputType);
      if (history) {
        event.preventDefault();
        historyStep(history);
      } else if (event.inputType === 'deleteByDrag') {
        const selection = { start: field.selectionStart, end: field.selectionEnd };
        const text = field.value.slice(selection.start, selection.end);
        if (placeholderRanges(text).length === 0) return;
        dragged.current = selection;
        event.preventDefault();
      } else if (event.inputType === 'insertFromDrop' && dragged.current) {
        event.preventDefault();
        const from = dragged.current;
        dragged.current = null;
        const to = field.selectionStart;
        const text = store.getState().design?.text_snippets.find((s) => s.id === id)?.text;
        if (text === undefined) return;
        const exact = placeholderRanges(text).find(
          (r) => r.start === from.start && r.end === from.end,
        );
        const moved = movePlaceholder(text, { ...from, name: exact?.name ?? '' }, to);
        edit(moved.selection, () => {
          if (exact) runCommand(store, 'moveParameterPlaceholder', { id, start: from.start, to });
          else runCommand(store, 'setSnippetText', { id, text: moved.text });
        });
      }
    };
    const onDragEnd = () => {
      dragged.current = null;
    };
    field.addEventListener('beforeinput', onBeforeInput);
    field.addEventListener('dragend', onDragEnd);
    return () => {
      field.removeEventListener('beforeinput', onBeforeInput);
      field.removeEventListener('dragend', onDragEnd);
    };
  }, [store, id, edit, historyStep]);

  const snap = () => {
    const field = ref.current;
    if (!field || pending.current) return;
    const selection = { start: field.selectionStart, end: field.selectionEnd };
    const snapped = snapSelection(field.value, selection, previous.current);
    if (snapped.start !== selection.start || snapped.end !== selection.end)
      field.setSelectionRange(snapped.start, snapped.end);
    previous.current = snapped;
  };

  return (
    <textarea
      ref={ref}
      id={SNIPPET_TEXT_FIELD_ID}
      className="input editor-snippet__text"
      rows={3}
      spellCheck={false}
      aria-describedby={describedBy}
      value={snippet.text}
      onFocus={() => setEditing(true)}
      onBlur={() => setEditing(false)}
      onSelect={snap}
      onKeyUp={snap}
      onMouseUp={snap}
      onKeyDown={(event) => {
        const field = event.currentTarget;
        const selection = { start: field.selectionStart, end: field.selectionEnd };
        const history = historyShortcutFor(event, IS_MAC);
        if (history) {
          event.preventDefault();
          historyStep(history);
        } else if (event.key === 'Escape' && !event.nativeEvent.isComposing) {
          // Esc leaves the text (the snippet stays selected); a second Esc deselects it.
          event.preventDefault();
          field.blur();
        } else if (
          (event.key === 'Backspace' || event.key === 'Delete') &&
          !event.altKey &&
          !event.ctrlKey &&
          !event.metaKey
        ) {
          const range = placeholderAtCaret(field.value, selection, event.key);
          if (!range) return;
          event.preventDefault();
          edit({ start: range.start, end: range.start }, () =>
            runCommand(store, 'deletePlaceholder', { id, start: range.start }),
          );
        } else if (
          event.altKey &&
          !event.ctrlKey &&
          !event.metaKey &&
          (event.key === 'ArrowLeft' || event.key === 'ArrowRight')
        ) {
          const range = placeholderOf(field.value, selection);
          if (!range) return;
          event.preventDefault();
          const direction = event.key === 'ArrowLeft' ? 'left' : 'right';
          edit(shiftPlaceholder(field.value, range, direction).selection, () =>
            runCommand(store, 'moveParameterPlaceholder', {
              id,
              start: range.start,
              to: direction,
            }),
          );
        }
      }}
      onChange={(event) => runCommand(store, 'setSnippetText', { id, text: event.target.value })}
    />
  );
}
