import { useId, useState, type FormEvent } from 'react';
import {
  resendVerification,
  updateContact,
  updatePassword,
  uploadPhoto,
} from '../../api/settings.ts';
import { PhotoUpload } from '../../components/PhotoUpload.tsx';
import { Notice } from '../../components/Notice.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useUnsavedChangesGuard } from '../../hooks/useUnsavedChangesGuard.ts';
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

type ContactField = 'name' | 'email' | 'current_password';

/**
 * Name and e-mail (`PUT /settings/contact`). A new address needs the current password and
 * changes only when the link e-mailed to it is opened (docs/security.md "Invitations and e-mail
 * ownership"); an unconfirmed address can ask for a new confirmation link.
 */
function ContactForm() {
  const user = useAppStore((s) => s.user);
  const refreshSession = useAppStore((s) => s.refreshSession);
  const base = useId();
  const [values, setValues] = useState({
    name: user?.name ?? '',
    email: user?.email ?? '',
    current_password: '',
  });
  const [errors, setErrors] = useState<Partial<Record<ContactField, string[]>>>({});
  const [status, setStatus] = useState<Status>(null);
  const [pending, setPending] = useState(false);
  const emailChanged =
    values.email.trim().toLowerCase() !== (user?.email ?? '').toLowerCase() &&
    values.email.trim() !== '';
  // What was loaded or last saved (a new address waits for its link, so not the session's).
  const [saved, setSaved] = useState({ name: values.name.trim(), email: values.email.trim() });
  useUnsavedChangesGuard(
    values.name.trim() !== saved.name ||
      values.email.trim() !== saved.email ||
      values.current_password !== '',
  );

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (pending) return;
    setStatus(null);
    setErrors({});
    setPending(true);
    try {
      const answer = await updateContact({
        name: values.name.trim(),
        email: values.email.trim(),
        ...(emailChanged ? { current_password: values.current_password } : {}),
      });
      setSaved({ name: values.name.trim(), email: values.email.trim() });
      setValues((v) => ({ ...v, current_password: '' }));
      await refreshSession();
      setStatus({
        tone: 'success',
        text: answer?.pending_email
          ? (answer.message ?? `We have e-mailed a confirmation link to ${answer.pending_email}.`)
          : 'Your contact details were saved.',
      });
    } catch (error) {
      const failure = formFailure(error, ['name', 'email', 'current_password'] as const);
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
        {emailChanged && (
          <TextField
            id={`${base}-current-password`}
            label="Current password"
            name="current_password"
            type="password"
            autoComplete="current-password"
            hint="Needed to change your e-mail address. We then e-mail a link to the new address."
            value={values.current_password}
            errors={errors.current_password}
            onChange={(current_password) => setValues((v) => ({ ...v, current_password }))}
          />
        )}
        <SubmitButton pending={pending} label="Save contact details" busyLabel="Saving…" />
        {user && user.email_verified === false && <VerifyEmailNote email={user.email} />}
      </form>
    </section>
  );
}

/** An unconfirmed address: says so and sends a new confirmation link on request. */
function VerifyEmailNote({ email }: { email: string }) {
  const [status, setStatus] = useState<Status>(null);
  const [pending, setPending] = useState(false);
  async function resend() {
    if (pending) return;
    setPending(true);
    setStatus(null);
    try {
      setStatus({ tone: 'success', text: (await resendVerification()).message });
    } catch (error) {
      setStatus({ tone: 'error', text: formFailure(error, [] as const).message ?? '' });
    } finally {
      setPending(false);
    }
  }
  return (
    <div className="stack">
      <p className="muted">
        {email} is not confirmed yet. Invitations to a team need a confirmed address.
      </p>
      {status && <Notice tone={status.tone}>{status.text}</Notice>}
      <div>
        <button
          type="button"
          className="button button--small button--secondary"
          aria-disabled={pending}
          onClick={() => void resend()}
        >
          {pending ? 'Sending…' : 'Send a confirmation link'}
        </button>
      </div>
    </div>
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

/**
 * The password (`PUT /settings/password`): a change signs out every other session, and can
 * revoke the API tokens too (docs/security.md "Sessions and tokens").
 */
function PasswordForm() {
  const base = useId();
  const [values, setValues] = useState(EMPTY_PASSWORDS);
  const [revokeTokens, setRevokeTokens] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<PasswordField, string[]>>>({});
  const [status, setStatus] = useState<Status>(null);
  const [pending, setPending] = useState(false);
  useUnsavedChangesGuard(PASSWORD_FIELDS.some((name) => values[name] !== ''));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (pending) return;
    setStatus(null);
    setErrors({});
    setPending(true);
    try {
      await updatePassword({ ...values, revoke_tokens: revokeTokens });
      setValues(EMPTY_PASSWORDS);
      setStatus({
        tone: 'success',
        text: revokeTokens
          ? 'Your password was changed. Your other sessions were signed out and your API tokens revoked.'
          : 'Your password was changed. Your other sessions were signed out.',
      });
      setRevokeTokens(false);
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
        <RevokeTokensCheckbox checked={revokeTokens} onChange={setRevokeTokens} />
        <SubmitButton pending={pending} label="Change password" busyLabel="Changing…" />
      </form>
    </section>
  );
}

/**
 * "Also revoke my API tokens" of the password forms (change and reset): sent as
 * `revoke_tokens` (docs/security.md "Sessions and tokens").
 */
export function RevokeTokensCheckbox({
  checked,
  onChange,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="checkbox">
      <input
        type="checkbox"
        name="revoke_tokens"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      Also revoke my API tokens
    </label>
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
