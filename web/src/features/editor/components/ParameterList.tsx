import { useCallback, useEffect, useId, useRef, useState } from 'react';
import {
  TEXT_TRANSFORMS,
  type Parameter,
  type TextSnippet,
  type TextTransformKey,
} from '#shared/design.ts';
import { sanitizeParameterName } from '#shared/parameter-rules.ts';
import { ParameterError } from '#shared/parameters.ts';
import { Modal } from '../../../components/Modal.tsx';
import { runCommand, runCommandWith, type CommandArgs, type CommandName } from '../commands.ts';
import { useEditor, useEditorContext } from '../EditorContext.tsx';
import { placeholderRanges } from '../document/placeholders.ts';
import { FieldError, errorIdOf } from './FieldError.tsx';
import { useHistoryKeys } from './useHistoryKeys.ts';

/** The local-storage preference of the custom-data intro (docs/editor.md "Architecture"): '0' hides it. */
export const CUSTOM_DATA_MODAL_KEY = 'customDataModal';

/** Whether the custom-data intro should show (docs/editor.md "Architecture": until "Don't show it again"). */
function introWanted(): boolean {
  try {
    return localStorage.getItem(CUSTOM_DATA_MODAL_KEY) !== '0';
  } catch {
    return false; // no storage: the choice could not be kept, so do not nag
  }
}

/**
 * Runs a parameter command; a refused value comes back as the spec's message (ParameterError,
 * docs/editor.md "Editing rules") instead of a throw.
 * @returns the message, or null when the command ran.
 */
function tryCommand<K extends CommandName>(
  run: (name: K, args: CommandArgs[K]) => void,
  name: K,
  args: CommandArgs[K],
): string | null {
  try {
    run(name, args);
    return null;
  } catch (failure) {
    if (failure instanceof ParameterError) return failure.message;
    throw failure;
  }
}

/**
 * The selected snippet's parameters (docs/editor.md "Architecture": "a list of fallback
 * parameters"): for each, its name (renamed in the text as typed; the name-conflict state of
 * docs/editor.md "Commands" with the docs/editor.md "Editing rules" messages), its fallback (what a
 * recipient without a value sees; blank shows nothing in the render and the name in the editor,
 * docs/editor.md "Editing rules"), its text transform toggle and option (docs/editor.md "Commands":
 * "Text transform"), buttons to move its placeholder a word earlier or later, and Remove. Undo and
 * redo keys in the name and fallback fields are the editor's (`useHistoryKeys`). Below them, Add
 * custom data (docs/editor.md "Commands": "Adding a parameter": blocked until the save finishes;
 * the intro modal the first times).
 */
export function ParameterList({ snippet }: { snippet: TextSnippet }) {
  const { store } = useEditorContext();
  const headingId = useId();
  const savedRevision = useEditor((s) => s.savedRevision);
  const saveFailed = useEditor((s) => s.saveStatus === 'failed');
  /** The revision of the last add; further adds wait for the save of it. */
  const [addedAt, setAddedAt] = useState<number | null>(null);
  const [intro, setIntro] = useState(false);
  const last = useRef<string | null>(null);
  const blocked = addedAt !== null && savedRevision < addedAt && !saveFailed;

  // A new parameter is scrolled into view and its name field focused (docs/editor.md "Commands").
  const newest = snippet.parameters.at(-1)?.id ?? null;
  useEffect(() => {
    if (last.current !== null && newest !== null && newest !== last.current && addedAt !== null) {
      const field = document.getElementById(nameFieldId(newest));
      field?.scrollIntoView({ block: 'nearest' });
      if (!intro) field?.focus();
    }
    last.current = newest;
  }, [newest, addedAt, intro]);

  return (
    <div className="stack editor-fallbacks" role="group" aria-labelledby={headingId}>
      <p id={headingId} className="field__label">
        Custom data and fallback values
      </p>
      {snippet.parameters.length === 0 && (
        <p className="muted small">
          No custom data yet. Type {'{{first_name}}'} in the text, or add one here.
        </p>
      )}
      {snippet.parameters.map((parameter) => (
        <ParameterItem key={parameter.id} snippet={snippet} parameter={parameter} />
      ))}
      <button
        type="button"
        className="button button--small button--secondary"
        disabled={blocked}
        onClick={() => {
          runCommand(store, 'addParameter', { id: snippet.id });
          setAddedAt(store.getState().revision);
          if (introWanted()) setIntro(true);
        }}
      >
        <span aria-hidden="true">+ </span>Add custom data
      </button>
      <CustomDataIntro open={intro} onClose={() => setIntro(false)} />
    </div>
  );
}

