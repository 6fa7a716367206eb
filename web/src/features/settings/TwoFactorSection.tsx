import { ImpersonationLock } from '../../components/ImpersonationLock.tsx';
import { useId, useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { TwoFactorOffBody } from '#shared/contract/auth.ts';
import {
  confirmTwoFactor,
  disableTwoFactor,
  startTwoFactor,
  type TwoFactorSetup,
} from '../../api/settings.ts';
import { Notice } from '../../components/Notice.tsx';
import { FormTextField } from '../../components/FormFields.tsx';
import { applyServerErrors, submitWith } from '../../lib/forms.ts';
import { useAppStore } from '../../state/store.ts';
import { CopyField } from '../../components/CopyField.tsx';
import { SubmitButton } from './ProfileTab.tsx';

/** The code form's rule: the route's for turning it off (a code, or the reset code). */
const CodeSchema = z.object({ code: TwoFactorOffBody.shape.code });
type CodeValues = z.input<typeof CodeSchema>;

/**
 * Two-factor authentication: start (QR code and secret), confirm with a code (then the reset
 * code is shown once), or turn off with a code or the reset code. The code form is checked with
 * the route's rule and a refused code goes on the field.
 */
export function TwoFactorSection() {
  const enabled = useAppStore((s) => s.user?.two_factor_enabled ?? false);
  const refreshSession = useAppStore((s) => s.refreshSession);
  const base = useId();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [resetCode, setResetCode] = useState<string | null>(null);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [starting, setStarting] = useState(false);
  const form = useForm<CodeValues, unknown, z.output<typeof CodeSchema>>({
    resolver: zodResolver(CodeSchema),
    defaultValues: { code: '' },
  });
  const { control, setError, reset } = form;
  const pending = form.formState.isSubmitting;

  /** Shows a refusal: a 422 on the code field, anything else above the form. */
  function refused(error: unknown) {
    const { message: text } = applyServerErrors(setError, error, ['code'], { formLevel: false });
    if (text) setMessage({ tone: 'error', text });
  }

  async function start() {
    if (starting) return;
    setMessage(null);
    setStarting(true);
    try {
      setSetup(await startTwoFactor());
      reset();
    } catch (error) {
      refused(error);
    } finally {
      setStarting(false);
    }
  }

  const confirm = submitWith(form, async ({ code }) => {
    try {
      const answer = await confirmTwoFactor(code);
      setResetCode(answer.reset_code);
      setSetup(null);
      reset();
      await refreshSession();
    } catch (error) {
      refused(error);
    }
  });

  const disable = submitWith(form, async ({ code }) => {
    try {
      await disableTwoFactor(code);
      reset();
      setResetCode(null);
      await refreshSession();
      setMessage({ tone: 'success', text: 'Two-factor authentication is off.' });
    } catch (error) {
      refused(error);
    }
  });

  /** Clears the notice, then submits with `handler`. */
  const submitting = (handler: typeof confirm) => (event: FormEvent) => {
    setMessage(null);
    handler(event);
  };

  const codeField = (label: string, hint: string) => (
    <FormTextField
      control={control}
      field="code"
      id={`${base}-code`}
      label={label}
      autoComplete="one-time-code"
      hint={hint}
    />
  );

  return (
    <section className="settings-section" aria-labelledby={`${base}-title`}>
      <h2 id={`${base}-title`} className="card__title">
        Two-factor authentication
      </h2>
      <ImpersonationLock>
        <div className="stack">
          {message && <Notice tone={message.tone}>{message.text}</Notice>}
          {resetCode && (
            <Notice tone="success" title="Two-factor authentication is on">
              <div className="stack">
                <p>
                  This is your reset code. It is shown only once: store it somewhere safe (a
                  password manager, for instance). You need it to sign in or to turn two-factor off
                  if you lose your phone.
                </p>
                <CopyField label="Reset code" value={resetCode} what="code" />
              </div>
            </Notice>
          )}
          {enabled ? (
            <form id={base} className="stack" noValidate onSubmit={submitting(disable)}>
              <p className="muted">
                Two-factor authentication is on. To turn it off, enter a code from your
                authenticator app or your reset code.
              </p>
              {codeField('Code or reset code', 'Six digits from your app, or your reset code.')}
              <SubmitButton
                pending={pending}
                label="Turn off two-factor"
                busyLabel="Turning off…"
                className="button button--danger"
              />
            </form>
          ) : setup ? (
            <form id={base} className="stack" noValidate onSubmit={submitting(confirm)}>
              <p>
                Scan this QR code with an authenticator app (such as Google Authenticator or
                1Password), then enter the six-digit code it shows.
              </p>
              <img
                className="qr"
                src={setup.qr}
                width={200}
                height={200}
                alt="QR code to add PicSnippets to your authenticator app"
              />
              <CopyField label="Or enter this secret by hand" value={setup.secret} what="secret" />
              {codeField('Code from your app', 'Six digits.')}
              <div className="form-actions">
                <button
                  type="button"
                  className="button button--secondary"
                  onClick={() => {
                    setSetup(null);
                    reset();
                  }}
                >
                  Cancel
                </button>
                <SubmitButton pending={pending} label="Confirm and turn on" busyLabel="Checking…" />
              </div>
            </form>
          ) : (
            <div className="stack">
              <p className="muted">
                Protect your account with a code from an authenticator app as well as your password.
              </p>
              <div>
                <button
                  type="button"
                  className="button"
                  aria-disabled={starting}
                  onClick={() => void start()}
                >
                  Set up two-factor authentication
                </button>
              </div>
            </div>
          )}
        </div>
      </ImpersonationLock>
    </section>
  );
}
