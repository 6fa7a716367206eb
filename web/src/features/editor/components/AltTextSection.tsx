import { useId, useState } from 'react';
import { altTemplate, MAX_ALT_TEXT_LENGTH, resolveAltText } from '#shared/alt-text.ts';
import { runCommand } from '../commands.ts';
import { AltTextError } from '../commands/altText.ts';
import { useEditor, useEditorContext } from '../EditorContext.tsx';

/**
 * The design's alt text (docs/export.md "Alt text"), at the foot of the Snippets panel: the
 * template with `{{param}}` merge fields (empty: the texts joined), applied when the field is
 * left, one undo step; and what a recipient without values hears, with the fallbacks.
 */
export function AltTextSection() {
  const { store } = useEditorContext();
  const design = useEditor((s) => s.design);
  const id = useId();
  const saved = design?.alt_text ?? '';
  const [text, setText] = useState(saved);
  const [shown, setShown] = useState(saved);
  const [error, setError] = useState<string | null>(null);
  // A new value from the store (undo, redo) replaces what is typed.
  if (shown !== saved) {
    setShown(saved);
    setText(saved);
    setError(null);
  }
  if (!design) return null;
  const fallbacks = Object.fromEntries(
    design.text_snippets.flatMap((s) =>
      s.parameters.map((p) => [p.param_name, p.param_default_value]),
    ),
  );
  const heard = resolveAltText(altTemplate({ ...design, alt_text: text }), {}, fallbacks);
  const commit = () => {
    if (text.trim() === saved.trim()) return;
    try {
      runCommand(store, 'setAltText', { text });
      setError(null);
    } catch (failure) {
      if (!(failure instanceof AltTextError)) throw failure;
      setError(failure.message);
    }
  };
  return (
    <section className="stack editor-alt-text" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="field__label">
        Alt text
      </h3>
      <label htmlFor={`${id}-text`} className="visually-hidden">
        Alt text
      </label>
      <p id={`${id}-hint`} className="field__hint">
        What screen readers say for the image. Use {'{{parameters}}'} as in the texts; empty: the
        texts joined.
      </p>
      <textarea
        id={`${id}-text`}
        className="input"
        rows={2}
        maxLength={MAX_ALT_TEXT_LENGTH + 50}
        value={text}
        placeholder={altTemplate({ ...design, alt_text: null })}
        aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint ${id}-heard`}
        aria-invalid={error ? true : undefined}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
      />
      {error && (
        <p id={`${id}-error`} className="field__error" role="alert">
          ! {error}
        </p>
      )}
      <p id={`${id}-heard`} className="small muted" data-testid="alt-text-heard">
        A recipient without values hears: {heard === '' ? '(nothing)' : `“${heard}”`}
      </p>
    </section>
  );
}
