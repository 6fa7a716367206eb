/**
 * Test steps for the editor's store (docs/editor.md): a design like the seeded demo one, a store
 * opened on it with a clock the test moves and ids it can predict, and short readers.
 */
import { DesignDocumentSchema, type DesignDocument } from '#shared/design.ts';
import { createEditorStore, type EditorStore } from '../../web/src/features/editor/store/index.ts';
import type { DesignMeta } from '../../web/src/features/editor/store/designSlice.ts';

/** A 1000x750 design with the demo's snippet `Hello {{first_name}}!` (fallback "there"). */
export function demoDocument(): DesignDocument {
  return DesignDocumentSchema.parse({
    image_id: 'library-autumn',
    base_image_key: 'files/library/global/library-autumn.jpg',
    canvas_width: 1000,
    canvas_height: 750,
    text_snippets: [
      {
        id: 'snippet-hello',
        text: 'Hello {{first_name}}!',
        fontFamily: 'Noto Sans',
        fontSize: 64,
        left: 50,
        top: 327,
        width: 900,
        parameters: [
          { id: 'param-first-name', param_name: 'first_name', param_default_value: 'there' },
        ],
      },
    ],
  });
}

export const DEMO_META: DesignMeta = {
  id: 'design-demo-welcome',
  title: 'Welcome',
  version: 1,
  publicId: 'demo-welcome',
  baseImageUrl: '/files/library/global/library-autumn.jpg',
  renderUrl: 'http://localhost/r/demo-welcome',
};

/** An editor store with the demo design loaded, its clock and its id counter. */
export function openEditor(document: DesignDocument = demoDocument()) {
  const clock = { now: 1_000_000 };
  let ids = 0;
  const store = createEditorStore({ now: () => clock.now, newId: () => `id-${++ids}` });
  store.getState().loadDesign({ meta: { ...DEMO_META }, document });
  return {
    store,
    clock,
    /** Moves the clock on, ms. */
    wait: (ms: number) => {
      clock.now += ms;
    },
  };
}

/** Undo and redo list lengths. */
export const counts = (store: EditorStore) => ({
  undo: store.getState().history.undo.length,
  redo: store.getState().history.redo.length,
});

/** The snippet of `id` in the store's document. */
export function snippet(store: EditorStore, id: string) {
  const found = store.getState().design!.text_snippets.find((s) => s.id === id);
  if (!found) throw new Error(`no snippet ${id}`);
  return found;
}
