import { useId, useLayoutEffect, useSyncExternalStore } from 'react';

/**
 * The parts of the page that hold unsaved changes right now (one id per mounted form or editor
 * that reported them), read by `UnsavedChangesPrompt` in the app shell: one router blocker and
 * one `beforeunload` listener for the whole page, however many forms it has (react-router
 * supports one blocker at a time).
 */
const unsaved = new Set<string>();
const listeners = new Set<() => void>();

function changed(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether some part of the page has unsaved changes, read at the moment of the call. */
export function hasUnsavedChanges(): boolean {
  return unsaved.size > 0;
}

/**
 * Forgets every unsaved mark, for a page that is left on purpose after its work is done or
 * void (a deleted company, another account signing in): the navigation or reload that follows
 * does not ask. A form marks itself again when its changes change.
 */
export function discardUnsavedChanges(): void {
  if (unsaved.size === 0) return;
  unsaved.clear();
  changed();
}

/** Whether some part of the page has unsaved changes, as React state. */
export function useHasUnsavedChanges(): boolean {
  return useSyncExternalStore(subscribe, hasUnsavedChanges, hasUnsavedChanges);
}

/**
 * Asks before the user leaves a screen that holds unsaved changes
 * (docs/adr/0043-leaving-with-unsaved-changes-asks-first.md "Leaving with unsaved changes asks
 * first"): while `dirty` is true, an in-app navigation (a link, the header, browser back, a tab of
 * the page) opens the "Leave this page?" dialog, and closing the tab or reloading opens the
 * browser's own `beforeunload` prompt. Call it once per form or editor with what it knows: the
 * editor's save queue has changes it has not saved, or the form's fields differ from what was
 * loaded or last saved. After a successful save, pass false. The mark is set in a layout effect, so
 * it is in place in the commit that shows the change, and it goes when the component unmounts.
 */
export function useUnsavedChangesGuard(dirty: boolean): void {
  const id = useId();
  useLayoutEffect(() => {
    if (!dirty) return;
    unsaved.add(id);
    changed();
    return () => {
      if (unsaved.delete(id)) changed();
    };
  }, [dirty, id]);
}
