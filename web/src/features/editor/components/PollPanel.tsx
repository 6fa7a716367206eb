/**
 * The properties of a selected poll (docs/editor.md "Poll"; docs/polls.md "The sticker"): its
 * question, 2 to 6 answers (a label and the link a vote leads to each), the voter parameter,
 * when it closes, whether the image shows live results and for how long, whether votes keep
 * the voter's value, and its style (collapsed). Every change is the `setPoll` command (one undo
 * step per field; typing merges), checked by the shared schema the API checks with: a refused
 * value stays in its field with the schema's message (`POLL_MESSAGES`) and is not saved.
 */
import { useCallback, useId, useState } from 'react';
import type { Sticker } from '#shared/design.ts';
import { takenParameterNames } from '#shared/parameters.ts';
import { POLL_OPTIONS, POLL_RESULTS_TTL_S, type Poll } from '#shared/scene/poll.ts';
import { runCommand } from '../commands.ts';
import { PollError } from '../commands/stickers.ts';
import type { PollPatch } from '../document/poll.ts';
import { useEditor, useEditorContext } from '../EditorContext.tsx';
import '../countdown.css';
import { ColorField } from './ColorField.tsx';
import { Group, SettingInput, TimeZoneField } from './CountdownPanel.tsx';
import { FieldError } from './FieldError.tsx';
import { FontFamilyField, useFontState } from './FontFamilyField.tsx';
import { NumberField } from './NumberField.tsx';

/** The voter parameter's choice for "no parameter": all of the recipient's values. */
const ALL_VALUES = '';

/** `#rrggbb` of an `#rrggbbaa` colour (the default panel's), as the colour picker shows it. */
const opaque = (colour: string): string =>
  /^#[0-9a-f]{8}$/i.test(colour) ? colour.slice(0, 7) : colour;

/** Runs `setPoll` for the sticker; answers the refused fields' messages, or null. */
function usePollChange(id: string): (patch: PollPatch) => Record<string, string> | null {
  const { store } = useEditorContext();
  return useCallback(
    (patch) => {
      try {
        runCommand(store, 'setPoll', { id, patch });
        return null;
      } catch (e) {
        if (e instanceof PollError) return e.errors;
        throw e;
      }
    },
    [store, id],
  );
}

