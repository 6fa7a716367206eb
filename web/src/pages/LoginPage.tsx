import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { Notice } from '../components/Notice.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { useAppStore } from '../state/store.ts';
import { SignInForm, useSignInForm } from '../features/auth/SignInForm.tsx';

/**
 * Sign-in: `POST /login` with `{ email, password }` as JSON (docs/security.md "Login throttling").
 * docs/accounts.md "Error answers in the SPA": a 422's `errors` go on the fields; another answer's
 * `message` is shown (a 501, "not built yet", as information rather than a failure); an answer that
 * is not JSON gets the generic message. On success the session store is refreshed (the header then
 * shows the user) and the app goes to the answer's `redirect`, a page of this app. The form is the
 * one the session-expired modal shows (`features/auth/SignInForm.tsx`).
 */
export function LoginPage() {
  useDocumentTitle('Sign in');
  const navigate = useNavigate();
  const refreshSession = useAppStore((s) => s.refreshSession);
  const formId = useId();
  const titleId = `${formId}-title`;
  // After a password reset (PasswordResetPages.tsx) the page says so until the next submit.
  const locationState = useLocation().state as {
    passwordReset?: boolean;
    from?: { pathname?: string; search?: string; hash?: string };
  } | null;
  const cameFromReset = locationState?.passwordReset;
  // Opened from an invitation e-mail's link while signed out (SignedInOnly sent us here): go back
  // to it after signing in, so its code reaches the accept button (docs/adr/0012-invitations.md
  // "Invitations").
  const from = locationState?.from;
  const backToInvitation =
    from && /[?&]invitation=/.test(from.search ?? '')
      ? `${from.pathname ?? '/'}${from.search ?? ''}${from.hash ?? ''}`
      : undefined;
  const [signedIn, setSignedIn] = useState(false);
  const signIn = useSignInForm({
    notice: cameFromReset
      ? { tone: 'success', title: 'Password changed', text: 'Sign in with your new password.' }
      : null,
    onSignedIn: async (answer) => {
      await refreshSession();
      const redirect = backToInvitation ?? answer?.redirect;
      if (typeof redirect === 'string' && redirect.startsWith('/') && !redirect.startsWith('//')) {
        navigate(redirect);
        return;
      }
      setSignedIn(true);
    },
  });
  const { notice, pending } = signIn;

  if (signedIn) return <SignedIn />;

  return (
    <div className="container container--narrow">
      <section className="card auth-card" aria-labelledby={titleId}>
        <h1 id={titleId} className="page-title">
          Sign in
        </h1>
        <p className="muted">Use the e-mail address and password of your PicSnippets account.</p>

        {notice && (
          <Notice tone={notice.tone} title={notice.title}>
            {notice.text}
          </Notice>
        )}

        <SignInForm id={formId} signIn={signIn} showPasswordToggle>
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
        </SignInForm>
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
