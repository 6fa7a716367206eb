import { useEffect, useId, useState } from 'react';
import { SignInForm, useSignInForm } from '../features/auth/SignInForm.tsx';
import { discardUnsavedChanges } from '../hooks/useUnsavedChangesGuard.ts';
import { useAppStore } from '../state/store.ts';
import { Modal } from './Modal.tsx';
import { Notice } from './Notice.tsx';
import { Spinner } from './Spinner.tsx';

/**
 * docs/accounts.md "Error answers in the SPA": a 401 while signed in logs the client out and opens
 * this modal. The user signs in again here, over the page, so the page keeps what was typed into it
 * and the editor its unsaved changes (docs/adr/0040-session-expiry-keeps-the-work.md "Session
 * expiry keeps the work"). Esc or "Not now" folds the modal into a bar at the foot of the page (the
 * page stays readable, e.g. to copy a text out); the bar's button opens it again.
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
  const signIn = useSignInForm({
    email,
    onSignedIn: async () => {
      const user = await refreshSession();
      // Someone else signed in: this page shows the other account's data, so start afresh.
      if (user && user.id !== previousUserId) {
        // The other account's page: what was typed here is not theirs to keep.
        discardUnsavedChanges();
        window.location.assign('/dashboard');
      }
    },
  });
  const { notice, pending } = signIn;
  const { setFocus } = signIn.form;

  // Once the dialog is open (its effect runs first), the password, or the address when unknown.
  useEffect(() => {
    if (folded) return;
    setFocus(email === '' ? 'email' : 'password');
  }, [folded, email, setFocus]);

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
      <SignInForm id={formId} signIn={signIn} />
    </Modal>
  );
}
