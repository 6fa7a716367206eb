import { useId, useState } from 'react';
import { useUnsavedChangesGuard } from '../../../hooks/useUnsavedChangesGuard.ts';
import { titleEdit } from '../document/title.ts';
import { useEditor, useEditorContext } from '../EditorContext.tsx';
import { FieldError, errorIdOf } from './FieldError.tsx';

/**
 * The editable design title (docs/editor.md "Architecture": "saves on blur, Enter key is blocked"; docs/editor.md "Editing rules" rules):
 * on blur a changed title is saved at once; an empty one shows the old title again; one over
 * 255 characters is not saved and the spec's message shows under the field.
 */
export function TitleField() {
  const { sync } = useEditorContext();
  const saved = useEditor((s) => s.meta?.title ?? '');
  /** What the user is typing; null shows the saved title (also one saved elsewhere). */
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const text = draft ?? saved;
  // A title typed but not yet saved (it saves on blur).
  useUnsavedChangesGuard(draft !== null && draft !== saved);

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
        aria-invalid={error !== null}
        aria-describedby={error ? errorIdOf(id) : undefined}
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
      <FieldError fieldId={id} message={error} />
    </div>
  );
}
