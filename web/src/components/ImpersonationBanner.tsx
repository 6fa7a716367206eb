import { useMutation } from '@tanstack/react-query';
import { stopImpersonating } from '../features/kiosk/users/api.ts';
import { loadFailure } from '../state/queryClient.ts';
import { useAppStore } from '../state/store.ts';
import './ImpersonationBanner.css';

/**
 * The banner on every page while a platform admin impersonates a user (docs/adr/0023-team-roles.md
 * "Team roles"; docs/kiosk.md "Users, impersonation and discounts"): whom, who, and "Stop
 * impersonating", which gives the admin their own session back and reloads the app on the user's
 * kiosk profile. Who is who comes from `GET /user/current` (`impersonator`).
 */
export function ImpersonationBanner() {
  const user = useAppStore((s) => s.user);
  const stop = useMutation({
    mutationFn: stopImpersonating,
    // A full page load: every cached answer was the impersonated user's.
    onSuccess: (redirect) => window.location.assign(redirect),
  });
  const impersonator = user?.impersonator;
  if (!user || !impersonator) return null;
  return (
    <section className="impersonation-banner" aria-label="Impersonation">
      <div className="container impersonation-banner__inner">
        <p>
          You ({impersonator.name}) are impersonating <strong>{user.name}</strong> ({user.email}).
          Their password, two-factor authentication and API tokens are read-only.
        </p>
        <button
          type="button"
          className="button button--small"
          aria-disabled={stop.isPending}
          onClick={() => !stop.isPending && stop.mutate()}
        >
          {stop.isPending ? 'Stopping…' : 'Stop impersonating'}
        </button>
        {stop.isError && (
          <p role="alert" className="impersonation-banner__error">
            {loadFailure(stop.error)}
          </p>
        )}
      </div>
    </section>
  );
}
