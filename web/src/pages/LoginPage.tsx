import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { api } from '../api/client.ts';
import { Notice } from '../components/Notice.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { TextField } from '../components/TextField.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { useAppStore } from '../state/store.ts';
import {
  describeFailure,
  validate,
  type SignInField as Field,
  type SignInNotice as FormNotice,
} from '../features/auth/signIn.ts';

/** What `POST /login` may answer on success; anything else is ignored. */
interface LoginResponse {
  redirect?: unknown;
}

/**
 * Sign-in: `POST /login` with `{ email, password }` as JSON (route table: "issue: accounts").
 * Spec 001 §8: a 422's `errors` go on the fields; another answer's `message` is shown (a 501,
 * "not built yet", as information rather than a failure); an answer that is not JSON gets the
 * generic message. On success the session store is refreshed (the header then shows the user)
 * and the app goes to the answer's `redirect`, a page of this app.
 */
export function LoginPage() {
  useDocumentTitle('Sign in');
  const navigate = useNavigate();
  const refreshSession = useAppStore((s) => s.refreshSession);
  const ids = { email: useId(), password: useId(), code: useId(), show: useId(), title: useId() };
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const [values, setValues] = useState({ email: '', password: '', code: '' });
  /** Set once the server asks for the second factor (two-factor authentication is on). */
  const [needsCode, setNeedsCode] = useState(false);
  const [showPassword, setShowPassword] = useState(false);
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string[]>>>({});
  // After a password reset (PasswordResetPages.tsx) the page says so until the next submit.
  const locationState = useLocation().state as {
    passwordReset?: boolean;
    from?: { pathname?: string; search?: string; hash?: string };
  } | null;
  const cameFromReset = locationState?.passwordReset;
  // Opened from an invitation e-mail's link while signed out (SignedInOnly sent us here): go back
  // to it after signing in, so its code reaches the accept button (docs/decisions.md
  // "Invitations").
  const from = locationState?.from;
  const backToInvitation =
    from && /[?&]invitation=/.test(from.search ?? '')
      ? `${from.pathname ?? '/'}${from.search ?? ''}${from.hash ?? ''}`
      : undefined;
  const [notice, setNotice] = useState<FormNotice | null>(
    cameFromReset
      ? { tone: 'success', title: 'Password changed', text: 'Sign in with your new password.' }
      : null,
  );
  const [signedIn, setSignedIn] = useState(false);

  // After a failed submit, put the keyboard on the first field that needs attention.
  useEffect(() => {
    if (errors.email) emailRef.current?.focus();
    else if (errors.password) passwordRef.current?.focus();
    else if (errors.code) codeRef.current?.focus();
  }, [errors]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const local = validate(values);
    setNotice(null);
    if (local) {
      setErrors(local);
      return;
    }
    setErrors({});
    setPending(true);
    try {
      const answer = await api<LoginResponse | undefined>('POST', '/login', {
        email: values.email.trim(),
        password: values.password,
        ...(needsCode && values.code.trim() !== '' ? { code: values.code.trim() } : {}),
      });
      await refreshSession();
      const redirect = backToInvitation ?? answer?.redirect;
      if (typeof redirect === 'string' && redirect.startsWith('/') && !redirect.startsWith('//')) {
        navigate(redirect);
        return;
      }
      setSignedIn(true);
    } catch (error) {
      const { fieldErrors, notice: next } = describeFailure(error);
      // The password was right and a second factor is needed: show the code field.
      if (fieldErrors.code && !fieldErrors.email && !fieldErrors.password) setNeedsCode(true);
      setErrors(fieldErrors);
      setNotice(next);
    } finally {
      setPending(false);
    }
  }

  if (signedIn) return <SignedIn />;

  return (
    <div className="container container--narrow">
      <section className="card auth-card" aria-labelledby={ids.title}>
        <h1 id={ids.title} className="page-title">
          Sign in
        </h1>
        <p className="muted">Use the e-mail address and password of your PicSnippets account.</p>

        {notice && (
          <Notice tone={notice.tone} title={notice.title}>
            {notice.text}
          </Notice>
        )}

        <form
          className="stack"
          noValidate
          onSubmit={(event) => void submit(event)}
          aria-busy={pending}
        >
          <TextField
            id={ids.email}
            inputRef={emailRef}
            label="E-mail address"
            name="email"
            type="email"
            autoComplete="username"
            value={values.email}
            errors={errors.email}
            onChange={(email) => setValues((v) => ({ ...v, email }))}
          />
          <TextField
            id={ids.password}
            inputRef={passwordRef}
            label="Password"
            name="password"
            type={showPassword ? 'text' : 'password'}
            autoComplete="current-password"
            value={values.password}
            errors={errors.password}
            onChange={(password) => setValues((v) => ({ ...v, password }))}
          />
          {needsCode && (
            <TextField
              id={ids.code}
              inputRef={codeRef}
              label="Authentication code"
              hint="The 6-digit code from your authenticator app, or your reset code."
              name="code"
              type="text"
              autoComplete="one-time-code"
              value={values.code}
              errors={errors.code}
              onChange={(code) => setValues((v) => ({ ...v, code }))}
            />
          )}
          <div className="checkbox">
            <input
              id={ids.show}
              type="checkbox"
              checked={showPassword}
              onChange={(event) => setShowPassword(event.target.checked)}
            />
            <label htmlFor={ids.show}>Show password</label>
          </div>
          <p className="small">
            <Link to="/password/reset">Forgot your password?</Link>
          </p>
          <button type="submit" className="button button--block" aria-disabled={pending}>
            {pending ? (
              <>
                <Spinner /> Signing in…
              </>
            ) : (
              'Sign in'
            )}
          </button>
        </form>
        <p className="muted text-center">
          New to PicSnippets? <Link to="/register">Create an account</Link>
        </p>
      </section>
    </div>
  );
}

/** Shown after a successful sign-in; its heading takes focus so the change is announced. */
function SignedIn() {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <div className="container container--narrow">
      <section className="card auth-card empty-state">
        <span className="success-mark" aria-hidden="true">
          ✓
        </span>
        <h1 ref={headingRef} tabIndex={-1} className="page-title">
          You are signed in
        </h1>
        <p className="muted">Welcome back to PicSnippets.</p>
        <Link to="/dashboard" className="button">
          Go to your dashboard
        </Link>
      </section>
    </div>
  );
}
