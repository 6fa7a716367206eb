/**
 * The histories kept per design in browser storage (docs/editor.md "Commands", docs/editor.md
 * "Constants": "undo history writes 200 ms"): cleared when the editor loads, written 200 ms after
 * the last change, trimmed from the oldest entry when too large, and never failing an edit when
 * storage refuses.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCommand } from '../../web/src/features/editor/commands.ts';
import {
  HISTORY_WRITE_DEBOUNCE_MS,
  historyStorageKey,
  persistHistory,
  serializeHistory,
} from '../../web/src/features/editor/store/persistHistory.ts';
import { DEMO_META, counts, openEditor } from '../support/editor.ts';

/** A Map-backed Storage, optionally refusing writes like a full quota. */
function memoryStorage(refuse = false) {
  const items = new Map<string, string>();
  return {
    items,
    setItem(key: string, value: string) {
      if (refuse) throw new DOMException('full', 'QuotaExceededError');
      items.set(key, value);
    },
    removeItem(key: string) {
      items.delete(key);
    },
  };
}

const KEY = historyStorageKey(DEMO_META.id);
const stored = (storage: ReturnType<typeof memoryStorage>) =>
  JSON.parse(storage.items.get(KEY) ?? 'null') as { undo: unknown[]; redo: unknown[] } | null;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('history in browser storage', () => {
  it('clears what an earlier editor of the design left when the editor loads', () => {
    const storage = memoryStorage();
    storage.items.set(KEY, '{"undo":[1,2,3],"redo":[]}');
    storage.items.set(historyStorageKey('another-design'), '{}');
    const { store } = openEditor();
    persistHistory(store, storage);
    expect(storage.items.has(KEY)).toBe(false);
    expect(storage.items.has(historyStorageKey('another-design'))).toBe(true);
  });

  it('writes both lists 200 ms after the last change, once for a burst', () => {
    const storage = memoryStorage();
    const writes = vi.spyOn(storage, 'setItem');
    const { store } = openEditor();
    persistHistory(store, storage);
    runCommand(store, 'addTextSnippet');
    vi.advanceTimersByTime(HISTORY_WRITE_DEBOUNCE_MS - 1);
    // A nudge of the new snippet: the history changes again, so the write waits again.
    expect(runCommand(store, 'nudge', { dx: 1, dy: 0 })).toBe(true);
    vi.advanceTimersByTime(HISTORY_WRITE_DEBOUNCE_MS - 1);
    expect(writes).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(writes).toHaveBeenCalledTimes(1);
    expect(stored(storage)?.undo).toHaveLength(counts(store).undo);

    runCommand(store, 'undo');
    vi.advanceTimersByTime(HISTORY_WRITE_DEBOUNCE_MS);
    expect(stored(storage)?.undo).toHaveLength(counts(store).undo);
    expect(stored(storage)?.redo).toHaveLength(1);
  });

  it('writes a pending change at once when the editor closes', () => {
    const storage = memoryStorage();
    const { store } = openEditor();
    const stop = persistHistory(store, storage);
    runCommand(store, 'addTextSnippet');
    stop();
    expect(stored(storage)?.undo).toHaveLength(1);
    runCommand(store, 'addTextSnippet');
    vi.advanceTimersByTime(HISTORY_WRITE_DEBOUNCE_MS);
    expect(stored(storage)?.undo).toHaveLength(1);
  });

  it('keeps editing when storage refuses the write', () => {
    const storage = memoryStorage(true);
    const { store } = openEditor();
    persistHistory(store, storage);
    expect(runCommand(store, 'addTextSnippet')).toBe(true);
    vi.advanceTimersByTime(HISTORY_WRITE_DEBOUNCE_MS);
    expect(storage.items.has(KEY)).toBe(false);
    expect(counts(store).undo).toBe(1);
  });

  it('drops the oldest undo entries first when the history is too large', () => {
    const entry = (n: number) => ({ label: `step ${n}`, pad: 'x'.repeat(100) });
    const history = {
      undo: Array.from({ length: 40 }, (_, i) => entry(i)),
      redo: [entry(99)],
    } as never;
    const text = serializeHistory(history, 1, 2000)!;
    expect(text.length).toBeLessThanOrEqual(2000);
    const kept = JSON.parse(text) as { undo: Array<{ label: string }>; redo: unknown[] };
    expect(kept.undo.at(-1)!.label).toBe('step 39');
    expect(kept.undo.length).toBeLessThan(40);
    expect(kept.redo).toHaveLength(1);
    expect(serializeHistory({ undo: [], redo: [] }, 1, 5)).toBeNull();
  });
});
