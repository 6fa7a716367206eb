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
  /**
   * Why the server refused a save that carried a new title (its message, with the title's field
   * errors), shown under the title field for 3 s (docs/editor.md "Messages"); `at` tells two
   * refusals apart. Null when there is none.
   */
  titleError: { text: string; at: number } | null;
  setSaveState(status: SaveStatus, message?: string | null): void;
  setTitleError(text: string | null): void;
  markSaved(revision: number): void;
}

export const createSyncSlice: EditorSlice<SyncSlice> = (set) => ({
  saveStatus: 'saved',
  saveMessage: null,
  savedRevision: 0,
  titleError: null,
  setSaveState: (saveStatus, saveMessage = null) => set({ saveStatus, saveMessage }),
  setTitleError: (text) => set({ titleError: text === null ? null : { text, at: Date.now() } }),
  markSaved: (savedRevision) => set({ savedRevision }),
});
