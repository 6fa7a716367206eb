import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useReducer, useState } from 'react';
import {
  fetchBundleOptions,
  fetchImageTags,
  fetchPanelTemplates,
  saveTemplate,
} from '../../../api/templates.ts';
import { Modal } from '../../../components/Modal.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { STALE_TIME } from '../../../state/queryClient.ts';
import { queryKeys } from '../../../state/queryKeys.ts';
import { useAppStore } from '../../../state/store.ts';
import { actionFailure } from '../../../lib/formFailure.ts';
import {
  ALERT_MS,
  bundleChoices,
  canSubmit,
  CLOSE_AFTER_MS,
  initialSaveModalState,
  modalTitle,
  saveModalReducer,
  submitLabel,
  TAG_ERROR_MS,
} from '../../templates/saveModalState.ts';
import { fetchEditorDesign } from '../api.ts';
import { useEditor, useEditorContext } from '../EditorContext.tsx';
import '../../templates/templates.css';

/**
 * The editor's "Save as template" button and modal (docs/editor.md "Architecture": "Tag editor with
 * related tags, template bundle select, … Save as template modal"; docs/editor.md "Commands"
 * save/update states; docs/adr/0023-team-roles.md "Team roles" only with the `sparkDeveloper` flag,
 * which is set for platform admins, docs/decisions.md). Not rendered for other users.
 */
export function SaveTemplateButton() {
  const sparkDeveloper = useAppStore((s) => s.user?.isAdmin === true);
  const [open, setOpen] = useState(false);
  if (!sparkDeveloper) return null;
  return (
    <>
      <button
        type="button"
        className="button button--small button--secondary editor-toolbar__button"
        onClick={() => setOpen(true)}
      >
        Save as template
      </button>
      {open && <SaveTemplateModal onClose={() => setOpen(false)} />}
    </>
  );
}

/**
 * The Save as template modal: "Create a template" (Continue) for a design without stored
 * tags, "Update tags" (Update) for a template; the tag editor (Enter or Shift+Enter adds a tag,
 * duplicates refused for 3 s, related tags to add with one press, "No related tags"); the
 * bundle select (existing bundles to check, a new bundle by name); the success or danger
 * message; closes 3 s after a success (docs/editor.md "Messages").
 */
