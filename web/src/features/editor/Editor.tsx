/**
 * The editor of one loaded design (docs/editor.md "Architecture": "Editor"): it owns the store
 * (loaded with the design, so the history starts empty, docs/editor.md "Commands"), starts the
 * server sync, listens for the keyboard shortcuts, and lays out the title bar, the side panels, the
 * toolbar, the canvas and the selected object's settings (docs/editor.md "Layout").
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { createPortal } from 'react-dom';
import { Link } from 'react-router-dom';
import { useStore } from 'zustand';
import { ConfirmDialog } from '../../components/Modal.tsx';
import { useUnsavedChangesGuard } from '../../hooks/useUnsavedChangesGuard.ts';
import { useAppStore } from '../../state/store.ts';
import { Notice } from '../../components/Notice.tsx';
import { designServer } from './api.ts';
import { withBaseImageSync } from './imagesApi.ts';
import { runCommand, runCommandWith } from './commands.ts';
import { CanvasStage } from './components/CanvasStage.tsx';
import { IS_MAC } from './components/EditorToolbar.tsx';
import { ImageTools, SettingsColumn } from './components/EditorLayout.tsx';
import { HelpLink } from './components/HelpLink.tsx';
import { SaveStateIndicator } from './components/SaveStateIndicator.tsx';
import { SidePanels } from './components/SidePanels.tsx';
import { StickerDeleteConfirmation } from './components/StickerTools.tsx';
import { TitleField } from './components/TitleField.tsx';
import { EditorContext, useEditor, useEditorContext } from './EditorContext.tsx';
import { shortcutFor } from './keyboard.ts';
import { createEditorStore, type EditorStore } from './store/index.ts';
import { persistHistory } from './store/persistHistory.ts';
import { fixOnOpen } from './fixOnOpen.ts';
import { StressPreviewButton } from './components/StressPreview.tsx';
import type { LoadedDesign } from './store/designSlice.ts';
import { startSync, type SyncController } from './sync.ts';
import { mountCropCaptures } from './cropCaptures.ts';
import './canvas/fonts.ts';
import './layout.css';

/** True when keys typed go to a text field (its own undo, Delete and arrows apply). */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return (
    target instanceof HTMLInputElement &&
    !['button', 'checkbox', 'radio', 'range', 'color', 'submit', 'reset'].includes(target.type)
  );
}

/** Runs the shortcut's command (keyboard.ts) on a key press outside text fields and dialogs. */
function useShortcuts(store: EditorStore): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || document.querySelector('dialog[open]')) return;
      const match = shortcutFor(event, isTyping(event.target), IS_MAC);
      if (!match) return;
      event.preventDefault();
      runCommandWith(store, match.name, match.args);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);
}

export function Editor({ loaded }: { loaded: LoadedDesign }) {
  const [store] = useState(() => {
    const created = createEditorStore();
    created.getState().loadDesign(loaded);
    return created;
  });
  // docs/editor.md "Commands": the histories are kept per design in browser storage, cleared at
  // load.
  useEffect(() => persistHistory(store), [store]);
  // The components get a stable handle at once; the controller behind it starts with the page.
  const [sync] = useState(() => {
    let current: SyncController | null = null;
    return {
      attach: (controller: SyncController | null) => {
        current = controller;
      },
      flush: () => current?.flush() ?? Promise.resolve(),
      saveTitle: (title: string) => current?.saveTitle(title) ?? Promise.resolve(),
      stop: () => current?.stop(),
    };
  });

  useEffect(() => {
    // A new photo or a crop is saved through saveImageId before the full save (imagesApi.ts).
    const opened = store.getState().design!.image_id;
    const controller = startSync(store, withBaseImageSync(designServer, opened));
    sync.attach(controller);
    // Leaving the page (or the tab going to the background) saves what is waiting.
    const onHide = () => {
      if (document.visibilityState === 'hidden') void controller.flush();
    };
    document.addEventListener('visibilitychange', onHide);
    return () => {
      document.removeEventListener('visibilitychange', onHide);
      sync.attach(null);
      void controller.flush();
      controller.stop();
    };
  }, [store, sync]);

  // The live crops' captures for the canvas, panel open or not (docs/editor.md "Live web crop").
  useEffect(() => mountCropCaptures(store), [store]);
  // docs/editor.md "Architecture": `?fix=true` shrinks objects larger than the canvas, then saves.
  useEffect(() => void fixOnOpen(store, () => sync.flush()), [store, sync]);
  // Signed in again from the session-expired modal: what the 401 kept from the server is saved.
  useEffect(
    () =>
      useAppStore.subscribe((s, prev) => {
        if (prev.sessionExpired && !s.sessionExpired) void sync.flush();
      }),
    [sync],
  );

  // Changes the save queue has not saved yet (waiting for the debounce, on their way, or failed).
  useUnsavedChangesGuard(useStore(store, (s) => s.saveStatus !== 'saved'));
  useShortcuts(store);
  const context = useMemo(() => ({ store, sync }), [store, sync]);

  return (
    <EditorContext.Provider value={context}>
      <div className="editor">
        <header className="editor-bar">
          <Link to="/dashboard" className="editor-bar__back">
            <span aria-hidden="true">← </span>Dashboard
          </Link>
          <TitleField />
          <SaveStateIndicator />
          <HelpLink />
          <StressPreviewButton />
          <Link to={`/pic-snippet/${encodeURIComponent(loaded.meta.id)}`} className="small">
            Share and render URL
          </Link>
        </header>
        <EditorNotice />
        <div className="editor-body">
          <SidePanels />
          <div className="editor-main">
            <ImageTools />
            <CanvasStage baseImageUrl={loaded.meta.baseImageUrl} />
          </div>
          <SettingsColumn />
        </div>
        <DeleteConfirmation />
        <StickerDeleteConfirmation />
      </div>
    </EditorContext.Provider>
  );
}

