import { useId, useState, type FormEvent } from 'react';
import {
  confirmTwoFactor,
  disableTwoFactor,
  startTwoFactor,
  type TwoFactorSetup,
} from '../../api/settings.ts';
import { Notice } from '../../components/Notice.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useAppStore } from '../../state/store.ts';
import { CopyField } from '../playground/CopyField.tsx';
import { formFailure } from './formFailure.ts';
import { SubmitButton, focusFirstInvalid } from './ProfileTab.tsx';

/**
 * Two-factor authentication: start (QR code and secret), confirm with a code (then the reset
 * code is shown once), or turn off with a code or the reset code.
 */
export function TwoFactorSection() {
  const enabled = useAppStore((s) => s.user?.two_factor_enabled ?? false);
  const refreshSession = useAppStore((s) => s.refreshSession);
  const base = useId();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [resetCode, setResetCode] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [codeErrors, setCodeErrors] = useState<string[] | undefined>();
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [pending, setPending] = useState(false);

  async function run(action: () => Promise<void>) {
    if (pending) return;
    setMessage(null);
    setCodeErrors(undefined);
    setPending(true);
    try {
      await action();
    } catch (error) {
      const failure = formFailure(error, ['code'] as const);
      setCodeErrors(failure.fields.code);
      if (failure.message) setMessage({ tone: 'error', text: failure.message });
      focusFirstInvalid(base);
    } finally {
      setPending(false);
    }
  }

  const start = () =>
    run(async () => {
      setSetup(await startTwoFactor());
      setCode('');
    });

  const confirm = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const answer = await confirmTwoFactor(code.trim());
      setResetCode(answer.reset_code);
      setSetup(null);
      setCode('');
      await refreshSession();
    });
  };

  const disable = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await disableTwoFactor(code.trim());
      setCode('');
      setResetCode(null);
      await refreshSession();
      setMessage({ tone: 'success', text: 'Two-factor authentication is off.' });
    });
  };

  const codeField = (label: string, hint: string) => (
    <TextField
      id={`${base}-code`}
      label={label}
      name="code"
      autoComplete="one-time-code"
      hint={hint}
      value={code}
      errors={codeErrors}
      onChange={setCode}
    />
  );

  return (
    <section className="settings-section" aria-labelledby={`${base}-title`}>
      <h2 id={`${base}-title`} className="card__title">
        Two-factor authentication
      </h2>
      <div className="stack">
        {message && <Notice tone={message.tone}>{message.text}</Notice>}
        {resetCode && (
          <Notice tone="success" title="Two-factor authentication is on">
            <div className="stack">
              <p>
                This is your reset code. It is shown only once: store it somewhere safe (a password
                manager, for instance). You need it to sign in or to turn two-factor off if you lose
                your phone.
              </p>
              <CopyField label="Reset code" value={resetCode} what="code" />
            </div>
          </Notice>
        )}
        {enabled ? (
          <form id={base} className="stack" noValidate onSubmit={disable}>
            <p className="muted">
              Two-factor authentication is on. To turn it off, enter a code from your authenticator
              app or your reset code.
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
          <form id={base} className="stack" noValidate onSubmit={confirm}>
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
                  setCode('');
                  setCodeErrors(undefined);
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
                aria-disabled={pending}
                onClick={() => void start()}
              >
                Set up two-factor authentication
              </button>
            </div>
          </div>
        )}
      </div>
    </section>
  );
}
