import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { Notice } from '../../components/Notice.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { teamsQuery } from '../../hooks/queries.ts';
import { loadFailure } from '../../state/queryClient.ts';
import { useAppStore } from '../../state/store.ts';
import { type BillingPart, SubscriptionPanel } from '../billing/SubscriptionPanel.tsx';

/**
 * The billing tabs of the user settings (docs/accounts.md "Screens": "Settings": invoice, payment
 * method, subscription; docs/accounts.md "Error answers in the SPA": "HTTP 402: redirect to
 * /settings#/subscription"), one `part` each: the current team's plan with its limits and Pro
 * capabilities, and for its owner the subscription, the payment method with the billing details,
 * and the invoices, through the user paths (`/settings/subscription`, …, which act on the current
 * team; shared/billing.ts).
 */
export function SubscriptionTab({ part }: { part: BillingPart }) {
  const currentTeamId = useAppStore((s) => s.user?.current_team_id ?? null);
  const teams = useQuery(teamsQuery());
  if (teams.status === 'pending') {
    return (
      <p className="muted" role="status">
        <Spinner /> {part === 'subscription' ? 'Loading your plan…' : 'Loading your company…'}
      </p>
    );
  }
  if (teams.status === 'error') return <Notice tone="error">{loadFailure(teams.error)}</Notice>;
  const team = teams.data.find((t) => t.id === currentTeamId) ?? teams.data[0];
  if (!team) {
    return (
      <Notice tone="info">
        You do not belong to a company yet. <Link to="/settings#/companies">Create one</Link> to
        {part === 'subscription' ? 'choose a plan.' : 'see its billing.'}
      </Notice>
    );
  }
  // The user paths act on the current team; another team (no current one set) uses its own.
  const teamId = team.id === currentTeamId ? undefined : team.id;
  return <SubscriptionPanel key={team.id} team={team} teamId={teamId} part={part} />;
}