/** The answers: a label and a link each, with add and remove (2 to 6). */
function OptionsFields({ sticker, poll }: { sticker: Sticker; poll: Poll }) {
  const change = usePollChange(sticker.uuid);
  const [error, setError] = useState<string | null>(null);
  const listId = useId();
  const options = poll.options;
  const setOptions = (next: Poll['options']) => {
    const errors = change({ options: next });
    setError(errors?.options ?? null);
    return errors;
  };
  return (
    <div className="poll-panel__options" id={listId}>
      <ol className="poll-panel__list">
        {options.map((option, i) => (
          // Keyed by position and count: an added or removed answer starts its fields afresh.
          <li key={`${i}/${options.length}`} className="poll-panel__option">
            <SettingInput
              label={`Answer ${i + 1}`}
              field={`options.${i}.label`}
              maxLength={60}
              width="medium"
              value={option.label}
              onValue={(label) => setOptions(options.with(i, { ...option, label }))}
            />
            <SettingInput
              label={`Answer ${i + 1} link`}
              type="url"
              field={`options.${i}.url`}
              value={option.url}
              onValue={(url) => setOptions(options.with(i, { ...option, url }))}
            />
            <button
              type="button"
              className="button button--small button--secondary poll-panel__remove"
              aria-label={`Remove answer ${i + 1}`}
              disabled={options.length <= POLL_OPTIONS.min}
              onClick={() => setOptions(options.filter((_, j) => j !== i))}
            >
              ✕
            </button>
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="button button--small button--secondary"
        disabled={options.length >= POLL_OPTIONS.max}
        onClick={() =>
          setOptions([
            ...options,
            { label: `Option ${String.fromCharCode(65 + options.length)}`, url: '' },
          ])
        }
      >
        Add answer
      </button>
      <FieldError fieldId={listId} message={error} />
    </div>
  );
}

/** The voter parameter: one of the design's parameters, or all of the recipient's values. */
function VoterField({ sticker, poll }: { sticker: Sticker; poll: Poll }) {
  const change = usePollChange(sticker.uuid);
  const id = useId();
  const design = useEditor((s) => s.design);
  const names = new Set(
    design ? takenParameterNames(design).filter((n) => n !== sticker.dynamicStickerParamName) : [],
  );
  if (poll.voter_parameter) names.add(poll.voter_parameter);
  return (
    <div className="editor-sticker-tools__field">
      <label htmlFor={id} className="small">
        Voter parameter
      </label>
      <select
        id={id}
        className="input"
        value={poll.voter_parameter ?? ALL_VALUES}
        onChange={(e) =>
          change({ voter_parameter: e.target.value === ALL_VALUES ? null : e.target.value })
        }
      >
        <option value={ALL_VALUES}>All of the recipient&apos;s values</option>
        {[...names].sort().map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The selected poll's settings, in groups; the style collapsed so the canvas stays in view. */
export function PollPanel({ sticker }: { sticker: Sticker }) {
  const poll = sticker.poll;
  const change = usePollChange(sticker.uuid);
  const font = useFontState(poll?.font_family ?? '');
  const hintId = useId();
  if (!poll) return null;
  return (
    <div className="countdown-panel poll-panel" data-testid="poll-panel">
      <Group title="Question and answers">
        <SettingInput
          label="Question"
          field="question"
          width="wide"
          value={poll.question}
          onValue={(question) => change({ question })}
        />
        <OptionsFields sticker={sticker} poll={poll} />
      </Group>
      <Group title="Voting">
        <VoterField sticker={sticker} poll={poll} />
        <SettingInput
          label="Closes at"
          type="datetime-local"
          field="closes_at"
          value={poll.closes_at ?? ''}
          onValue={(v) => change({ closes_at: v === '' ? null : v })}
        />
        <TimeZoneField value={poll.time_zone} onValue={(time_zone) => change({ time_zone })} />
        <label className="editor-sticker-tools__check small countdown-panel__row">
          <input
            type="checkbox"
            checked={poll.show_results}
            onChange={(e) => change({ show_results: e.target.checked })}
          />{' '}
          Show live results
        </label>
        <SettingInput
          label={`Results kept (seconds, ${POLL_RESULTS_TTL_S.min}–${POLL_RESULTS_TTL_S.max})`}
          type="number"
          field="results_ttl_s"
          width="narrow"
          value={String(poll.results_ttl_s)}
          onValue={(v) => change({ results_ttl_s: v.trim() === '' ? 0 : Number(v) })}
        />
        <label className="editor-sticker-tools__check small countdown-panel__row">
          <input
            type="checkbox"
            checked={poll.keep_voter_value}
            aria-describedby={hintId}
            onChange={(e) => change({ keep_voter_value: e.target.checked })}
          />{' '}
          Keep voter values
        </label>
        <p id={hintId} className="small muted countdown-panel__note">
          Kept only when the design requires signed URLs.
        </p>
      </Group>
      <details className="countdown-panel__group poll-panel__style">
        <summary className="countdown-panel__heading small">Style</summary>
        <div className="countdown-panel__fields">
          <FontFamilyField
            value={poll.font_family}
            failed={font.failed}
            onChange={(font_family) => change({ font_family })}
          />
          <NumberField
            label="Text size"
            unit="px"
            value={poll.font_size}
            min={8}
            max={120}
            onValue={(font_size) => change({ font_size: Math.min(120, Math.max(8, font_size)) })}
          />
          <ColorField
            label="Text colour"
            kind="color"
            value={poll.fill}
            onValue={(fill) => change({ fill })}
          />
          <ColorField
            label="Bar colour"
            kind="color"
            value={poll.bar_fill}
            onValue={(bar_fill) => change({ bar_fill })}
          />
          <ColorField
            label="Track colour"
            kind="color"
            value={poll.track_fill}
            onValue={(track_fill) => change({ track_fill })}
          />
          <ColorField
            label="Panel colour"
            kind="color"
            value={poll.panel_fill === 'transparent' ? null : opaque(poll.panel_fill)}
            onValue={(panel_fill) => change({ panel_fill })}
          />
        </div>
      </details>
    </div>
  );
}