export function SaveTemplateModal({ onClose }: { onClose: () => void }) {
  const { store, sync } = useEditorContext();
  const designId = useEditor((s) => s.meta?.id ?? '');
  const storedTags = useEditor((s) => s.design?.image_tags);
  const [state, dispatch] = useReducer(saveModalReducer, storedTags ?? [], initialSaveModalState);
  const [optionsLoaded, setOptionsLoaded] = useState(false);
  const [optionsError, setOptionsError] = useState<string | null>(null);
  const [tagInput, setTagInput] = useState('');
  const [bundleInput, setBundleInput] = useState('');
  const ids = useId();
  const queryClient = useQueryClient();

  // The bundle options, marked for this design (docs/editor.md "Server sync"
  // get-all-template-bundle), and the design's stored tags read again: removed from a bundle
  // meanwhile (the bundle edit page, the Templates panel), it is "save" with no tags and no bundle
  // (docs/editor.md "Commands").
  useEffect(() => {
    let live = true;
    const tags = designId
      ? fetchEditorDesign(designId).then(
          (fresh) => fresh.document.image_tags,
          () => storedTags ?? [],
        )
      : Promise.resolve(storedTags ?? []);
    Promise.all([fetchBundleOptions(designId || null), tags]).then(
      ([bundles, stored]) => {
        if (!live) return;
        dispatch({ type: 'open', storedTags: stored, bundles });
        setOptionsLoaded(true);
      },
      (error: unknown) => {
        if (!live) return;
        setOptionsLoaded(true);
        setOptionsError(actionFailure(error));
      },
    );
    return () => {
      live = false;
    };
    // Read once when the modal opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [designId]);

  // Related tags: the other tags of templates carrying the last tag; with no tag yet, the
  // image's suggested tags first (GET /image/{id}/tags), then every template's tags. The last
  // answer stays on screen while the next tag's are read; a failure offers none.
  const lastTag = state.tags[state.tags.length - 1] ?? '';
  const imageId = useEditor((s) => s.design?.image_id ?? '');
  const relatedRead = useQuery({
    queryKey: queryKeys.templates.related(lastTag, imageId),
    queryFn: async ({ signal }) => {
      const forImage =
        lastTag === '' && imageId !== ''
          ? fetchImageTags(imageId, signal).catch(() => [])
          : Promise.resolve([]);
      const [suggested, page] = await Promise.all([
        forImage,
        fetchPanelTemplates('templates', lastTag, 1, signal),
      ]);
      return [...new Set([...suggested, ...page.relatedTags])];
    },
    placeholderData: keepPreviousData,
    staleTime: STALE_TIME.library,
  });
  const related = relatedRead.isError ? [] : (relatedRead.data ?? null);

  useEffect(() => {
    if (!state.tagError) return;
    const timer = window.setTimeout(() => dispatch({ type: 'clearTagError' }), TAG_ERROR_MS);
    return () => window.clearTimeout(timer);
  }, [state.tagError]);

  useEffect(() => {
    if (state.phase === 'saved') {
      const timer = window.setTimeout(onClose, CLOSE_AFTER_MS);
      return () => window.clearTimeout(timer);
    }
    if (state.message?.tone !== 'danger') return;
    const timer = window.setTimeout(() => dispatch({ type: 'clearMessage' }), ALERT_MS);
    return () => window.clearTimeout(timer);
  }, [state.phase, state.message, onClose]);

  async function submit() {
    if (!canSubmit(state)) return;
    dispatch({ type: 'submit' });
    try {
      // The server writes the design: send what is waiting first, so versions line up.
      await sync.flush();
      const saved = await saveTemplate(state.status, designId, state.tags, bundleChoices(state));
      const { design } = store.getState();
      if (design) {
        // The stored tags are the document's; the next save must not send the old ones.
        store
          .getState()
          .replaceDocument({ ...design, image_tags: saved.tags }, saved.version, true);
      }
      dispatch({ type: 'saved', message: saved.message, tags: saved.tags, bundles: saved.bundles });
      // The template library and the bundles have it now.
      void queryClient.invalidateQueries({ queryKey: queryKeys.templates.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.bundles.all });
    } catch (error) {
      dispatch({ type: 'failed', message: actionFailure(error) });
    }
  }

  const suggestions = (related ?? []).filter((t) => !state.tags.includes(t));
  const editing = state.phase === 'editing';
  return (
    <Modal
      open
      title={modalTitle(state)}
      onCancel={onClose}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onClose}>
            {state.phase === 'saved' ? 'Close' : 'Cancel'}
          </button>
          <button
            type="button"
            className="button"
            aria-disabled={!canSubmit(state)}
            onClick={() => void submit()}
          >
            {state.phase === 'saving' && <Spinner />}
            {submitLabel(state)}
          </button>
        </>
      }
    >
      {state.message && (
        <p
          role={state.message.tone === 'danger' ? 'alert' : 'status'}
          className={`notice notice--${state.message.tone === 'danger' ? 'error' : 'success'}`}
          data-testid="save-template-message"
        >
          {state.message.text}
        </p>
      )}
      <div className="field">
        <label htmlFor={`${ids}-tag`} className="field__label">
          Tags
        </label>
        <p id={`${ids}-tag-hint`} className="field__hint">
          Press Enter (or Shift+Enter) to add a tag. Templates are found by their tags.
        </p>
        <div className="tag-editor">
          {state.tags.map((tag) => (
            <span key={tag} className="chip" data-testid="tag-chip">
              {tag}
              <button
                type="button"
                className="chip__remove"
                disabled={!editing}
                onClick={() => dispatch({ type: 'removeTag', tag })}
              >
                <span aria-hidden="true">×</span>
                <span className="visually-hidden">Remove the tag {tag}</span>
              </button>
            </span>
          ))}
          <input
            id={`${ids}-tag`}
            value={tagInput}
            data-autofocus
            aria-describedby={`${ids}-tag-hint${state.tagError ? ` ${ids}-tag-error` : ''}`}
            aria-invalid={state.tagError !== null}
            placeholder={state.tags.length === 0 ? 'e.g. sale' : ''}
            disabled={!editing}
            onChange={(event) => setTagInput(event.target.value)}
            onKeyDown={(event) => {
              if (event.key !== 'Enter') return;
              event.preventDefault();
              dispatch({ type: 'addTag', raw: tagInput });
              setTagInput('');
            }}
          />
        </div>
        {state.tagError && (
          <p id={`${ids}-tag-error`} className="field__error" role="alert">
            {state.tagError}
          </p>
        )}
      </div>
      <div className="stack-sm">
        <p className="field__label" id={`${ids}-related`}>
          Related tags
        </p>
        {related === null ? (
          <p className="muted small">
            <Spinner /> Finding related tags…
          </p>
        ) : suggestions.length === 0 ? (
          <p className="muted small">No related tags</p>
        ) : (
          <ul className="related-tags" aria-labelledby={`${ids}-related`}>
            {suggestions.map((tag) => (
              <li key={tag}>
                <button
                  type="button"
                  className="chip"
                  disabled={!editing}
                  onClick={() => dispatch({ type: 'addTag', raw: tag })}
                >
                  + {tag}
                  <span className="visually-hidden"> (add this tag)</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <fieldset className="team-picker">
        <legend className="team-picker__legend">Template bundles</legend>
        {!optionsLoaded ? (
          <p className="muted small">
            <Spinner /> Loading bundles…
          </p>
        ) : optionsError ? (
          <p className="field__error">The bundles could not be loaded: {optionsError}</p>
        ) : (
          <ul className="bundle-select">
            {state.bundles.length === 0 && state.newBundles.length === 0 && (
              <li className="muted small">
                No bundles yet. Type a name to make one with this template.
              </li>
            )}
            {state.bundles.map((bundle) => (
              <li key={bundle.id}>
                <label>
                  <input
                    type="checkbox"
                    checked={bundle.selected}
                    disabled={!editing}
                    onChange={() => dispatch({ type: 'toggleBundle', id: bundle.id })}
                  />
                  {bundle.name}
                </label>
              </li>
            ))}
            {state.newBundles.map((name) => (
              <li key={name}>
                <span className="chip">
                  New: {name}
                  <button
                    type="button"
                    className="chip__remove"
                    onClick={() => dispatch({ type: 'removeBundleName', name })}
                  >
                    <span aria-hidden="true">×</span>
                    <span className="visually-hidden">Do not create the bundle {name}</span>
                  </button>
                </span>
              </li>
            ))}
          </ul>
        )}
        <div className="bundle-select__new">
          <label htmlFor={`${ids}-bundle`} className="visually-hidden">
            New bundle name
          </label>
          <input
            id={`${ids}-bundle`}
            className="input"
            placeholder="New bundle name"
            value={bundleInput}
            maxLength={100}
            disabled={!editing}
            onChange={(event) => setBundleInput(event.target.value)}
            onKeyDown={(event) => {
              if (event.key !== 'Enter') return;
              event.preventDefault();
              dispatch({ type: 'addBundleName', name: bundleInput });
              setBundleInput('');
            }}
          />
          <button
            type="button"
            className="button button--small button--secondary"
            disabled={!editing || bundleInput.trim() === ''}
            onClick={() => {
              dispatch({ type: 'addBundleName', name: bundleInput });
              setBundleInput('');
            }}
          >
            Add bundle
          </button>
        </div>
      </fieldset>
    </Modal>
  );
}
