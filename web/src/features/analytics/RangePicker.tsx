import { useId } from 'react';
import { useSearchParams } from 'react-router-dom';
import { MAX_HOURLY_DAYS } from '#shared/contract/analytics.ts';
import { FieldError } from '../../components/TextField.tsx';
import {
  hourlyAllowed,
  presetOf,
  presetRange,
  PRESETS,
  type Granularity,
  readRange,
  utcDay,
  withRange,
  type RangeRead,
} from './range.ts';

/** A range as the picker hands it over: days `YYYY-MM-DD` (empty: the default) and the points' size. */
export interface PickedRange {
  from: string;
  to: string;
  granularity: Granularity;
}

/** Why "By hour" is not offered for a longer range (docs/analytics.md "The report"). */
export const HOURLY_LIMIT_TEXT = `By hour shows ranges of ${MAX_HOURLY_DAYS} days or fewer.`;

/**
 * The analytics page's range picker: the presets (last 7, 30 and 90 days, pressed when the range
 * is one), custom From and To days (UTC, as the report's days are), and By day / By hour. By hour
 * stays focusable but does nothing for a range past `MAX_HOURLY_DAYS` days, described by why
 * (docs/analytics.md "The report": at most 7 days by the hour). A range the contract refuses
 * shows the contract's message on its field. Every choice calls `onChange` with the whole range.
 */
export function RangePicker({
  range,
  today,
  onChange,
}: {
  range: RangeRead;
  /** Today's UTC day, `YYYY-MM-DD`: the presets end on it, and no day after it can be picked. */
  today: string;
  onChange: (range: PickedRange) => void;
}) {
  const id = useId();
  const current: PickedRange = range.ok
    ? { from: range.query.from, to: range.query.to, granularity: range.query.granularity }
    : { from: range.from, to: range.to, granularity: range.granularity };
  const errors = range.ok ? {} : range.errors;
  const fromErrors = errors.from;
  const toErrors = [...(errors.to ?? []), ...(errors.granularity ?? [])];
  const pressed = range.ok ? presetOf(range.query, today) : null;
  const hourly = range.ok && hourlyAllowed(range.query.from, range.query.to);
  const hourHintId = `${id}-hour-hint`;

  return (
    <div className="analytics-range">
      <div className="toggle" role="group" aria-label="Range">
        {PRESETS.map((preset) => (
          <button
            key={preset.days}
            type="button"
            className="toggle__option"
            aria-pressed={pressed === preset.days}
            onClick={() =>
              onChange({ ...presetRange(preset.days, today), granularity: current.granularity })
            }
          >
            {preset.label}
          </button>
        ))}
      </div>

      <div className="analytics-range__days">
        <DayField
          id={`${id}-from`}
          label="From (UTC)"
          value={current.from}
          max={today}
          errors={fromErrors}
          onChange={(from) => onChange({ ...current, from })}
        />
        <DayField
          id={`${id}-to`}
          label="To (UTC)"
          value={current.to}
          max={today}
          errors={toErrors.length > 0 ? toErrors : undefined}
          onChange={(to) => onChange({ ...current, to })}
        />
      </div>

      <div className="analytics-range__granularity">
        <div className="toggle" role="group" aria-label="Points">
          {(['day', 'hour'] as const).map((granularity) => {
            const disabled = granularity === 'hour' && !hourly;
            return (
              <button
                key={granularity}
                type="button"
                className="toggle__option"
                aria-pressed={current.granularity === granularity}
                aria-disabled={disabled || undefined}
                aria-describedby={disabled ? hourHintId : undefined}
                onClick={() => {
                  if (!disabled && granularity !== current.granularity) {
                    onChange({ ...current, granularity });
                  }
                }}
              >
                {granularity === 'day' ? 'By day' : 'By hour'}
              </button>
            );
          })}
        </div>
        {!hourly && (
          <p id={hourHintId} className="field__hint">
            {HOURLY_LIMIT_TEXT}
          </p>
        )}
      </div>
    </div>
  );
}

/** A labelled day input (`YYYY-MM-DD`) with its errors, invalid and described by them. */
function DayField({
  id,
  label,
  value,
  max,
  errors,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  max: string;
  errors: string[] | undefined;
  onChange: (value: string) => void;
}) {
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <input
        id={id}
        className="input"
        type="date"
        value={value}
        max={max}
        aria-invalid={errors ? true : undefined}
        aria-describedby={errors ? errorId : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {errors && <FieldError id={errorId} errors={errors} />}
    </div>
  );
}

/** What a report page says while the address's range cannot be shown. */
export const PICK_RANGE_TEXT = 'Pick a range the report can show to see its counts.';

/**
 * A report page's range, kept in the address (`from`, `to`, `granularity`): the range read, today
 * (UTC), and `pick`, which replaces the address's range (no history entry per change).
 */
export function useAddressRange(): {
  range: RangeRead;
  today: string;
  pick: (next: PickedRange) => void;
} {
  const [params, setParams] = useSearchParams();
  return {
    range: readRange(params),
    today: utcDay(new Date()),
    pick: (next) => setParams((previous) => withRange(previous, next), { replace: true }),
  };
}

/** The range picker in its own section, named "Range" for screen readers. */
export function RangeSection(props: Parameters<typeof RangePicker>[0]) {
  const id = useId();
  return (
    <section className="stack" aria-labelledby={`${id}-range`}>
      <h2 id={`${id}-range`} className="visually-hidden">
        Range
      </h2>
      <RangePicker {...props} />
    </section>
  );
}
