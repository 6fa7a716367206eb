import { ImpersonationLock } from '../../components/ImpersonationLock.tsx';
import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { ContactBody, passwordChangeBody } from '#shared/contract/auth.ts';
import {
  resendVerification,
  updateContact,
  updatePassword,
  uploadPhoto,
} from '../../api/settings.ts';
import { PhotoUpload } from '../../components/PhotoUpload.tsx';
import { Notice } from '../../components/Notice.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { FormMessage, FormTextField } from '../../components/FormFields.tsx';
import { useUnsavedChangesGuard } from '../../hooks/useUnsavedChangesGuard.ts';
import { applyServerErrors, placeErrors, submitWith } from '../../lib/forms.ts';
import { useAppStore } from '../../state/store.ts';

/**
 * Profile tab: the photo, contact details and the password (docs/adr/0044-the-api-contract.md "The
 * API contract" `POST /settings/photo`, `PUT /settings/contact`, `PUT /settings/password`).
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

const CONTACT_FIELDS = ['name', 'email', 'current_password'] as const;
type ContactValues = z.input<typeof ContactBody>;

/**
 * Name and e-mail (`PUT /settings/contact`, checked with the route's `ContactBody`). A new
 * address needs the current password and changes only when the link e-mailed to it is opened
 * (docs/security.md "Invitations and e-mail ownership"); an unconfirmed address can ask for a
 * new confirmation link.
 */
function ContactForm() {
  const user = useAppStore((s) => s.user);
  const refreshSession = useAppStore((s) => s.refreshSession);
  const base = useId();
  const form = useForm<ContactValues, unknown, z.output<typeof ContactBody>>({
    resolver: zodResolver(ContactBody),
    defaultValues: { name: user?.name ?? '', email: user?.email ?? '', current_password: '' },
  });
  const { control, setError, setValue } = form;
  const values = useWatch({ control });
  const name = (values.name ?? '').trim();
  const email = (values.email ?? '').trim();
  const [status, setStatus] = useState<Status>(null);
  const emailChanged = email.toLowerCase() !== (user?.email ?? '').toLowerCase() && email !== '';
  // What was loaded or last saved (a new address waits for its link, so not the session's).
  const [saved, setSaved] = useState({ name, email });
  useUnsavedChangesGuard(
    name !== saved.name || email !== saved.email || (values.current_password ?? '') !== '',
  );

  const submit = submitWith(form, async (checked) => {
    try {
      const answer = await updateContact({
        name: checked.name,
        email: checked.email,
        ...(emailChanged ? { current_password: checked.current_password } : {}),
      });
      setSaved({ name, email });
      setValue('current_password', '');
      await refreshSession();
      setStatus({
        tone: 'success',
        text: answer?.pending_email
          ? (answer.message ?? `We have e-mailed a confirmation link to ${answer.pending_email}.`)
          : 'Your contact details were saved.',
      });
    } catch (error) {
      applyServerErrors(setError, error, CONTACT_FIELDS);
    }
  });

  return (
    <section className="settings-section" aria-labelledby={`${base}-title`}>
      <h2 id={`${base}-title`} className="card__title">
        Contact information
      </h2>
      <form
        id={base}
        className="stack"
        noValidate
        onSubmit={(event) => {
          setStatus(null);
          submit(event);
        }}
      >
        {status && <Notice tone={status.tone}>{status.text}</Notice>}
        <FormMessage control={control} />
        <FormTextField
          control={control}
          field="name"
          id={`${base}-name`}
          label="Name"
          autoComplete="name"
          autoCapitalize="words"
        />
        <FormTextField
          control={control}
          field="email"
          id={`${base}-email`}
          label="E-mail address"
          type="email"
          autoComplete="email"
        />
        {emailChanged && (
          <FormTextField
            control={control}
            field="current_password"
            id={`${base}-current-password`}
            label="Current password"
            type="password"
            autoComplete="current-password"
            hint="Needed to change your e-mail address. We then e-mail a link to the new address."
          />
        )}
        <SubmitButton
          pending={form.formState.isSubmitting}
          label="Save contact details"
          busyLabel="Saving…"
        />
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
      setStatus({ tone: 'error', text: placeErrors(error, []).message ?? '' });
    } finally {
      setPending(false);
    }
  }
  return (
    <div className="stack">
      <p className="muted">
        <span className="break">{email}</span> is not confirmed yet. Invitations to a team need a
        confirmed address.
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

const PASSWORD_FIELDS = ['current_password', 'password', 'password_confirmation'] as const;
/** The route's rules (the server adds its common-password list). */
const PasswordChangeSchema = passwordChangeBody();
type PasswordValues = z.input<typeof PasswordChangeSchema>;
const EMPTY_PASSWORDS: PasswordValues = {
  current_password: '',
  password: '',
  password_confirmation: '',
  revoke_tokens: false,
};

/**
 * The password (`PUT /settings/password`, checked with the route's rules): a change signs out
 * every other session, and can revoke the API tokens too (docs/security.md "Sessions and
 * tokens").
 */
function PasswordForm() {
  const base = useId();
  const form = useForm<PasswordValues, unknown, z.output<typeof PasswordChangeSchema>>({
    resolver: zodResolver(PasswordChangeSchema),
    defaultValues: EMPTY_PASSWORDS,
  });
  const { control, setError, setValue, reset } = form;
  const values = useWatch({ control });
  const [status, setStatus] = useState<Status>(null);
  useUnsavedChangesGuard(PASSWORD_FIELDS.some((name) => (values[name] ?? '') !== ''));

  const submit = submitWith(form, async (checked) => {
    try {
      await updatePassword(checked);
      reset(EMPTY_PASSWORDS);
      setStatus({
        tone: 'success',
        text: checked.revoke_tokens
          ? 'Your password was changed. Your other sessions were signed out and your API tokens revoked.'
          : 'Your password was changed. Your other sessions were signed out.',
      });
    } catch (error) {
      applyServerErrors(setError, error, PASSWORD_FIELDS);
    }
  });

  const field = (
    name: (typeof PASSWORD_FIELDS)[number],
    label: string,
    autoComplete: string,
    hint?: string,
  ) => (
    <FormTextField
      control={control}
      field={name}
      id={`${base}-${name}`}
      label={label}
      type="password"
      autoComplete={autoComplete}
      hint={hint}
    />
  );

  return (
    <section className="settings-section" aria-labelledby={`${base}-title`}>
      <h2 id={`${base}-title`} className="card__title">
        Change password
      </h2>
      <ImpersonationLock>
        <form
          id={base}
          className="stack"
          noValidate
          onSubmit={(event) => {
            setStatus(null);
            submit(event);
          }}
        >
          {status && <Notice tone={status.tone}>{status.text}</Notice>}
          <FormMessage control={control} />
          {field('current_password', 'Current password', 'current-password')}
          {field('password', 'New password', 'new-password', 'At least 8 characters.')}
          {field('password_confirmation', 'Confirm new password', 'new-password')}
          <RevokeTokensCheckbox
            checked={values.revoke_tokens === true}
            onChange={(checked) => setValue('revoke_tokens', checked)}
          />
          <SubmitButton
            pending={form.formState.isSubmitting}
            label="Change password"
            busyLabel="Changing…"
          />
        </form>
      </ImpersonationLock>
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