/**
 * The editor's notice (a 409 re-apply in sync.ts, until dismissed; a refused command's message,
 * 4 s, commands.ts) as a toast floating over the top of the canvas stage: out of the page's
 * flow, so the canvas does not move when it comes and goes, and below the toolbars, so it never
 * covers their controls. Errors are announced at once (`role="alert"`), others politely
 * (`Notice`). Esc or the close button dismisses it; that Esc does nothing else (no deselect).
 */
function EditorNotice() {
  const { store } = useEditorContext();
  const notice = useEditor((s) => s.notice);
  /** The canvas stage of this editor (CanvasStage), found once both are in the page. */
  const [stage, setStage] = useState<HTMLElement | null>(null);
  const anchor = useCallback((node: HTMLElement | null) => {
    setStage(node?.closest('.editor')?.querySelector<HTMLElement>('.editor-stage') ?? null);
  }, []);
  useEffect(() => {
    if (!notice) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.isComposing || document.querySelector('dialog[open]'))
        return;
      event.preventDefault(); // the editor's shortcuts skip a handled key (no deselect)
      store.getState().showNotice(null);
    };
    // Capture: before the page's shortcut listener, which would deselect.
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [store, notice]);
  const toast = notice && (
    <div className="editor-notice editor-notice--toast" data-testid="editor-notice">
      <Notice tone={notice.tone}>
        <div className="editor-notice__body">
          <span>{notice.text}</span>
          <button
            type="button"
            className="editor-notice__close"
            aria-label="Dismiss message"
            title="Dismiss (Esc)"
            onClick={() => store.getState().showNotice(null)}
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
      </Notice>
    </div>
  );
  return (
    <span ref={anchor} hidden>
      {toast && stage ? createPortal(toast, stage) : null}
    </span>
  );
}

/** docs/editor.md "Messages": "Confirmations (Delete and Cancel buttons)": 'Delete Text Snippet?'. */
function DeleteConfirmation() {
  const { store } = useEditorContext();
  const confirm = useEditor((s) => (s.confirm?.kind === 'deleteSnippet' ? s.confirm : null));
  const text = useEditor((s) =>
    confirm ? s.design?.text_snippets.find((t) => t.id === confirm.id)?.text : undefined,
  );
  return (
    <ConfirmDialog
      open={confirm !== null}
      title="Delete Text Snippet?"
      confirmLabel="Delete"
      onCancel={() => store.getState().closeConfirm()}
      onConfirm={() => {
        if (confirm) runCommand(store, 'deleteTextSnippet', { id: confirm.id });
        store.getState().closeConfirm();
      }}
    >
      <p>
        “{text?.trim() || 'This text snippet'}” will be removed from the design. Undo brings it
        back.
      </p>
    </ConfirmDialog>
  );
}
