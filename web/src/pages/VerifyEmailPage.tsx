import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { isApiError, GENERIC_ERROR_MESSAGE } from '../api/client.ts';
import { verifyEmail } from '../api/settings.ts';
import { Notice } from '../components/Notice.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { useAppStore } from '../state/store.ts';

type Outcome =
  | { state: 'working' }
  | { state: 'done'; message: string; email: string }
  | { state: 'failed'; message: string };

/**
 * `/email/verify/{token}`, the page of an e-mailed confirmation link (docs/security.md
 * "Invitations and e-mail ownership"): sends the token once (`POST /email/verify`), then says
 * whether the address is confirmed (or, for a change, now the account's) and refreshes the
 * signed-in user, if any.
 */
export function VerifyEmailPage() {
  useDocumentTitle('Confirm your e-mail address');
  const { token = '' } = useParams();
  const refreshSession = useAppStore((s) => s.refreshSession);
  const user = useAppStore((s) => s.user);
  const [outcome, setOutcome] = useState<Outcome>({ state: 'working' });
  // A link works once: React's development double effects must not send it twice.
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    verifyEmail(token).then(
      async (answer) => {
        setOutcome({ state: 'done', message: answer.message, email: answer.email });
        await refreshSession();
      },
      (error: unknown) =>
        setOutcome({
          state: 'failed',
          message: isApiError(error) ? error.message : GENERIC_ERROR_MESSAGE,
        }),
    );
  }, [token, refreshSession]);

  return (
    <div className="container container--narrow">
      <section className="card auth-card stack">
        {/* A non-breaking hyphen: "e-" never ends a line of the heading. */}
        <h1 className="page-title">{'Confirm your e\u2011mail address'}</h1>
        {outcome.state === 'working' && (
          <p className="muted" role="status">
            <Spinner /> Confirming…
          </p>
        )}
        {outcome.state === 'done' && (
          <Notice tone="success" title={outcome.message}>
            <span className="break">{outcome.email}</span> is confirmed.
          </Notice>
        )}
        {outcome.state === 'failed' && (
          <Notice tone="error" title="Not confirmed">
            {outcome.message} You can ask for a new link under Settings → Profile.
          </Notice>
        )}
        <div className="form-actions">
          <Link to={user ? '/settings#/profile' : '/login'} className="button button--secondary">
            {user ? 'Go to your settings' : 'Sign in'}
          </Link>
        </div>
      </section>
    </div>
  );
}
