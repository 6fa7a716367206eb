import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { api } from '../api/client.ts';
import {
  describeFailure,
  validate,
  type SignInField,
  type SignInNotice,
} from '../features/auth/signIn.ts';
import { focusFirstInvalid } from '../features/settings/ProfileTab.tsx';
import { discardUnsavedChanges } from '../hooks/useUnsavedChangesGuard.ts';
import { useAppStore } from '../state/store.ts';
import { Modal } from './Modal.tsx';
import { Notice } from './Notice.tsx';
import { Spinner } from './Spinner.tsx';
import { TextField } from './TextField.tsx';

/**
 * Spec 001 §8: a 401 while signed in logs the client out and opens this modal. The user signs
 * in again here, over the page, so the page keeps what was typed into it and the editor its
 * unsaved changes (docs/decisions.md "Session expiry keeps the work"). Esc or "Not now" folds
 * the modal into a bar at the foot of the page (the page stays readable, e.g. to copy a text
 * out); the bar's button opens it again.
 */
export function SessionExpiredModal() {
  const expired = useAppStore((s) => s.sessionExpired);
  const email = useAppStore((s) => s.user?.email ?? '');
  // Keyed by the expiry: a later expiry starts with a fresh form and the modal open.
  const [round, setRound] = useState(0);
  const [wasExpired, setWasExpired] = useState(expired);
  if (expired !== wasExpired) {
    setWasExpired(expired);
    if (expired) setRound((r) => r + 1);
  }
  if (!expired) return null;
  return <SignInAgain key={round} email={email} />;
}

/** The modal's sign-in form, or the bar it folds into. */
function SignInAgain({ email }: { email: string }) {
  const previousUserId = useAppStore((s) => s.user?.id);
  const refreshSession = useAppStore((s) => s.refreshSession);
  const formId = useId();
  const [folded, setFolded] = useState(false);
  const [values, setValues] = useState({ email, password: '', code: '' });
  const [needsCode, setNeedsCode] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<SignInField, string[]>>>({});
  const [notice, setNotice] = useState<SignInNotice | null>(null);
  const [pending, setPending] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  // Once the dialog is open (its effect runs first), the password, or the address when unknown.
  useEffect(() => {
    if (folded) return;
    (email === '' ? emailRef : passwordRef).current?.focus();
  }, [folded, email]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (pending) return;
    setNotice(null);
    const local = validate(values);
    if (local) {
      setErrors(local);
      focusFirstInvalid(formId);
      return;
    }
    setErrors({});
    setPending(true);
    try {
      await api('POST', '/login', {
        email: values.email.trim(),
        password: values.password,
        ...(needsCode && values.code.trim() !== '' ? { code: values.code.trim() } : {}),
      });
      const user = await refreshSession();
      // Someone else signed in: this page shows the other account's data, so start afresh.
      if (user && user.id !== previousUserId) {
        // The other account's page: what was typed here is not theirs to keep.
        discardUnsavedChanges();
        window.location.assign('/dashboard');
      }
    } catch (error) {
      const failure = describeFailure(error);
      if (failure.fieldErrors.code && !failure.fieldErrors.email && !failure.fieldErrors.password)
        setNeedsCode(true);
      setErrors(failure.fieldErrors);
      setNotice(failure.notice);
      focusFirstInvalid(formId);
    } finally {
      setPending(false);
    }
  }

  if (folded) {
    return (
      <div className="session-bar" role="region" aria-label="Signed out">
        <p>You are signed out. What you typed on this page is kept until you sign in again.</p>
        <button type="button" className="button button--small" onClick={() => setFolded(false)}>
          Sign in again
        </button>
      </div>
    );
  }

  return (
    <Modal
      open
      title="Your session has expired"
      role="alertdialog"
      onCancel={() => setFolded(true)}
      actions={
        <>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => setFolded(true)}
          >
            Not now
          </button>
          <button type="submit" form={formId} className="button" aria-disabled={pending}>
            {pending ? (
              <>
                <Spinner /> Signing in…
              </>
            ) : (
              'Sign in'
            )}
          </button>
        </>
      }
    >
      <p>
        You have been signed out. Sign in again to continue where you left off: what you typed on
        this page is kept.
      </p>
      {notice && (
        <Notice tone={notice.tone} title={notice.title}>
          {notice.text}
        </Notice>
      )}
      <form id={formId} className="stack" noValidate onSubmit={(e) => void submit(e)}>
        <TextField
          id={`${formId}-email`}
          inputRef={emailRef}
          label="E-mail address"
          name="email"
          type="email"
          autoComplete="username"
          value={values.email}
          errors={errors.email}
          onChange={(v) => setValues((s) => ({ ...s, email: v }))}
        />
        <TextField
          id={`${formId}-password`}
          inputRef={passwordRef}
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={values.password}
          errors={errors.password}
          onChange={(v) => setValues((s) => ({ ...s, password: v }))}
        />
        {needsCode && (
          <TextField
            id={`${formId}-code`}
            label="Authentication code"
            hint="The 6-digit code from your authenticator app, or your reset code."
            name="code"
            autoComplete="one-time-code"
            value={values.code}
            errors={errors.code}
            onChange={(v) => setValues((s) => ({ ...s, code: v }))}
          />
        )}
      </form>
    </Modal>
  );
}