/** The name field id of a parameter (focused after an add). */
const nameFieldId = (paramId: string) => `editor-parameter-name-${paramId}`;

function ParameterItem({ snippet, parameter }: { snippet: TextSnippet; parameter: Parameter }) {
  const { store } = useEditorContext();
  const ids = { snippetId: snippet.id, paramId: parameter.id };
  const run = <K extends CommandName>(name: K, args: CommandArgs[K]) =>
    runCommandWith(store, name, args);
  const first = placeholderRanges(snippet.text).find((r) => r.name === parameter.param_name);
  const move = (to: 'left' | 'right') =>
    first &&
    runCommand(store, 'moveParameterPlaceholder', { id: snippet.id, start: first.start, to });
  const name = parameter.param_name;
  return (
    <fieldset className="editor-parameter">
      <legend className="editor-parameter__legend">
        <code>{`{{${name}}}`}</code>
      </legend>
      <NameField
        parameter={parameter}
        onRename={(n) => tryCommand(run, 'renameParameter', { ...ids, name: n })}
      />
      <FallbackField
        parameter={parameter}
        onValue={(value) => tryCommand(run, 'setParameterFallback', { ...ids, value })}
      />
      <TextTransformFields
        parameter={parameter}
        onChange={(change) => run('setParameterTextTransform', { ...ids, ...change })}
      />
      <div className="editor-parameter__actions">
        <button
          type="button"
          className="button button--small button--secondary"
          disabled={!first}
          aria-label={`Move {{${name}}} a word earlier`}
          onClick={() => move('left')}
        >
          <span aria-hidden="true">←</span> Earlier
        </button>
        <button
          type="button"
          className="button button--small button--secondary"
          disabled={!first}
          aria-label={`Move {{${name}}} a word later`}
          onClick={() => move('right')}
        >
          Later <span aria-hidden="true">→</span>
        </button>
        <button
          type="button"
          className="button button--small button--secondary"
          aria-label={`Remove {{${name}}}`}
          onClick={() => run('removeParameter', ids)}
        >
          Remove
        </button>
      </div>
    </fieldset>
  );
}

/**
 * A parameter's name (docs/editor.md "Editing rules": letters, digits, `_` and `-`, others stripped
 * as typed). A valid name renames at once, in the text too; an empty, digits-only or taken one
 * shows the spec's message (the name-conflict state of docs/editor.md "Commands") and keeps the old
 * name, which the field shows again when it loses focus.
 */
function NameField({
  parameter,
  onRename,
}: {
  parameter: Parameter;
  onRename: (name: string) => string | null;
}) {
  const id = nameFieldId(parameter.id);
  const [draft, setDraft] = useState<string | null>(null);
  const [conflict, setConflict] = useState<string | null>(null);
  // The editor's undo puts the stored name back: a draft with a conflict goes with it.
  const { attach: historyKeys, onKeyDown: onHistoryKey } = useHistoryKeys(
    useCallback(() => {
      setDraft(null);
      setConflict(null);
    }, []),
  );
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        Name
      </label>
      <input
        ref={historyKeys}
        id={id}
        className="input"
        spellCheck={false}
        autoComplete="off"
        value={draft ?? parameter.param_name}
        aria-invalid={conflict !== null}
        aria-describedby={conflict ? errorIdOf(id) : undefined}
        onChange={(event) => {
          const name = sanitizeParameterName(event.target.value);
          setDraft(name);
          setConflict(name === parameter.param_name ? null : onRename(name));
        }}
        onBlur={() => {
          setDraft(null);
          setConflict(null);
        }}
        onKeyDown={onHistoryKey}
      />
      <FieldError fieldId={id} message={conflict} />
    </div>
  );
}

