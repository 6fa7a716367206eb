/**
 * The design slice: the design document (the source of truth the canvas is drawn from,
 * docs/editor.md "Architecture", "The scene is data; fabric is a view"), the design's record fields
 * the editor shows (title, version, URLs), and the one way to change the document: `applyChange`,
 * which records the change's patches in the history slice.
 */
import { produceWithPatches, enablePatches, type Draft } from 'immer';
import type { DesignDocument } from '#shared/design.ts';
import type { ParameterChange } from '#shared/parameters.ts';
import { EMPTY_HISTORY, recordChange, type HistoryEventType } from './history.ts';
import type { EditorSlice } from './types.ts';

enablePatches();

/** The record fields of the open design (functions/designs/views.ts `designView`). */
export interface DesignMeta {
  /** The design id of the API paths (`/api/pic-snippet/{id}`). */
  id: string;
  title: string;
  /** The optimistic lock of the design item (docs/editor.md "Server sync"), sent with every save. */
  version: number;
  /** The public render id (`/r/{publicId}`). */
  publicId: string;
  /** Where the browser loads the base photo from (same-origin `/files/…`), or null. */
  baseImageUrl: string | null;
  /** The render URL (absolute, docs/adr/0004-render-slice.md "Render slice"). */
  renderUrl: string;
}

/** A loaded design: its record fields and its restored document (shared/design.ts). */
export interface LoadedDesign {
  meta: DesignMeta;
  document: DesignDocument;
}

/** How a change enters the history (a command's history intent, commands.ts). */
export interface ChangeIntent {
  eventType: HistoryEventType;
  label: string;
  /** Consecutive changes with this key within 1000 ms merge (history.ts); null: never. */
  mergeKey?: string | null;
  paramChanges?: ParameterChange[];
}

export interface DesignSlice {
  design: DesignDocument | null;
  meta: DesignMeta | null;
  /** Counts document changes (changes, undo, redo, loads); the server sync watches it. */
  revision: number;
  /**
   * Opens a design: the document and record fields replaced, history and selection cleared
   * (docs/editor.md "Commands": "loading the editor clears both").
   */
  loadDesign(loaded: LoadedDesign): void;
  /**
   * Changes the document through an immer recipe and records the change's patches (docs/editor.md
   * "Commands": "Editor changes": pushed onto the undo history, redo cleared). A recipe that
   * changes nothing records nothing.
   * @returns true when the document changed.
   */
  applyChange(intent: ChangeIntent, recipe: (draft: Draft<DesignDocument>) => void): boolean;
  /**
   * Puts a document in place without recording it (a 409 merge, sync.ts), with the server's
   * version. `keepHistory` false clears undo and redo: their patches were written against the
   * document being replaced.
   */
  replaceDocument(document: DesignDocument, version: number, keepHistory: boolean): void;
  /** Updates the record fields (a saved title, the version a save answered). */
  setMeta(meta: Partial<DesignMeta>): void;
}

export const createDesignSlice: EditorSlice<DesignSlice> = (set, get) => ({
  design: null,
  meta: null,
  revision: 0,

  loadDesign: ({ meta, document }) =>
    set((s) => ({
      design: document,
      meta,
      revision: s.revision + 1,
      history: EMPTY_HISTORY,
      selection: null,
      confirm: null,
    })),

  applyChange: (intent, recipe) => {
    const { design, history, env } = get();
    if (!design) return false;
    const [next, patches, inversePatches] = produceWithPatches(design, recipe);
    if (patches.length === 0) return false;
    set((s) => ({
      design: next,
      revision: s.revision + 1,
      history: recordChange(
        history,
        {
          eventType: intent.eventType,
          label: intent.label,
          patches,
          inversePatches,
          paramChanges: intent.paramChanges ?? [],
          mergeKey: intent.mergeKey ?? null,
        },
        env.now(),
      ),
    }));
    return true;
  },

  replaceDocument: (document, version, keepHistory) =>
    set((s) => ({
      design: document,
      meta: s.meta ? { ...s.meta, version } : s.meta,
      revision: s.revision + 1,
      history: keepHistory ? s.history : EMPTY_HISTORY,
    })),

  setMeta: (meta) => set((s) => (s.meta ? { meta: { ...s.meta, ...meta } } : {})),
});
