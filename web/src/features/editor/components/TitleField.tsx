import { useEffect, useId, useState } from 'react';
import { useUnsavedChangesGuard } from '../../../hooks/useUnsavedChangesGuard.ts';
import { titleEdit } from '../document/title.ts';
import { useEditor, useEditorContext } from '../EditorContext.tsx';
import { FieldError, errorIdOf } from './FieldError.tsx';

/** How long a refused title save's message shows under the field, ms (docs/editor.md "Messages"). */
export const TITLE_ERROR_MS = 3000;

/**
 * The editable design title (docs/editor.md "Architecture": "saves on blur, Enter key is blocked";
 * docs/editor.md "Editing rules" rules): on blur a changed title is saved at once; an empty one
 * shows the old title again; one over 255 characters is not saved and the spec's message shows
 * under the field. When the server refuses a save that carried a new title, its message (with the
 * title's field errors) shows under the field for {@link TITLE_ERROR_MS}, besides the save
 * indicator.
 */
export function TitleField() {
  const { sync } = useEditorContext();
  const saved = useEditor((s) => s.meta?.title ?? '');
  /** What the user is typing; null shows the saved title (also one saved elsewhere). */
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const text = draft ?? saved;
  const refused = useEditor((s) => s.titleError);
  /** The refusal whose 3 s are over (its `at`). */
  const [expired, setExpired] = useState<number | null>(null);
  useEffect(() => {
    if (!refused) return;
    const timer = window.setTimeout(() => setExpired(refused.at), TITLE_ERROR_MS);
    return () => window.clearTimeout(timer);
  }, [refused]);
  const shownRefusal = refused && refused.at !== expired ? refused.text : null;
  const message = error ?? shownRefusal;
  // A title typed but not yet saved (it saves on blur): guarded, and told to the indicator.
  const unsaved = draft !== null && draft !== saved;
  useUnsavedChangesGuard(unsaved);
  const setTitleUnsaved = useEditor((s) => s.setTitleUnsaved);
  useEffect(() => {
    setTitleUnsaved(unsaved);
  }, [unsaved, setTitleUnsaved]);

  const commit = () => {
    const edit = titleEdit(saved, text);
    setError(edit.kind === 'invalid' ? edit.message : null);
    // An invalid title stays in the field with the message, for the user to shorten.
    if (edit.kind !== 'invalid') setDraft(null);
    if (edit.kind === 'save') void sync.saveTitle(edit.title);
  };

  return (
    <div className="editor-title">
      <label htmlFor={id} className="visually-hidden">
        Design title
      </label>
      <input
        id={id}
        className="input editor-title__input"
        value={text}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={message !== null}
        aria-describedby={message ? errorIdOf(id) : undefined}
        onChange={(event) => {
          setDraft(event.target.value);
          if (error) setError(null);
        }}
        onKeyDown={(event) => {
          // docs/editor.md "Architecture": the Enter key is blocked.
          if (event.key === 'Enter') event.preventDefault();
        }}
        onBlur={commit}
      />
      <FieldError fieldId={id} message={message} />
    </div>
  );
}
