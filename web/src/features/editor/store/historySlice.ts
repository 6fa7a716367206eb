/**
 * The history slice: undo and redo of recorded changes (history.ts), and the gesture brackets
 * that make a drag or a slider one step.
 */
import {
  beginGesture,
  endGesture,
  redo,
  undo,
  type History,
  type HistoryEntry,
} from './history.ts';
import { withoutStaleSelection } from './selectionSlice.ts';
import type { EditorSlice } from './types.ts';

export interface HistorySlice {
  history: History;
  /** Undoes the newest change; returns its entry, or null when there is none. */
  undo(): HistoryEntry | null;
  /** Redoes the newest undone change; returns its entry, or null when there is none. */
  redo(): HistoryEntry | null;
  /** Starts a gesture: every change until `endGesture` undoes in one step. */
  beginGesture(): void;
  endGesture(): void;
}

export const createHistorySlice: EditorSlice<HistorySlice> = (set, get) => {
  /** Undo or redo: the new document, the moved entry, a selection of a gone object dropped. */
  const step = (move: typeof undo): HistoryEntry | null => {
    const { design, history } = get();
    if (!design) return null;
    const result = move(history, design);
    if (!result) return null;
    set((s) => ({
      design: result.document,
      history: result.history,
      revision: s.revision + 1,
      selection: withoutStaleSelection(s.selection, result.document),
    }));
    return result.entry;
  };
  return {
    history: { undo: [], redo: [], gesture: null, sealed: true },
    undo: () => step(undo),
    redo: () => step(redo),
    beginGesture: () => set((s) => ({ history: beginGesture(s.history) })),
    endGesture: () => set((s) => ({ history: endGesture(s.history) })),
  };
};
