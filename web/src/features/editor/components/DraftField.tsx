import { useId, useState } from 'react';

/**
 * A text field that changes the rules when it is left (or Enter is pressed), so a value that is
 * invalid while typed (half a URL) is never applied; a refused value stays with its message.
 */
export function DraftField({
  label,
  value,
  hint,
  type = 'text',
  onCommit,
}: {
  label: string;
  value: string;
  hint?: string;
  type?: 'text' | 'number' | 'datetime-local' | 'url';
  /** Applies the value; returns the problem, or null when it was applied. */
  onCommit: (value: string) => string | null;
}) {
  const id = useId();
  const [text, setText] = useState(value);
  const [error, setError] = useState<string | null>(null);
  // A new value from the store (undo, redo, another field's change) replaces what is shown.
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setText(value);
    setError(null);
  }
  const commit = () => {
    if (text !== value) setError(onCommit(text));
  };
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      {hint && (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      )}
      <input
        id={id}
        type={type}
        className="input"
        value={text}
        aria-invalid={error !== null}
        aria-describedby={[hint ? `${id}-hint` : '', error ? `${id}-error` : '']
          .filter(Boolean)
          .join(' ')}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
        }}
      />
      {error && (
        <p id={`${id}-error`} className="field__error" role="alert">
          ! {error}
        </p>
      )}
    </div>
  );
}
