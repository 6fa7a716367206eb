import { useId, useState } from 'react';
import { useDebouncedValue } from '../../../hooks/useDebouncedValue.ts';
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

/** Snippets a design has before the panel offers a search (docs/editor.md "Constants"). */
export const SNIPPET_SEARCH_FROM = 6;
/** The snippet search's wait after the last key, ms (docs/editor.md "Constants": 400 ms). */
export const SNIPPET_SEARCH_WAIT_MS = 400;

/**
 * Whether a snippet matches a search: its title or text holds every word of it, case and
 * accents folded.
 */
export function snippetMatches(
  snippet: Pick<TextSnippet, 'text' | 'display_info'>,
  search: string,
): boolean {
  const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const haystack = fold(`${snippetLabel(snippet)} ${snippet.text}`);
  return fold(search)
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

/**
 * The Snippets side panel (docs/editor.md "Architecture"): Add text snippet (disabled for 1 s after
 * use, docs/editor.md "Commands"), the design's snippets to pick from (with a search from six
 * snippets on, 400 ms after the last key), and the selected snippet's text with `{{param}}`
 * placeholders as whole units, position, its parameters (name, fallback, text transform), and
 * Delete (with the docs/editor.md "Messages" confirmation). Font, size and colours are in the text
 * toolbar above the canvas (TextToolbar.tsx).
 */
export function SnippetPanel() {
  const { store } = useEditorContext();
  const snippets = useEditor((s) => s.design?.text_snippets);
  const selection = useEditor((s) => s.selection);
  const blocked = useEditor((s) => s.addSnippetBlocked);
  /** Snippets a notice points at (a repeated parameter): highlighted while it shows. */
  const pointed = useEditor((s) => s.notice?.snippetIds);
  const listId = useId();
  const searchId = useId();
  const [typed, setTyped] = useState('');
  const search = useDebouncedValue(typed, SNIPPET_SEARCH_WAIT_MS);
  const searchable = (snippets?.length ?? 0) >= SNIPPET_SEARCH_FROM;
  const shown =
    searchable && search.trim() !== ''
      ? (snippets ?? []).filter((s) => snippetMatches(s, search))
      : (snippets ?? []);
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
          {searchable && (
            <div className="field">
              <label htmlFor={searchId} className="visually-hidden">
                Search text snippets
              </label>
              <input
                id={searchId}
                type="search"
                className="input"
                placeholder="Search text snippets"
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
              />
            </div>
          )}
          {shown.length === 0 && (
            <p className="muted small" role="status">
              No text snippet holds “{search.trim()}”.
            </p>
          )}
          <ul className="editor-snippets__list" aria-labelledby={listId}>
            {shown.map((snippet) => (
              <li key={snippet.id}>
                <button
                  type="button"
                  className={`editor-snippets__item${pointed?.includes(snippet.id) ? ' editor-snippets__item--pointed' : ''}`}
                  aria-pressed={selection?.kind === 'snippet' && selection.id === snippet.id}
                  onClick={() => runCommand(store, 'select', { kind: 'snippet', id: snippet.id })}
                >
                  {snippetLabel(snippet)}
                  {pointed?.includes(snippet.id) && (
                    <span className="editor-snippets__mark small"> Shares a merge field</span>
                  )}
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
