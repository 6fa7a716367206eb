/**
 * The undo and redo histories kept per design in browser storage (docs/editor.md "Commands":
 * "Histories are kept per design in browser storage; loading the editor clears both";
 * docs/editor.md "Constants": "undo history writes 200 ms").
 *
 * Where: `sessionStorage` (one tab's life), under `picsnippets.editor.history.{designId}`. The
 * spec clears the histories whenever the editor loads, so nothing ever reads them back into an
 * editor; keeping them in the tab's session storage rather than `localStorage` keeps them from
 * piling up across designs and outliving the tab (docs/decisions.md).
 *
 * What: `{ undo, redo, at }` as recorded (history.ts entries: immer patches, event types,
 * parameter change records). A history larger than {@link MAX_STORED_CHARS} drops its oldest
 * undo entries until it fits; a full storage drops the key rather than fail an edit.
 */
import type { EditorStore } from './index.ts';
import type { History } from './history.ts';

/** The storage key prefix; the design id follows. */
export const HISTORY_STORAGE_PREFIX = 'picsnippets.editor.history.';
/** Writes wait for this long after the last history change, ms (docs/editor.md "Constants"). */
export const HISTORY_WRITE_DEBOUNCE_MS = 200;
/** The largest stored history, in UTF-16 characters (about 2 MB of storage). */
export const MAX_STORED_CHARS = 1_000_000;

/** The storage key of a design's histories. */
export const historyStorageKey = (designId: string): string =>
  `${HISTORY_STORAGE_PREFIX}${designId}`;

/**
 * The JSON kept for a history: the newest undo entries that fit in `maxChars`, and the redo
 * list (dropped too if even it alone is over the limit). Returns null when nothing fits.
 */
export function serializeHistory(
  history: Pick<History, 'undo' | 'redo'>,
  at: number,
  maxChars = MAX_STORED_CHARS,
): string | null {
  let undo = history.undo;
  let redo = history.redo;
  for (;;) {
    const text = JSON.stringify({ undo, redo, at });
    if (text.length <= maxChars) return text;
    if (undo.length > 0) undo = undo.slice(Math.max(1, Math.floor(undo.length / 4)));
    else if (redo.length > 0) redo = [];
    else return null;
  }
}

/**
 * Starts keeping the open design's histories in `storage`: clears what an earlier editor of the
 * same design left (docs/editor.md "Commands"), then writes the histories 200 ms after each change.
 * @returns a stop function that writes a pending change at once and stops listening.
 */
export function persistHistory(
  store: EditorStore,
  storage: Pick<Storage, 'setItem' | 'removeItem'> | null = safeSessionStorage(),
): () => void {
  const designId = store.getState().meta?.id;
  if (!storage || !designId) return () => undefined;
  const key = historyStorageKey(designId);
  const attempt = (write: () => void) => {
    try {
      write();
    } catch {
      // Quota or privacy mode: the history is a convenience; never fail an edit over it.
      try {
        storage.removeItem(key);
      } catch {
        /* storage unusable */
      }
    }
  };
  attempt(() => storage.removeItem(key));

  let timer: ReturnType<typeof setTimeout> | null = null;
  const write = () => {
    timer = null;
    const state = store.getState();
    const text = serializeHistory(state.history, state.env.now());
    attempt(() => (text === null ? storage.removeItem(key) : storage.setItem(key, text)));
  };
  const unsubscribe = store.subscribe((state, previous) => {
    if (
      state.history.undo === previous.history.undo &&
      state.history.redo === previous.history.redo
    )
      return;
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(write, HISTORY_WRITE_DEBOUNCE_MS);
  });
  return () => {
    unsubscribe();
    if (timer !== null) {
      clearTimeout(timer);
      write();
    }
  };
}

/** `sessionStorage`, or null where reading it throws (sandboxed frames, some privacy modes). */
function safeSessionStorage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}
