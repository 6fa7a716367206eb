/**
 * Undo and redo as recorded changes (docs/editor.md "Architecture", "Undo and redo record changes,
 * not canvases"; docs/adr/0014-the-design-document-versions-and-restore.md "The design document:
 * versions and restore": "Undo history snapshot", docs/editor.md "Commands": "Editor changes",
 * "History event types", "Parameter undo"). Pure functions over `History`: no store, no timers, no
 * DOM.
 *
 * An entry holds immer patches (`patches` redo it, `inversePatches` undo it) of the design
 * document, the spec's `eventType`, a label for the buttons' titles, and the parameter change
 * records of docs/adr/0014-the-design-document-versions-and-restore.md "The design document:
 * versions and restore" (`{ textSnippetId, paramId, action }`). Entries merge in two ways:
 * - **gestures**: between `beginGesture` and `endGesture` (a drag, a slider) every change joins
 *   one entry, so the whole gesture undoes in one step;
 * - **typing**: changes with the same `mergeKey` (`text:{snippetId}`, a held arrow key) less
 *   than 1000 ms apart join the entry before.
 *
 * Recording a change clears redo (docs/editor.md "Commands"); selecting, panels and other view
 * state never touch the history, so they never clear redo.
 */
import { applyPatches, type Patch } from 'immer';
import type { ParameterChange } from '#shared/parameters.ts';

/** The spec's history event types (docs/editor.md "Commands": "History event types"). */
export const HISTORY_EVENT_TYPES = [
  'snippets.event',
  'stickers.event',
  'filter.event',
  'enhance.event',
  'crop.event',
  'rotate.event',
  'imageSize.event',
  'sizeOption.event',
  'image.event',
  /** The rules panel (docs/rules.md). */
  'rules.event',
  /** The data panel (docs/data-sources.md "Binding a design"). */
  'data.event',
] as const;
export type HistoryEventType = (typeof HISTORY_EVENT_TYPES)[number];

/** Entries kept in the undo list; older ones are dropped (docs/editor.md "History format"). */
export const HISTORY_LIMIT = 100;

/** Changes with the same merge key closer than this join one entry, ms. */
export const MERGE_WINDOW_MS = 1000;

/** One undoable step. */
export interface HistoryEntry {
  eventType: HistoryEventType;
  /** What the step did, for people ("Move text snippet"). */
  label: string;
  /** Applied in order, they redo the step. */
  patches: Patch[];
  /** Applied in order, they undo the step. */
  inversePatches: Patch[];
  /** The parameter change records of the step (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore"), in the order they happened. */
  paramChanges: ParameterChange[];
  /** Consecutive changes with this key merge (see the module comment); null: never. */
  mergeKey: string | null;
  /** When the step last changed, ms since the epoch. */
  at: number;
}

/** The undo and redo lists, newest last, and the open gesture. */
export interface History {
  undo: HistoryEntry[];
  redo: HistoryEntry[];
  /** null: no gesture; else whether the gesture has recorded its entry yet. */
  gesture: { recorded: boolean } | null;
  /** The newest undo entry takes no more merges (after an undo, redo or gesture end). */
  sealed: boolean;
}

export const EMPTY_HISTORY: History = { undo: [], redo: [], gesture: null, sealed: true };

/** A change to record: an entry without its merge bookkeeping. */
export type RecordedChange = Omit<HistoryEntry, 'at'>;

/**
 * Records a change (docs/editor.md "Commands": "pushed onto the undo history; the redo history is
 * cleared"). A change without patches records nothing and leaves redo alone. Inside a gesture, or
 * with the newest entry's merge key within 1000 ms, it joins that entry. The undo list keeps the
 * newest 100 entries.
 * @param now ms since the epoch.
 */
export function recordChange(history: History, change: RecordedChange, now: number): History {
  if (change.patches.length === 0) return history;
  const top = history.undo.at(-1);
  const joinsGesture = history.gesture?.recorded === true && top !== undefined;
  const joinsTyping =
    history.gesture === null &&
    !history.sealed &&
    top !== undefined &&
    change.mergeKey !== null &&
    top.mergeKey === change.mergeKey &&
    now - top.at < MERGE_WINDOW_MS;
  const gesture = history.gesture ? { recorded: true } : null;
  if ((joinsGesture || joinsTyping) && top) {
    const merged: HistoryEntry = {
      ...top,
      patches: [...top.patches, ...change.patches],
      inversePatches: [...change.inversePatches, ...top.inversePatches],
      paramChanges: [...top.paramChanges, ...change.paramChanges],
      at: now,
    };
    return { undo: [...history.undo.slice(0, -1), merged], redo: [], gesture, sealed: false };
  }
  const undo = [...history.undo, { ...change, at: now }].slice(-HISTORY_LIMIT);
  return { undo, redo: [], gesture, sealed: false };
}

/** Opens a gesture: the changes until `endGesture` make one entry. Opening twice is one gesture. */
export function beginGesture(history: History): History {
  return history.gesture ? history : { ...history, gesture: { recorded: false } };
}

/** Closes the gesture; the next change starts a new entry. */
export function endGesture(history: History): History {
  return history.gesture ? { ...history, gesture: null, sealed: true } : history;
}

/** docs/editor.md "Commands" says undo is available "when the undo history has more than one entry": there the
 * first entry was the loaded state; here every entry is a change, so one is enough. */
export const canUndo = (history: History): boolean => history.undo.length > 0;
export const canRedo = (history: History): boolean => history.redo.length > 0;

/**
 * The parameter change records that undoing an entry performs (docs/editor.md "Commands":
 * "Parameter undo": added is reversed by removing, updated by restoring the previous data, removed
 * by re-adding), newest first.
 */
export function undoneParameterChanges(entry: HistoryEntry): ParameterChange[] {
  const opposite = { added: 'removed', removed: 'added', updated: 'updated' } as const;
  return [...entry.paramChanges].reverse().map((c) => ({ ...c, action: opposite[c.action] }));
}

/** What an undo or a redo answers: the moved entry, the new document and history. */
export type HistoryStep<D> = { history: History; document: D; entry: HistoryEntry } | null;

/**
 * Undoes the newest entry: its inverse patches applied to `document`, the entry moved to redo
 * (docs/editor.md "Commands": "Undo pops from undo and pushes to redo"). An open gesture is closed
 * first.
 * @returns null when there is nothing to undo.
 */
export function undo<D extends object>(history: History, document: D): HistoryStep<D> {
  const entry = history.undo.at(-1);
  if (!entry) return null;
  return {
    document: applyPatches(document, entry.inversePatches),
    history: lists(history.undo.slice(0, -1), [...history.redo, entry]),
    entry,
  };
}

/**
 * Redoes the newest undone entry (docs/editor.md "Commands": "redo does the reverse").
 * @returns null when there is nothing to redo.
 */
export function redo<D extends object>(history: History, document: D): HistoryStep<D> {
  const entry = history.redo.at(-1);
  if (!entry) return null;
  return {
    document: applyPatches(document, entry.patches),
    history: lists([...history.undo, entry], history.redo.slice(0, -1)),
    entry,
  };
}

/** A history after an undo or redo: no gesture, the newest entry sealed. */
const lists = (undoList: HistoryEntry[], redoList: HistoryEntry[]): History => ({
  undo: undoList.slice(-HISTORY_LIMIT),
  redo: redoList,
  gesture: null,
  sealed: true,
});
