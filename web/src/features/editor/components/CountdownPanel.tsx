/**
 * The properties of a selected countdown timer (docs/editor.md "Countdown timer"): its mode (a
 * fixed deadline with date, time and time zone, or evergreen from a start parameter), the units
 * shown, labels, separator, text style, expired state and GIF frames. Every change is the
 * `setCountdown` command (one undo step per field; typing merges), checked by the shared schema
 * the API checks with: a refused value stays in its field with the message and is not saved.
 * The canvas shows the change at once and keeps ticking (canvas/countdown.ts).
 */
import { useCallback, useId, useState, type ReactNode } from 'react';
import type { Sticker } from '#shared/design.ts';
import {
  COUNTDOWN_FRAMES,
  framesThatFit,
  MAX_GIF_PIXELS,
  type Countdown,
  type CountdownUnitLayout,
} from '#shared/scene/countdown.ts';
import {
  COUNTDOWN_UNIT_LAYOUTS,
  deadlineInLocalTime,
  deadlineOf,
  deadlineParts,
  durationOf,
  durationParts,
  timeZoneOptions,
  UNIT_LAYOUT_LABELS,
} from '../document/countdown.ts';
import '../countdown.css';
import { ColorField } from './ColorField.tsx';
import { FieldError, errorIdOf } from './FieldError.tsx';
import { FontFamilyField, useFontState } from './FontFamilyField.tsx';
import { NumberField } from './NumberField.tsx';
import { useEditor } from '../EditorContext.tsx';
import { QrToolbar } from './QrToolbar.tsx';
import { useHistoryKeys } from './useHistoryKeys.ts';
import { useSettingsChange } from './useSettingsChange.ts';

/** The names of the units, for the label fields. */
const UNIT_NAMES = { d: 'Days', h: 'Hours', m: 'Minutes', s: 'Seconds' } as const;

/**
 * A labelled text-like input bound to one setting: what is typed stays in the field; a valid
 * value is saved at once, a refused one shows the schema's message under the field. Undo keys
 * are the editor's.
 */
export function SettingInput({
  label,
  value,
  field,
  type = 'text',
  maxLength,
  width,
  onValue,
}: {
  label: string;
  value: string;
  /** The error key this input shows (`deadline`, `labels.d`, …). */
  field: string;
  type?: 'text' | 'date' | 'time' | 'datetime-local' | 'url' | 'number';
  maxLength?: number;
  /** A field of a few characters (the separator), of a word (a label), or of a sentence. */
  width?: 'narrow' | 'medium' | 'wide';
  onValue: (value: string) => Record<string, string> | null;
}) {
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { attach, onKeyDown } = useHistoryKeys(
    useCallback(() => {
      setDraft(null);
      setError(null);
    }, []),
  );
  return (
    <div className="editor-sticker-tools__field">
      <label htmlFor={id} className="small">
        {label}
      </label>
      <input
        ref={attach}
        id={id}
        type={type}
        className={`input countdown-panel__${width ?? type}`}
        value={draft ?? value}
        maxLength={maxLength}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorIdOf(id) : undefined}
        onKeyDown={onKeyDown}
        onBlur={() => {
          if (!error) setDraft(null);
        }}
        onChange={(e) => {
          const next = e.target.value;
          setDraft(next);
          const errors = onValue(next);
          setError(errors ? (errors[field] ?? Object.values(errors)[0] ?? null) : null);
        }}
      />
      <FieldError fieldId={id} message={error} />
    </div>
  );
}

/** A radio group of `options` (value, label), in a fieldset with its legend. */
function Choice<T extends string>({
  legend,
  name,
  value,
  options,
  onValue,
}: {
  legend: string;
  name: string;
  value: T;
  options: ReadonlyArray<readonly [T, string]>;
  onValue: (value: T) => void;
}) {
  return (
    <fieldset className="countdown-panel__choice">
      <legend className="small">{legend}</legend>
      {options.map(([option, label]) => (
        <label key={option} className="small">
          <input
            type="radio"
            name={name}
            checked={value === option}
            onChange={() => onValue(option)}
          />{' '}
          {label}
        </label>
      ))}
    </fieldset>
  );
}

/** A group of the panel: a heading and its fields. */
export function Group({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="countdown-panel__group" aria-labelledby={id}>
      <h3 id={id} className="countdown-panel__heading small">
        {title}
      </h3>
      <div className="countdown-panel__fields">{children}</div>
    </section>
  );
}

