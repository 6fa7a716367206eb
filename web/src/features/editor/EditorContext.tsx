/**
 * The open editor's store and save controller for its components, and `useEditor` to read the
 * store through a fine-grained selector (zustand docs: select the least state a component
 * needs; a selector returns a stored value or a primitive, never a new object).
 */
import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { EditorState, EditorStore } from './store/index.ts';
import type { SyncController } from './sync.ts';

export interface EditorContextValue {
  store: EditorStore;
  sync: SyncController;
}

export const EditorContext = createContext<EditorContextValue | null>(null);

/** The open editor. @throws Error outside an editor page. */
export function useEditorContext(): EditorContextValue {
  const value = useContext(EditorContext);
  if (!value) throw new Error('useEditorContext outside an editor');
  return value;
}

/** Reads the editor store: `useEditor((s) => s.saveStatus)`. */
export function useEditor<T>(selector: (state: EditorState) => T): T {
  return useStore(useEditorContext().store, selector);
}
