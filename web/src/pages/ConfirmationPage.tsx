import { Link, useLocation } from 'react-router-dom';
import { Spinner } from '../components/Spinner.tsx';
import { WizardStrip } from '../components/WizardStrip.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { useAppStore } from '../state/store.ts';
import type { RegisteredState } from './RegisterPage.tsx';

/**
 * `/confirmation`, where registration ends (docs/accounts.md "Screens": step 3 of the wizard
 * strip). Names the new team when registration passed it along (router state, so it survives a
 * reload of this tab but not a new visit), and offers sign-in when nobody is signed in.
 */
export function ConfirmationPage() {
  useDocumentTitle('Account ready');
  const { state } = useLocation();
  const registered = toRegisteredState(state);
  const user = useAppStore((s) => s.user);
  const sessionStatus = useAppStore((s) => s.sessionStatus);

  return (
    <div className="container container--narrow stack">
      <WizardStrip current={2} />
      <section className="card auth-card empty-state">
        <span className="success-mark" aria-hidden="true">
          ✓
        </span>
        <h1 className="page-title">Your account is ready</h1>
        {registered && (
          <p>
            Your team <strong className="break">{registered.team}</strong> is set up on the{' '}
            {registered.plan} plan.
          </p>
        )}
        {sessionStatus === 'loading' ? (
          <p className="muted" role="status">
            <Spinner /> Checking your session…
          </p>
        ) : user ? (
          <p className="muted">
            You are signed in as <span className="break">{user.email}</span>
          </p>
        ) : (
          <p className="muted">Sign in with your e-mail address and password to get started.</p>
        )}
        <div className="form-actions form-actions--center">
          {user ? (
            <Link to="/onboarding" className="button">
              Get started
            </Link>
          ) : (
            <Link to="/" className="button">
              Go to the home page
            </Link>
          )}
          {sessionStatus !== 'loading' && !user && (
            <Link to="/login" className="button button--secondary">
              Sign in
            </Link>
          )}
        </div>
      </section>
    </div>
  );
}

function toRegisteredState(state: unknown): RegisteredState | undefined {
  if (typeof state !== 'object' || state === null) return undefined;
  const { team, plan } = state as Record<string, unknown>;
  return typeof team === 'string' && team !== '' && typeof plan === 'string'
    ? { team, plan }
    : undefined;
}
