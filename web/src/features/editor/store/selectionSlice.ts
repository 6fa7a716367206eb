/**
 * The selection slice: which text snippet or sticker is selected. View state: it never enters
 * the history, so selecting never clears redo (docs/editor.md "Architecture", docs/editor.md).
 */
import type { DesignDocument, Sticker, TextSnippet } from '#shared/design.ts';
import type { EditorSlice, EditorState } from './types.ts';

/** A selected object of the canvas. */
export type Selection = { kind: 'snippet'; id: string } | { kind: 'sticker'; id: string };

export interface SelectionSlice {
  selection: Selection | null;
  select(selection: Selection): void;
  deselect(): void;
}

/** The selection if its object is still in the document, else null. */
export function withoutStaleSelection(
  selection: Selection | null,
  design: DesignDocument,
): Selection | null {
  if (!selection) return null;
  const exists =
    selection.kind === 'snippet'
      ? design.text_snippets.some((s) => s.id === selection.id)
      : design.graphics_data.some((s) => s.uuid === selection.id);
  return exists ? selection : null;
}

export const createSelectionSlice: EditorSlice<SelectionSlice> = (set) => ({
  selection: null,
  select: (selection) =>
    set((s) => {
      const same = s.selection?.kind === selection.kind && s.selection.id === selection.id;
      return same || !s.design ? {} : { selection: withoutStaleSelection(selection, s.design) };
    }),
  deselect: () => set((s) => (s.selection ? { selection: null } : {})),
});

/** The selected text snippet, or null (a selector: `useEditor(selectedSnippet)`). */
export const selectedSnippet = (s: EditorState): TextSnippet | null => {
  const selection = s.selection;
  if (selection?.kind !== 'snippet' || !s.design) return null;
  return s.design.text_snippets.find((t) => t.id === selection.id) ?? null;
};

/** The selected sticker, or null. */
export const selectedSticker = (s: EditorState): Sticker | null => {
  const selection = s.selection;
  if (selection?.kind !== 'sticker' || !s.design) return null;
  return s.design.graphics_data.find((t) => t.uuid === selection.id) ?? null;
};
