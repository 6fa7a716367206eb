/**
 * The sync slice: the save state the editor shows (docs/editor.md
 * "Server sync"). The save controller (../sync.ts) drives it.
 */
import type { EditorSlice } from './types.ts';

/**
 * - `saved`: the server has every change;
 * - `pending`: changes wait for the 1000 ms debounce (docs/editor.md "Constants");
 * - `saving`: a save is on its way;
 * - `failed`: the last save failed; `saveMessage` says why, and a retry is offered.
 */
export type SaveStatus = 'saved' | 'pending' | 'saving' | 'failed';

export interface SyncSlice {
  saveStatus: SaveStatus;
  saveMessage: string | null;
  /** The document revision the server has (designSlice `revision`). */
  savedRevision: number;
  setSaveState(status: SaveStatus, message?: string | null): void;
  markSaved(revision: number): void;
}

export const createSyncSlice: EditorSlice<SyncSlice> = (set) => ({
  saveStatus: 'saved',
  saveMessage: null,
  savedRevision: 0,
  setSaveState: (saveStatus, saveMessage = null) => set({ saveStatus, saveMessage }),
  markSaved: (savedRevision) => set({ savedRevision }),
});