/** A parameter's fallback (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore": blank stored as one space; docs/editor.md "Editing rules": at most 255 characters). */
function FallbackField({
  parameter,
  onValue,
}: {
  parameter: Parameter;
  onValue: (value: string) => string | null;
}) {
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const stored = parameter.param_default_value;
  const { attach: historyKeys, onKeyDown: onHistoryKey } = useHistoryKeys(
    useCallback(() => setError(null), []),
  );
  return (
    <div className="field">
      <label htmlFor={id} className="field__label editor-fallback__label">
        Fallback<span className="visually-hidden"> for {`{{${parameter.param_name}}}`}</span>
      </label>
      <input
        ref={historyKeys}
        id={id}
        className="input"
        value={stored.trim() === '' ? '' : stored}
        placeholder="No fallback: shows nothing"
        aria-invalid={error !== null}
        aria-describedby={error ? errorIdOf(id) : undefined}
        onChange={(event) => setError(onValue(event.target.value))}
        onKeyDown={onHistoryKey}
      />
      <FieldError fieldId={id} message={error} />
    </div>
  );
}

/** The text transform toggle and option (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore" `text_transform`, docs/editor.md "Commands": "Text transform"). */
function TextTransformFields({
  parameter,
  onChange,
}: {
  parameter: Parameter;
  onChange: (change: { checkFormating?: boolean; formatOptionKey?: TextTransformKey }) => void;
}) {
  const toggleId = useId();
  const optionId = useId();
  const transform = parameter.text_transform;
  return (
    <div className="editor-parameter__transform">
      <label htmlFor={toggleId} className="editor-parameter__check">
        <input
          id={toggleId}
          type="checkbox"
          checked={transform.checkFormating}
          onChange={(event) => onChange({ checkFormating: event.target.checked })}
        />
        Text transform
      </label>
      {transform.checkFormating && (
        <div className="field">
          <label htmlFor={optionId} className="visually-hidden">
            Text transform of {`{{${parameter.param_name}}}`}
          </label>
          <select
            id={optionId}
            className="input"
            value={transform.formatOptionKey ?? ''}
            onChange={(event) =>
              onChange({ formatOptionKey: event.target.value as TextTransformKey })
            }
          >
            <option value="" disabled>
              Choose…
            </option>
            {(Object.keys(TEXT_TRANSFORMS) as TextTransformKey[]).map((key) => (
              <option key={key} value={key}>
                {TEXT_TRANSFORMS[key]}
              </option>
            ))}
          </select>
        </div>
      )}
    </div>
  );
}

/**
 * The custom-data intro (docs/editor.md "Architecture"): what custom data is and how a value
 * reaches the image; it shows on each add until the user picks "Don't show it again"
 * (`customDataModal` = '0').
 */
function CustomDataIntro({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal
      open={open}
      title="Custom data"
      onCancel={onClose}
      actions={
        <>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => {
              try {
                localStorage.setItem(CUSTOM_DATA_MODAL_KEY, '0');
              } catch (error) {
                console.warn('The custom-data preference could not be saved', error);
              }
              onClose();
            }}
          >
            Don&apos;t show it again
          </button>
          <button type="button" className="button" data-autofocus onClick={onClose}>
            Got it
          </button>
        </>
      }
    >
      <p>
        Custom data puts each recipient&apos;s own value into the picture. A field written{' '}
        <code>{'{{first_name}}'}</code> in the text is filled from the image address:{' '}
        <code>?first_name=Ana</code> draws “Ana”.
      </p>
      <p>
        When a recipient has no value, the fallback shows instead; with no fallback, nothing shows.
        Rename the field to match your e-mail platform&apos;s merge tag.
      </p>
    </Modal>
  );
}
