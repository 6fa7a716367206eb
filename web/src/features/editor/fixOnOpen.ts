/**
 * `?fix=true` on the editor's address (docs/editor.md "Architecture"): when the editor opens,
 * objects larger than the canvas shrink to fit (document/fix.ts) as one undo step, the change is
 * saved at once, and the parameter leaves the address so a reload does not repeat it.
 */
import { fixOversizedObjects } from './document/fix.ts';
import type { EditorStore } from './store/index.ts';

/** The query parameter and value that ask for the repair. */
export const FIX_PARAMETER = 'fix';

/**
 * Runs the repair if the address asks for it.
 * @param flush saves the change now (the sync controller's `flush`).
 * @returns true when the address asked for it and something was changed.
 */
export function fixOnOpen(
  store: EditorStore,
  flush: () => Promise<void>,
  location: Pick<Location, 'href'> = window.location,
  history: Pick<History, 'replaceState' | 'state'> = window.history,
): boolean {
  const url = new URL(location.href);
  if (url.searchParams.get(FIX_PARAMETER) !== 'true') return false;
  url.searchParams.delete(FIX_PARAMETER);
  history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
  const changed = store
    .getState()
    .applyChange(
      { eventType: 'snippets.event', label: 'Fit objects in the canvas' },
      (draft) => void fixOversizedObjects(draft),
    );
  if (changed) void flush();
  return changed;
}
