import { useId } from 'react';
import { useController, useForm, useWatch, type Control, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import {
  ANNOUNCEMENT_BODY_MAX,
  ANNOUNCEMENT_ICONS,
  AnnouncementBody,
  type Announcement,
  type AnnouncementIcon as AnnouncementIconId,
} from '#shared/contract/kiosk.ts';
import { AnnouncementIcon } from '../../../components/AnnouncementIcon.tsx';
import { FormMessage, FormTextField } from '../../../components/FormFields.tsx';
import { Markdown } from '../../../components/Markdown.tsx';
import { FieldError } from '../../../components/TextField.tsx';
import { applyServerErrors, submitWith } from '../../../lib/forms.ts';

/** The form's values: what the inputs hold (text; '' = no action). */
type Values = {
  body: string;
  action_text: string;
  action_url: string;
  icon: AnnouncementIconId;
};
type Checked = z.output<typeof AnnouncementBody>;

const FIELDS = ['body', 'action_text', 'action_url', 'icon'] as const;

const EMPTY: Values = { body: '', action_text: '', action_url: '', icon: 'megaphone' };

/** The values of a saved announcement, for its edit form. */
const valuesOf = (a: Announcement): Values => ({
  body: a.body,
  action_text: a.action_text ?? '',
  action_url: a.action_url ?? '',
  icon: a.icon,
});

/**
 * The announcement form (docs/kiosk.md "Announcements"): the Markdown body with a live preview,
 * an optional action (text and http/https link) and an icon. Checked with the route's own
 * schema (`AnnouncementBody`: the same messages as the server); a refused save puts the
 * server's 422 on the fields (applyServerErrors), the rest above the form.
 * @param saved the announcement being edited; absent, a new one.
 * @param onSave sends the checked values; throws the call's error.
 * @param onCancel shown as a Cancel button when given (the edit form).
 */
export function AnnouncementForm({
  saved,
  submitLabel,
  busyLabel,
  onSave,
  onCancel,
}: {
  saved?: Announcement;
  submitLabel: string;
  busyLabel: string;
  onSave: (values: Checked) => Promise<void>;
  onCancel?: () => void;
}) {
  const base = useId();
  const defaults = saved ? valuesOf(saved) : EMPTY;
  const form = useForm<Values, unknown, Checked>({
    // The inputs hold strings only ('' = none), a narrower input than the schema takes.
    resolver: zodResolver(AnnouncementBody) as unknown as Resolver<Values, unknown, Checked>,
    defaultValues: defaults,
  });
  const { control, setError, reset } = form;
  const pending = form.formState.isSubmitting;

  const submit = submitWith(form, async (values) => {
    try {
      await onSave(values);
      if (!saved) reset(EMPTY);
    } catch (error) {
      applyServerErrors(setError, error, FIELDS);
    }
  });

  return (
    <form className="stack" noValidate onSubmit={submit} aria-labelledby={`${base}-title`}>
      <h3 id={`${base}-title`} className="settings-subtitle">
        {saved ? 'Edit the announcement' : 'New announcement'}
      </h3>
      <FormMessage control={control} />
      <BodyField id={`${base}-body`} control={control} />
      <div className="kiosk-form__row">
        <FormTextField
          control={control}
          field="action_text"
          id={`${base}-action-text`}
          label="Action text"
          autoComplete="off"
          required={false}
          hint="The button under the announcement, e.g. “Read more”."
        />
        <FormTextField
          control={control}
          field="action_url"
          id={`${base}-action-url`}
          label="Action link"
          autoComplete="url"
          required={false}
          hint="Starts with https:// or http://."
        />
      </div>
      <IconField id={`${base}-icon`} control={control} />
      <div className="item-list__actions">
        {onCancel && (
          <button
            type="button"
            className="button button--secondary"
            onClick={() => {
              reset(defaults);
              onCancel();
            }}
          >
            Cancel
          </button>
        )}
        <button type="submit" className="button" aria-disabled={pending}>
          {pending ? busyLabel : submitLabel}
        </button>
      </div>
    </form>
  );
}

/** The Markdown body: a textarea with its hint and error, and a preview of what users see. */
function BodyField({ id, control }: { id: string; control: Control<Values, unknown, Checked> }) {
  const {
    field: { ref, value, onChange, onBlur },
    fieldState: { error },
  } = useController({ control, name: 'body' });
  const body = useWatch({ control, name: 'body' });
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        Announcement
      </label>
      <p id={hintId} className="field__hint">
        Markdown: **bold**, *italic*, lists and [links](https://example.com). HTML is not shown.
      </p>
      <textarea
        ref={ref}
        id={id}
        name="body"
        className="input kiosk-form__body"
        rows={5}
        maxLength={ANNOUNCEMENT_BODY_MAX}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${hintId} ${errorId}` : hintId}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
      />
      {error?.message && <FieldError id={errorId} errors={[error.message]} />}
      {body.trim() !== '' && (
        <section className="kiosk-preview" aria-label="Preview">
          <p className="kiosk-preview__label muted">Preview</p>
          <Markdown>{body}</Markdown>
        </section>
      )}
    </div>
  );
}

/** The icon: a group of radio buttons, each with its drawing and name (arrow keys move). */
function IconField({ id, control }: { id: string; control: Control<Values, unknown, Checked> }) {
  const {
    field: { ref, value, onChange, onBlur },
    fieldState: { error },
  } = useController({ control, name: 'icon' });
  const errorId = `${id}-error`;
  return (
    <fieldset className="fieldset" aria-describedby={error ? errorId : undefined}>
      <legend className="field__label">Icon</legend>
      <div className="icon-choices">
        {(Object.keys(ANNOUNCEMENT_ICONS) as AnnouncementIconId[]).map((icon, index) => (
          <label key={icon} className="icon-choice" htmlFor={`${id}-${icon}`}>
            <input
              ref={index === 0 ? ref : undefined}
              id={`${id}-${icon}`}
              type="radio"
              name={`${id}-icon`}
              value={icon}
              checked={value === icon}
              onChange={() => onChange(icon)}
              onBlur={onBlur}
            />
            <AnnouncementIcon icon={icon} size={20} decorative />
            {ANNOUNCEMENT_ICONS[icon].label}
          </label>
        ))}
      </div>
      {error?.message && <FieldError id={errorId} errors={[error.message]} />}
    </fieldset>
  );
}
