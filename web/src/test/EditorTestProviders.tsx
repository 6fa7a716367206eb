/**
 * Rendering the editor's panels and fields without the fabric canvas: an editor store
 * (web/src/features/editor/store) opened on a small design, and the save controller the
 * components call, in the editor's context (web/src/features/editor/EditorContext.tsx), inside
 * the app's providers (./TestProviders.tsx). What needs a real canvas (the stage, the
 * overlays, the toolbars' measurements) stays with the e2e tests.
 */
import type { ReactElement, ReactNode } from 'react';
import { DesignDocumentSchema, type DesignDocument } from '#shared/design.ts';
import { EditorContext } from '../features/editor/EditorContext.tsx';
import type { DesignMeta } from '../features/editor/store/designSlice.ts';
import { createEditorStore, type EditorStore } from '../features/editor/store/index.ts';
import type { SyncController } from '../features/editor/sync.ts';
import { renderWithProviders, type Rendered, type RenderOptions } from './TestProviders.tsx';

/**
 * A 1000×750 px design with one text snippet, `Hello {{first_name}}!` (fallback "there"), at
 * 50, 327 px, as the seeded demo design has it.
 */
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

/** The same design without any text snippet. */
export function emptyDocument(): DesignDocument {
  return { ...demoDocument(), text_snippets: [] };
}

/** The record fields of the test design (`design-1`, version 1, titled "Welcome"). */
export const DEMO_META: DesignMeta = {
  id: 'design-1',
  title: 'Welcome',
  version: 1,
  publicId: 'demo-welcome',
  baseImageUrl: null,
  renderUrl: 'http://localhost:3000/r/demo-welcome',
};

/**
 * An editor store opened on `document` (the demo design unless given), with ids the test can
 * predict (`id-1`, `id-2`, …).
 */
export function openEditor(document: DesignDocument = demoDocument()): EditorStore {
  let ids = 0;
  const store = createEditorStore({ newId: () => `id-${++ids}` });
  store.getState().loadDesign({ meta: { ...DEMO_META }, document });
  return store;
}

/** A save controller that saves nothing and records the titles it was asked to save. */
export interface RecordingSync extends SyncController {
  titles: string[];
  flushes: number;
}

/** A {@link RecordingSync}: for components whose saving is not what the test is about. */
export function recordingSync(): RecordingSync {
  const sync: RecordingSync = {
    titles: [],
    flushes: 0,
    flush: async () => {
      sync.flushes += 1;
    },
    saveTitle: async (title) => {
      sync.titles.push(title);
    },
    stop: () => {},
  };
  return sync;
}

/** The editor's context around `children`. */
export function EditorTestProviders({
  store,
  sync,
  children,
}: {
  store: EditorStore;
  sync: SyncController;
  children: ReactNode;
}) {
  return <EditorContext.Provider value={{ store, sync }}>{children}</EditorContext.Provider>;
}

/**
 * Renders `ui` inside an open editor: the store (`openEditor()` unless given) and the save
 * controller (`recordingSync()` unless given), within the app's providers.
 * @returns what {@link renderWithProviders} gives, with the store and the controller.
 */
export function renderInEditor<S extends SyncController = RecordingSync>(
  ui: ReactElement,
  options: RenderOptions & { store?: EditorStore; sync?: S } = {},
): Rendered & { store: EditorStore; sync: S } {
  const store = options.store ?? openEditor();
  const sync = (options.sync ?? recordingSync()) as S;
  const view = renderWithProviders(
    <EditorTestProviders store={store} sync={sync}>
      {ui}
    </EditorTestProviders>,
    options,
  );
  return { ...view, store, sync };
}
