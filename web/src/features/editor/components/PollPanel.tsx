/**
 * The properties of a selected poll (docs/editor.md "Poll"; docs/polls.md "The sticker"): its
 * question, 2 to 6 answers (a label and the link a vote leads to each), the voter parameter,
 * when it closes, whether the image shows live results and for how long, whether votes keep
 * the voter's value, and its style (collapsed). Every change is the `setPoll` command (one undo
 * step per field; typing merges), checked by the shared schema the API checks with: a refused
 * value stays in its field with the schema's message (`POLL_MESSAGES`) and is not saved.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { Sticker } from '#shared/design.ts';
import { POLL_OPTIONS, POLL_RESULTS_TTL_S, PollSchema, type Poll } from '#shared/scene/poll.ts';
import { movedOption, textParameterNames } from '../document/poll.ts';
import { useEditor } from '../EditorContext.tsx';
import '../countdown.css';
import { ColorField } from './ColorField.tsx';
import { Group, SettingInput, TimeZoneField } from './CountdownPanel.tsx';
import { FieldError } from './FieldError.tsx';
import { FontFamilyField, useFontState } from './FontFamilyField.tsx';
import { NumberField } from './NumberField.tsx';
import { PanelColourField } from './PanelColourField.tsx';
import { useSettingsChange } from './useSettingsChange.ts';

/** The voter parameter's choice for "no parameter": all of the recipient's values. */
const ALL_VALUES = '';

/** A new poll's panel colour (the schema's default), set again when the panel is switched on. */
const DEFAULT_PANEL = PollSchema.shape.panel_fill.parse(undefined);

/** Which way a move button moves its answer. */
type Direction = 'up' | 'down';

/**
 * The answers: a label and a link each, moved up and down, added and removed (2 to 6). A move
 * keeps the focus on the moved answer's button of the same direction (its other one when it
 * reached the end), so the keyboard can keep moving it.
 */
function OptionsFields({ sticker, poll }: { sticker: Sticker; poll: Poll }) {
  const change = useSettingsChange('setPoll', sticker.uuid);
  const [error, setError] = useState<string | null>(null);
  const listId = useId();
  const hintId = useId();
  const list = useRef<HTMLOListElement>(null);
  /** The move button to focus once the moved answer is drawn again (after the store's change). */
  const focusAfterMove = useRef<string | null>(null);
  const options = poll.options;
  useEffect(() => {
    if (!focusAfterMove.current) return;
    const label = focusAfterMove.current;
    focusAfterMove.current = null;
    list.current?.querySelector<HTMLButtonElement>(`[aria-label="${label}"]`)?.focus();
  });
  /** `step`: a move, an addition or a removal, each its own undo step. */
  const setOptions = (next: Poll['options'], step = false) => {
    const errors = change({ options: next }, step);
    setError(errors?.options ?? null);
    return errors;
  };
  const move = (from: number, direction: Direction) => {
    const to = direction === 'up' ? from - 1 : from + 1;
    const atEnd = direction === 'up' ? to === 0 : to === options.length - 1;
    const focus = atEnd ? (direction === 'up' ? 'down' : 'up') : direction;
    focusAfterMove.current = `Move answer ${to + 1} ${focus}`;
    if (setOptions(movedOption(options, from, to), true)) focusAfterMove.current = null;
  };
  return (
    <div className="poll-panel__options" id={listId}>
      <ol className="poll-panel__list" ref={list} aria-describedby={hintId}>
        {options.map((option, i) => (
          // Keyed by position and count: an added, removed or moved answer starts its fields
          // afresh.
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
            <span className="poll-panel__moves">
              <button
                type="button"
                className="button button--small button--secondary poll-panel__button"
                aria-label={`Move answer ${i + 1} up`}
                disabled={i === 0}
                onClick={() => move(i, 'up')}
              >
                ↑
              </button>
              <button
                type="button"
                className="button button--small button--secondary poll-panel__button"
                aria-label={`Move answer ${i + 1} down`}
                disabled={i === options.length - 1}
                onClick={() => move(i, 'down')}
              >
                ↓
              </button>
              <button
                type="button"
                className="button button--small button--secondary poll-panel__button"
                aria-label={`Remove answer ${i + 1}`}
                disabled={options.length <= POLL_OPTIONS.min}
                onClick={() =>
                  setOptions(
                    options.filter((_, j) => j !== i),
                    true,
                  )
                }
              >
                ✕
              </button>
            </span>
          </li>
        ))}
      </ol>
      <p id={hintId} className="small muted countdown-panel__note">
        Votes are counted by an answer&apos;s place in the list: order the answers before the e-mail
        is sent.
      </p>
      <button
        type="button"
        className="button button--small button--secondary"
        disabled={options.length >= POLL_OPTIONS.max}
        onClick={() =>
          setOptions(
            [...options, { label: `Option ${String.fromCharCode(65 + options.length)}`, url: '' }],
            true,
          )
        }
      >
        Add answer
      </button>
      <FieldError fieldId={listId} message={error} />
    </div>
  );
}

/**
 * The voter parameter: one of the design's text parameters (another dynamic sticker's parameter
 * holds a place, a link or a start time, never who the recipient is), or all of the
 * recipient's values. A stored name that is no longer a text parameter stays choosable.
 */
function VoterField({ sticker, poll }: { sticker: Sticker; poll: Poll }) {
  const change = useSettingsChange('setPoll', sticker.uuid);
  const id = useId();
  const design = useEditor((s) => s.design);
  const names = new Set(design ? textParameterNames(design) : []);
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
  const change = useSettingsChange('setPoll', sticker.uuid);
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
          <PanelColourField
            value={poll.panel_fill}
            defaultValue={DEFAULT_PANEL}
            onValue={(panel_fill) => change({ panel_fill })}
          />
        </div>
      </details>
    </div>
  );
}
