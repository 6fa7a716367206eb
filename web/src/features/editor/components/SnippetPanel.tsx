import { useId, useState } from 'react';
import { MAX_FONT_SIZE, type Parameter, type TextSnippet } from '#shared/design.ts';
import { ParameterError } from '#shared/parameters.ts';
import { runCommand } from '../commands.ts';
import { useEditor, useEditorContext } from '../EditorContext.tsx';
import { selectedSnippet } from '../store/selectionSlice.ts';
import { NumberField } from './NumberField.tsx';
import { FieldError, errorIdOf } from './FieldError.tsx';

/** The id of the selected snippet's text field (a double click on the canvas focuses it). */
export const SNIPPET_TEXT_FIELD_ID = 'editor-snippet-text';

/** A `#rrggbb` for the colour input from a stored fill (`black`, `#fff`, `#1f2937`). */
export function hexColour(fill: string): string {
  const named: Record<string, string> = { black: '#000000', white: '#ffffff' };
  const value = named[fill.toLowerCase()] ?? fill;
  if (/^#[0-9a-f]{6}$/i.test(value)) return value.toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value);
  return short
    ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase()
    : '#000000';
}

/**
 * The Snippets side panel (spec 000 §2): Add text snippet (disabled for 1 s after use, spec
 * 000 §4), the design's snippets to pick from, and the selected snippet's text with `{{param}}`
 * placeholders, font size, colour, position, its parameters' fallbacks, and Delete (with the
 * spec 000 §8 confirmation).
 */
export function SnippetPanel() {
  const { store } = useEditorContext();
  const snippets = useEditor((s) => s.design?.text_snippets);
  const selection = useEditor((s) => s.selection);
  const blocked = useEditor((s) => s.addSnippetBlocked);
  const listId = useId();
  return (
    <div className="stack editor-snippets">
      <button
        type="button"
        className="button editor-snippets__add"
        disabled={blocked}
        onClick={() => runCommand(store, 'addTextSnippet')}
      >
        <span aria-hidden="true">+ </span>Add text snippet
      </button>
      {snippets && snippets.length > 0 ? (
        <div>
          <p id={listId} className="field__label">
            Text snippets
          </p>
          <ul className="editor-snippets__list" aria-labelledby={listId}>
            {snippets.map((snippet) => (
              <li key={snippet.id}>
                <button
                  type="button"
                  className="editor-snippets__item"
                  aria-pressed={selection?.kind === 'snippet' && selection.id === snippet.id}
                  onClick={() => runCommand(store, 'select', { kind: 'snippet', id: snippet.id })}
                >
                  {snippet.text.trim() || '(empty)'}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="muted small">No text snippets yet. Add one, then type its text.</p>
      )}
      <SelectedSnippet />
    </div>
  );
}

/** The selected snippet's fields, or a hint when none is selected. */
function SelectedSnippet() {
  const snippet = useEditor(selectedSnippet);
  if (!snippet) {
    return (
      <p className="muted small">Select a text snippet on the picture or in the list to edit it.</p>
    );
  }
  return <SnippetFields key={snippet.id} snippet={snippet} />;
}

function SnippetFields({ snippet }: { snippet: TextSnippet }) {
  const { store } = useEditorContext();
  const hintId = useId();
  const headingId = useId();
  const id = snippet.id;
  return (
    <section className="stack editor-snippet" aria-labelledby={headingId}>
      <h3 id={headingId} className="editor-panel__subtitle">
        Selected text snippet
      </h3>
      <div className="field">
        <label htmlFor={SNIPPET_TEXT_FIELD_ID} className="field__label">
          Text
        </label>
        <p id={hintId} className="field__hint">
          Write a merge field in double braces: Hi {'{{first_name}}'}
        </p>
        <textarea
          id={SNIPPET_TEXT_FIELD_ID}
          className="input editor-snippet__text"
          rows={3}
          spellCheck={false}
          aria-describedby={hintId}
          value={snippet.text}
          onChange={(event) =>
            runCommand(store, 'setSnippetText', { id, text: event.target.value })
          }
        />
      </div>
      <div className="editor-snippet__row">
        <NumberField
          label="Font size"
          unit="px"
          min={1}
          max={MAX_FONT_SIZE}
          value={snippet.fontSize}
          onValue={(fontSize) => runCommand(store, 'setSnippetFontSize', { id, fontSize })}
        />
        <ColourField
          label="Text colour"
          value={snippet.fill}
          onValue={(fill) => runCommand(store, 'setSnippetFill', { id, fill })}
        />
      </div>
      <div className="editor-snippet__row">
        {(['left', 'top'] as const).map((axis) => (
          <NumberField
            key={axis}
            label={axis === 'left' ? 'X' : 'Y'}
            unit="px"
            value={snippet[axis]}
            onValue={(value) =>
              runCommand(store, 'moveObject', {
                target: { kind: 'snippet', id },
                left: snippet.left,
                top: snippet.top,
                [axis]: value,
              })
            }
          />
        ))}
      </div>
      {snippet.parameters.length > 0 && <ParameterList snippet={snippet} />}
      <div>
        <button
          type="button"
          className="button button--small button--danger"
          onClick={() => store.getState().askConfirm({ kind: 'deleteSnippet', id })}
        >
          Delete text snippet
        </button>
      </div>
    </section>
  );
}

function ColourField({
  label,
  value,
  onValue,
}: {
  label: string;
  value: string;
  onValue: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="field editor-colour">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <input
        id={id}
        type="color"
        className="editor-colour__input"
        value={hexColour(value)}
        onChange={(event) => onValue(event.target.value)}
      />
    </div>
  );
}

/**
 * The snippet's parameters with their fallbacks (spec 000 §2 "a list of fallback parameters"):
 * what a recipient without a value sees; a blank fallback shows nothing in the render and the
 * parameter's name in the editor (spec 000 §5).
 */
function ParameterList({ snippet }: { snippet: TextSnippet }) {
  const headingId = useId();
  return (
    <div className="editor-fallbacks" role="group" aria-labelledby={headingId}>
      <p id={headingId} className="field__label">
        Fallback values
      </p>
      {snippet.parameters.map((parameter) => (
        <FallbackField key={parameter.id} snippetId={snippet.id} parameter={parameter} />
      ))}
    </div>
  );
}

function FallbackField({ snippetId, parameter }: { snippetId: string; parameter: Parameter }) {
  const { store } = useEditorContext();
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const stored = parameter.param_default_value;
  return (
    <div className="field">
      <label htmlFor={id} className="field__label editor-fallback__label">
        <span className="visually-hidden">Fallback for </span>
        <code>{`{{${parameter.param_name}}}`}</code>
      </label>
      <input
        id={id}
        className="input"
        value={stored.trim() === '' ? '' : stored}
        placeholder="No fallback: shows nothing"
        aria-invalid={error !== null}
        aria-describedby={error ? errorIdOf(id) : undefined}
        onChange={(event) => {
          try {
            runCommand(store, 'setParameterFallback', {
              snippetId,
              paramId: parameter.id,
              value: event.target.value,
            });
            setError(null);
          } catch (failure) {
            if (!(failure instanceof ParameterError)) throw failure;
            setError(failure.message);
          }
        }}
      />
      <FieldError fieldId={id} message={error} />
    </div>
  );
}