/** A labelled choice of an IANA time zone (`timeZoneOptions`), the stored one among them. */
export function TimeZoneField({
  value,
  onValue,
}: {
  value: string;
  onValue: (zone: string) => void;
}) {
  const id = useId();
  return (
    <div className="editor-sticker-tools__field">
      <label htmlFor={id} className="small">
        Time zone
      </label>
      <select
        id={id}
        className="input countdown-panel__zone"
        value={value}
        onChange={(e) => onValue(e.target.value)}
      >
        {timeZoneOptions(value).map((zone) => (
          <option key={zone} value={zone}>
            {zone.replaceAll('_', ' ')}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Fixed mode: the deadline's date, time and time zone, and that moment in the user's time. */
function DeadlineFields({ sticker, countdown }: { sticker: Sticker; countdown: Countdown }) {
  const change = useSettingsChange('setCountdown', sticker.uuid);
  const { date, time } = deadlineParts(countdown.deadline);
  const local = deadlineInLocalTime(countdown);
  return (
    <>
      <SettingInput
        label="End date"
        type="date"
        field="deadline"
        value={date}
        onValue={(next) => change({ deadline: deadlineOf(next, time) })}
      />
      <SettingInput
        label="End time"
        type="time"
        field="deadline"
        value={time}
        onValue={(next) => change({ deadline: deadlineOf(date, next) })}
      />
      <TimeZoneField value={countdown.timeZone} onValue={(timeZone) => change({ timeZone })} />
      {local && <p className="small muted countdown-panel__note">Ends {local} your time.</p>}
    </>
  );
}

/** Evergreen mode: the duration, and where the start comes from (the parameter, its fallback). */
function EvergreenFields({ sticker, countdown }: { sticker: Sticker; countdown: Countdown }) {
  const change = useSettingsChange('setCountdown', sticker.uuid);
  const parts = durationParts(countdown.durationSeconds);
  const set = (p: Partial<typeof parts>) =>
    change({ durationSeconds: durationOf({ ...parts, ...p }) });
  return (
    <>
      <NumberField
        label="Days"
        value={parts.days}
        min={0}
        max={366}
        onValue={(days) => set({ days })}
      />
      <NumberField
        label="Hours"
        value={parts.hours}
        min={0}
        max={23}
        onValue={(hours) => set({ hours })}
      />
      <NumberField
        label="Minutes"
        value={parts.minutes}
        min={0}
        max={59}
        onValue={(minutes) => set({ minutes })}
      />
      <Choice
        legend="Starts"
        name={`countdown-start-${sticker.uuid}`}
        value={countdown.start ?? 'param'}
        options={[
          ['param', 'From a parameter'],
          ['first_open', 'From the first open'],
        ]}
        onValue={(start) => change({ start })}
      />
      {countdown.start === 'first_open' ? (
        <p className="small muted countdown-panel__note">
          Counts from the first time each recipient opens the image (their URL’s values tell
          recipients apart; a URL without values counts from each open). The fallback start time is
          not used.
        </p>
      ) : (
        <p className="small muted countdown-panel__note">
          Counts from the time in the image URL’s <code>{sticker.dynamicStickerParamName}</code>{' '}
          value (an ISO date and time, such as a sign-up time; without an offset, in the timer’s
          time zone), else from the fallback start time, else from the moment the image is opened.
        </p>
      )}
      <QrToolbar sticker={sticker} />
    </>
  );
}

/**
 * The properties panel of a countdown timer sticker; nothing for a sticker without settings
 * (the document's repair gives every timer its settings).
 */
export function CountdownPanel({ sticker }: { sticker: Sticker }) {
  const countdown = sticker.countdown;
  const change = useSettingsChange('setCountdown', sticker.uuid);
  const font = useFontState(countdown?.fontFamily ?? '');
  const canvasWidth = useEditor((s) => s.design?.canvas_width ?? 0);
  const canvasHeight = useEditor((s) => s.design?.canvas_height ?? 0);
  if (!countdown) return null;
  const fit = framesThatFit(canvasWidth, canvasHeight);
  const units = [...countdown.units] as Array<keyof typeof UNIT_NAMES>;
  return (
    <div className="countdown-panel" data-testid="countdown-panel">
      <Group title="Counts down to">
        <Choice
          legend="Mode"
          name={`countdown-mode-${sticker.uuid}`}
          value={countdown.mode}
          options={[
            ['fixed', 'A fixed deadline'],
            ['evergreen', 'Evergreen (per recipient)'],
          ]}
          onValue={(mode) => change({ mode })}
        />
        {countdown.mode === 'fixed' ? (
          <DeadlineFields sticker={sticker} countdown={countdown} />
        ) : (
          <EvergreenFields sticker={sticker} countdown={countdown} />
        )}
      </Group>
      <Group title="Layout">
        <UnitsField value={countdown.units} onValue={(next) => change({ units: next })} />
        <SettingInput
          label="Separator"
          field="separator"
          maxLength={3}
          width="narrow"
          value={countdown.separator}
          onValue={(separator) => change({ separator })}
        />
        <label className="editor-sticker-tools__check small countdown-panel__row">
          <input
            type="checkbox"
            checked={countdown.showLabels}
            onChange={(e) => change({ showLabels: e.target.checked })}
          />{' '}
          Show labels
        </label>
        {countdown.showLabels &&
          units.map((unit) => (
            <SettingInput
              key={unit}
              label={`${UNIT_NAMES[unit]} label`}
              field={`labels.${unit}`}
              maxLength={20}
              width="medium"
              value={countdown.labels[unit]}
              onValue={(text) => change({ labels: { ...countdown.labels, [unit]: text } })}
            />
          ))}
      </Group>
      <Group title="Text">
        <FontFamilyField
          value={countdown.fontFamily}
          failed={font.failed}
          onChange={(fontFamily) => change({ fontFamily })}
        />
        <ColorField
          label="Colour"
          kind="color"
          value={countdown.fill}
          onValue={(fill) => change({ fill })}
        />
        <NumberField
          label="Digits size"
          unit="px"
          value={countdown.fontSize}
          min={4}
          max={400}
          onValue={(fontSize) => change({ fontSize: Math.min(400, Math.max(4, fontSize)) })}
        />
        <NumberField
          label="Labels size"
          unit="px"
          value={countdown.labelFontSize}
          min={4}
          max={200}
          onValue={(labelFontSize) =>
            change({ labelFontSize: Math.min(200, Math.max(4, labelFontSize)) })
          }
        />
        <label className="editor-sticker-tools__check small">
          <input
            type="checkbox"
            checked={countdown.fontWeight === 'bold'}
            disabled={font.uploaded}
            onChange={(e) => change({ fontWeight: e.target.checked ? 'bold' : 'normal' })}
          />{' '}
          Bold
        </label>
        <label className="editor-sticker-tools__check small">
          <input
            type="checkbox"
            checked={countdown.fontStyle === 'italic'}
            disabled={font.uploaded}
            onChange={(e) => change({ fontStyle: e.target.checked ? 'italic' : 'normal' })}
          />{' '}
          Italic
        </label>
      </Group>
      <Group title="When it ends">
        <Choice
          legend="Expired timer"
          name={`countdown-expired-${sticker.uuid}`}
          value={countdown.expired}
          options={[
            ['text', 'Show a text'],
            ['hide', 'Hide the timer'],
          ]}
          onValue={(expired) => change({ expired })}
        />
        {countdown.expired === 'text' && (
          <SettingInput
            label="Expired text"
            field="expiredText"
            maxLength={100}
            value={countdown.expiredText}
            onValue={(expiredText) => change({ expiredText })}
          />
        )}
        <NumberField
          label="GIF frames (one a second)"
          value={countdown.frames}
          hint={
            countdown.frames > fit
              ? `This ${canvasWidth} × ${canvasHeight} px canvas draws ${fit} frames: a GIF holds at most ${MAX_GIF_PIXELS / 1_000_000} million pixels, so e-mail clients load it quickly.`
              : null
          }
          min={COUNTDOWN_FRAMES.min}
          max={COUNTDOWN_FRAMES.max}
          onValue={(frames) =>
            change({
              frames: Math.min(
                COUNTDOWN_FRAMES.max,
                Math.max(COUNTDOWN_FRAMES.min, Math.round(frames)),
              ),
            })
          }
        />
      </Group>
    </div>
  );
}

/** The units shown, as the layouts read (DD:HH:MM:SS …), with an example of each. */
function UnitsField({
  value,
  onValue,
}: {
  value: CountdownUnitLayout;
  onValue: (value: CountdownUnitLayout) => void;
}) {
  const id = useId();
  return (
    <div className="editor-sticker-tools__field">
      <label htmlFor={id} className="small">
        Units shown
      </label>
      <select
        id={id}
        className="input"
        value={value}
        onChange={(e) => onValue(e.target.value as CountdownUnitLayout)}
      >
        {COUNTDOWN_UNIT_LAYOUTS.map((layout) => (
          <option key={layout} value={layout}>
            {UNIT_LAYOUT_LABELS[layout]}
          </option>
        ))}
      </select>
    </div>
  );
}
