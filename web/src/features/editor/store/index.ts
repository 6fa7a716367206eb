/**
 * The editor's zustand store: one store built from slices (zustand docs "slices pattern";
 * docs/editor.md "Architecture", "The editor"): design, history, selection, ui and sync. A vanilla
 * store, so the commands, the fabric view and the unit tests use it without React; components read
 * it through fine-grained selectors with `useEditor` (../EditorContext.tsx).
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { createDesignSlice } from './designSlice.ts';
import { createHistorySlice } from './historySlice.ts';
import { createSelectionSlice } from './selectionSlice.ts';
import { createSyncSlice } from './syncSlice.ts';
import { createUiSlice } from './uiSlice.ts';
import type { EditorEnv, EditorState } from './types.ts';

export type { EditorEnv, EditorState } from './types.ts';
export type EditorStore = StoreApi<EditorState>;

/** A uuid; `crypto.randomUUID` needs a secure context, so a random fallback elsewhere. */
function uuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A new, empty editor store (no design until `loadDesign`). One per open editor; tests make a
 * fresh one per test.
 * @param env clock and id maker; the real ones by default.
 */
export function createEditorStore(env: Partial<EditorEnv> = {}): EditorStore {
  return createStore<EditorState>()((...a) => ({
    ...createDesignSlice(...a),
    ...createHistorySlice(...a),
    ...createSelectionSlice(...a),
    ...createUiSlice(...a),
    ...createSyncSlice(...a),
    env: { now: env.now ?? (() => Date.now()), newId: env.newId ?? uuid },
  }));
}
