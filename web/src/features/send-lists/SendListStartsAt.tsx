import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { MAX_STARTS_AT_DAYS } from '#shared/contract/send-lists.ts';
import { Notice } from '../../components/Notice.tsx';
import { queryKeys } from '../../state/queryKeys.ts';
import { setStartsAt, type SendListJob } from './api.ts';
import { startsAtValue, utcText } from './model.ts';

/**
 * The "Campaign starts at" field (docs/send-lists.md "Warm capacity before a send"): a date and
 * time read as UTC, said so in its label, with its help and its error below it.
 * @param value the `datetime-local` value (`2026-12-01T09:00`), '' for none.
 */
export function StartsAtField({
  value,
  onChange,
  error,
  disabled,
}: {
  value: string;
  /** @param value the field's value; '' also while the date or time is only partly typed. */
  onChange: (value: string, partial: boolean) => void;
  error: string | null;
  disabled?: boolean;
}) {
  const id = useId();
  const hint = `${id}-hint`;
  return (
    <div className="field">
      <label className="field__label" htmlFor={`${id}-input`}>
        Campaign starts at (UTC, optional)
      </label>
      <input
        id={`${id}-input`}
        type="datetime-local"
        value={value}
        disabled={disabled}
        aria-describedby={error ? `${hint} ${id}-error` : hint}
        aria-invalid={error ? true : undefined}
        className="send-list__starts-at"
        onChange={(e) => onChange(e.target.value, e.target.validity.badInput)}
      />
      <p className="field__hint" id={hint}>
        When the first e-mails go out, in UTC (now {utcText(new Date().toISOString())}), within{' '}
        {MAX_STARTS_AT_DAYS} days. Where warm capacity is turned on, image rendering is scaled up 15
        minutes before it, for the first 10 minutes of opens.
      </p>
      {error && (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** What the field says when its date or time is only partly typed (the browser gives ''). */
export const PARTIAL_START = 'Give the date and the time in full, or leave the field empty.';

/** The field's value for an ISO time: `2026-12-01T09:00:00.000Z` → `2026-12-01T09:00`. */
const fieldValue = (iso: string | null) => (iso ? iso.slice(0, 16) : '');

/**
 * A job's campaign start and the warm capacity scheduled for it, with a form to change or
 * clear the start (the capacity is scheduled again, or removed).
 */
export function SendListStartsAt({ designId, job }: { designId: string; job: SendListJob }) {
  const client = useQueryClient();
  const [value, setValue] = useState(fieldValue(job.starts_at));
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [partial, setPartial] = useState(false);
  const save = useMutation({
    mutationFn: (startsAt: string | null) => setStartsAt(designId, job.id, startsAt),
    onSuccess: (answer) => {
      client.setQueryData(queryKeys.sendLists.job(designId, job.id), answer);
      setValue(fieldValue(answer.starts_at));
    },
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    if (partial) return setFieldError(PARTIAL_START);
    const startsAt = startsAtValue(value);
    if (startsAt !== null && typeof startsAt === 'object') return setFieldError(startsAt.error);
    setFieldError(null);
    save.mutate(startsAt);
  }
  const warm = job.warm_capacity;
  return (
    <form className="stack" onSubmit={submit} noValidate aria-busy={save.isPending}>
      <p>
        {job.starts_at
          ? `The campaign starts at ${utcText(job.starts_at)}.`
          : 'No campaign start is set.'}{' '}
        {warm &&
          `${warm.capacity} render ${warm.capacity === 1 ? 'instance is' : 'instances are'} kept warm from ${utcText(warm.raise_at)} to ${utcText(warm.lower_at)}${warm.mode === 'offline' ? ' (offline: planned, not set)' : ''}.`}
      </p>
      <StartsAtField
        value={value}
        onChange={(v, isPartial) => {
          setValue(v);
          setPartial(isPartial);
          setFieldError(null);
        }}
        error={fieldError ?? (save.error ? save.error.message : null)}
        disabled={save.isPending}
      />
      <p className="send-list__actions">
        <button type="submit" className="button" disabled={save.isPending}>
          Save the start
        </button>{' '}
        {job.starts_at && (
          <button
            type="button"
            className="button button--secondary"
            disabled={save.isPending}
            onClick={() => save.mutate(null)}
          >
            Clear the start
          </button>
        )}
      </p>
      {save.isSuccess && !save.isPending && (
        <p role="status" className="muted small">
          Saved.
        </p>
      )}
      {save.isError && (
        <Notice tone="error" title="The start was not saved">
          {save.error.message}
        </Notice>
      )}
    </form>
  );
}
