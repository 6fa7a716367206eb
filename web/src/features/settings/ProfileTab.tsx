import { useId, useState, type FormEvent } from 'react';
import { updateContact, updatePassword, uploadPhoto } from '../../api/settings.ts';
import { PhotoUpload } from '../../components/PhotoUpload.tsx';
import { Notice } from '../../components/Notice.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useAppStore } from '../../state/store.ts';
import { formFailure } from './formFailure.ts';

/**
 * Profile tab: the photo, contact details and the password (spec 001 §7 `POST /settings/photo`,
 * `PUT /settings/contact`, `PUT /settings/password`).
 */
export function ProfileTab() {
  const user = useAppStore((s) => s.user);
  const refreshSession = useAppStore((s) => s.refreshSession);
  return (
    <div className="stack-lg">
      <section className="settings-section" aria-label="Profile photo">
        <PhotoUpload
          label="Profile photo"
          name={user?.name ?? ''}
          photoUrl={user?.photo_url ?? null}
          upload={(file, onProgress) => uploadPhoto({ kind: 'user' }, file, onProgress)}
          onUploaded={() => void refreshSession()}
        />
      </section>
      <ContactForm />
      <PasswordForm />
    </div>
  );
}

type Status = { tone: 'success' | 'error'; text: string } | null;

function ContactForm() {
  const user = useAppStore((s) => s.user);
  const refreshSession = useAppStore((s) => s.refreshSession);
  const base = useId();
  const [values, setValues] = useState({ name: user?.name ?? '', email: user?.email ?? '' });
  const [errors, setErrors] = useState<Partial<Record<'name' | 'email', string[]>>>({});
  const [status, setStatus] = useState<Status>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (pending) return;
    setStatus(null);
    setErrors({});
    setPending(true);
    try {
      await updateContact({ name: values.name.trim(), email: values.email.trim() });
      await refreshSession();
      setStatus({ tone: 'success', text: 'Your contact details were saved.' });
    } catch (error) {
      const failure = formFailure(error, ['name', 'email'] as const);
      setErrors(failure.fields);
      if (failure.message) setStatus({ tone: 'error', text: failure.message });
      focusFirstInvalid(base);
    } finally {
      setPending(false);
    }
  }

  return (
    <section className="settings-section" aria-labelledby={`${base}-title`}>
      <h2 id={`${base}-title`} className="card__title">
        Contact information
      </h2>
      <form id={base} className="stack" noValidate onSubmit={(e) => void submit(e)}>
        {status && <Notice tone={status.tone}>{status.text}</Notice>}
        <TextField
          id={`${base}-name`}
          label="Name"
          name="name"
          autoComplete="name"
          autoCapitalize="words"
          value={values.name}
          errors={errors.name}
          onChange={(name) => setValues((v) => ({ ...v, name }))}
        />
        <TextField
          id={`${base}-email`}
          label="E-mail address"
          name="email"
          type="email"
          autoComplete="email"
          value={values.email}
          errors={errors.email}
          onChange={(email) => setValues((v) => ({ ...v, email }))}
        />
        <SubmitButton pending={pending} label="Save contact details" busyLabel="Saving…" />
      </form>
    </section>
  );
}

type PasswordField = 'current_password' | 'password' | 'password_confirmation';
const PASSWORD_FIELDS: readonly PasswordField[] = [
  'current_password',
  'password',
  'password_confirmation',
];
const EMPTY_PASSWORDS: Record<PasswordField, string> = {
  current_password: '',
  password: '',
  password_confirmation: '',
};

function PasswordForm() {
  const base = useId();
  const [values, setValues] = useState(EMPTY_PASSWORDS);
  const [errors, setErrors] = useState<Partial<Record<PasswordField, string[]>>>({});
  const [status, setStatus] = useState<Status>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (pending) return;
    setStatus(null);
    setErrors({});
    setPending(true);
    try {
      await updatePassword(values);
      setValues(EMPTY_PASSWORDS);
      setStatus({ tone: 'success', text: 'Your password was changed.' });
    } catch (error) {
      const failure = formFailure(error, PASSWORD_FIELDS);
      setErrors(failure.fields);
      if (failure.message) setStatus({ tone: 'error', text: failure.message });
      focusFirstInvalid(base);
    } finally {
      setPending(false);
    }
  }

  const field = (name: PasswordField, label: string, autoComplete: string, hint?: string) => (
    <TextField
      id={`${base}-${name}`}
      label={label}
      name={name}
      type="password"
      autoComplete={autoComplete}
      hint={hint}
      value={values[name]}
      errors={errors[name]}
      onChange={(value) => setValues((v) => ({ ...v, [name]: value }))}
    />
  );

  return (
    <section className="settings-section" aria-labelledby={`${base}-title`}>
      <h2 id={`${base}-title`} className="card__title">
        Change password
      </h2>
      <form id={base} className="stack" noValidate onSubmit={(e) => void submit(e)}>
        {status && <Notice tone={status.tone}>{status.text}</Notice>}
        {field('current_password', 'Current password', 'current-password')}
        {field('password', 'New password', 'new-password', 'At least 8 characters.')}
        {field('password_confirmation', 'Confirm new password', 'new-password')}
        <SubmitButton pending={pending} label="Change password" busyLabel="Changing…" />
      </form>
    </section>
  );
}

/** A form's submit button that shows a spinner and stays focusable while busy. */
export function SubmitButton({
  pending,
  label,
  busyLabel,
  className = 'button',
}: {
  pending: boolean;
  label: string;
  busyLabel: string;
  className?: string;
}) {
  return (
    <div>
      <button type="submit" className={className} aria-disabled={pending}>
        {pending ? (
          <>
            <Spinner /> {busyLabel}
          </>
        ) : (
          label
        )}
      </button>
    </div>
  );
}

/**
 * After a failed submit, moves focus to the form's first invalid field once React has marked it
 * `aria-invalid` (checked on the next few tasks, up to ~100 ms). Timers rather than animation
 * frames: a tab in the background gets no frames, and the errors must still take focus.
 */
export function focusFirstInvalid(formId: string, attempts = 10) {
  window.setTimeout(() => {
    const field = document
      .getElementById(formId)
      ?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (field) field.focus();
    else if (attempts > 1) focusFirstInvalid(formId, attempts - 1);
  }, 10);
}
