import { useId } from 'react';
import type { TextSnippet } from '#shared/design.ts';
import { runCommand } from '../commands.ts';
import { useEditor, useEditorContext } from '../EditorContext.tsx';
import { snippetLabel } from '../document/snippets.ts';
import { selectedSnippet } from '../store/selectionSlice.ts';
import { AltTextSection } from './AltTextSection.tsx';
import { NumberField } from './NumberField.tsx';
import { ParameterList } from './ParameterList.tsx';
import { SNIPPET_TEXT_FIELD_ID, SnippetTextField } from './SnippetTextField.tsx';

export { SNIPPET_TEXT_FIELD_ID } from './SnippetTextField.tsx';

/**
 * The Snippets side panel (docs/editor.md "Architecture"): Add text snippet (disabled for 1 s after use, docs/editor.md "Commands"), the design's snippets to pick from, and the selected snippet's text with `{{param}}`
 * placeholders as whole units, position, its parameters (name, fallback, text transform), and
 * Delete (with the docs/editor.md "Messages" confirmation). Font, size and colours are in the text toolbar
 * above the canvas (TextToolbar.tsx).
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
                  {snippetLabel(snippet)}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="muted small">No text snippets yet. Add one, then type its text.</p>
      )}
      <SelectedSnippet />
      <AltTextSection />
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
          Write a merge field in double braces: Hi {'{{first_name}}'}. A merge field is edited as
          one piece; Alt+← and Alt+→ move it a word.
        </p>
        <SnippetTextField snippet={snippet} describedBy={hintId} />
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
      <ParameterList snippet={snippet} />
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
