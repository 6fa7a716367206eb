import { useCallback, useEffect, useState, type KeyboardEvent } from 'react';
import { runCommand } from '../commands.ts';
import { useEditorContext } from '../EditorContext.tsx';
import { IS_MAC, historyInputType, historyShortcutFor } from '../keyboard.ts';

/**
 * One undo history in a field that edits the document (docs/editor.md "Commands"): Ctrl/⌘+Z,
 * Ctrl/⌘+Shift+Z and Ctrl+Y (`historyShortcutFor`), and the browser's own Edit-menu or gesture
 * undo (`historyInputType`), run the editor's undo and redo instead of the field's, which would
 * add a new step rather than take one back. For the number fields and the parameter fallback
 * fields; the snippet text field does the same with its caret handling (SnippetTextField.tsx).
 * The title and fields outside the document (search boxes) keep their native undo.
 * @param after runs after the editor's step (a field drops what the user was typing, so it
 *   shows the document's value again).
 * @returns `attach`, the field's callback ref (the native `beforeinput` listener) and its `onKeyDown`.
 */
export function useHistoryKeys(after?: () => void): {
  attach: (field: HTMLElement | null) => void;
  onKeyDown: (event: KeyboardEvent) => void;
} {
  const { store } = useEditorContext();
  const [field, attach] = useState<HTMLElement | null>(null);
  const step = useCallback(
    (name: 'undo' | 'redo') => {
      runCommand(store, name);
      after?.();
    },
    [store, after],
  );
  useEffect(() => {
    if (!field) return;
    const onBeforeInput = (event: InputEvent) => {
      const history = historyInputType(event.inputType);
      if (!history) return;
      event.preventDefault();
      step(history);
    };
    field.addEventListener('beforeinput', onBeforeInput);
    return () => field.removeEventListener('beforeinput', onBeforeInput);
  }, [field, step]);
  const onKeyDown = useCallback(
    (event: KeyboardEvent) => {
      const history = historyShortcutFor(event, IS_MAC);
      if (!history) return;
      event.preventDefault();
      step(history);
    },
    [step],
  );
  return { attach, onKeyDown };
}
