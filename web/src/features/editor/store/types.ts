/**
 * The editor store's combined state and the slice creator type (zustand docs, "slices
 * pattern"): each slice is typed against the whole state so its actions can read the others.
 */
import type { StateCreator } from 'zustand/vanilla';
import type { DesignSlice } from './designSlice.ts';
import type { HistorySlice } from './historySlice.ts';
import type { SelectionSlice } from './selectionSlice.ts';
import type { SyncSlice } from './syncSlice.ts';
import type { UiSlice } from './uiSlice.ts';

/** What the store needs from its surroundings; tests pass their own. */
export interface EditorEnv {
  /** ms since the epoch */
  now: () => number;
  /** A new unique id (a uuid) for a snippet or parameter. */
  newId: () => string;
}

export type EditorState = DesignSlice &
  HistorySlice &
  SelectionSlice &
  UiSlice &
  SyncSlice & { env: EditorEnv };

/** A slice of the editor store, typed against the whole state. */
export type EditorSlice<T> = StateCreator<EditorState, [], [], T>;
