import { Spinner } from '../../../components/Spinner.tsx';
import { useEditor, useEditorContext } from '../EditorContext.tsx';

/**
 * The save state (docs/editor.md "Server sync"): "Saving…"
 * from the first unsaved change until the server has it, "Saved", or "Not saved" with the
 * reason and a Retry button; while a title is typed and not yet saved (it saves on blur), it
 * says so instead of "Saved". A polite live region: screen readers hear the outcome.
 */
export function SaveStateIndicator() {
  const { sync } = useEditorContext();
  const status = useEditor((s) => s.saveStatus);
  const message = useEditor((s) => s.saveMessage);
  // A title being typed is not saved yet, whatever the queue says (it saves on blur).
  const titleUnsaved = useEditor((s) => s.titleUnsaved);
  if (status === 'saved' && titleUnsaved)
    return (
      <div className="editor-save editor-save--pending" data-testid="save-state">
        <p role="status" className="editor-save__text">
          <span aria-hidden="true">• </span>Title not saved yet: it saves when you leave the field
        </p>
      </div>
    );
  return (
    <div className={`editor-save editor-save--${status}`} data-testid="save-state">
      <p role="status" className="editor-save__text">
        {status === 'saved' && (
          <>
            <span aria-hidden="true">✓ </span>Saved
          </>
        )}
        {(status === 'pending' || status === 'saving') && (
          <>
            <Spinner /> Saving…
          </>
        )}
        {status === 'failed' && (
          <>
            <span aria-hidden="true">! </span>Not saved{message ? `: ${message}` : ''}
          </>
        )}
      </p>
      {status === 'failed' && (
        <button
          type="button"
          className="button button--small button--secondary"
          onClick={() => void sync.flush()}
        >
          Retry
        </button>
      )}
    </div>
  );
}
