import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { SubscriptionView } from '#shared/billing.ts';
import { Notice } from '../components/Notice.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { fetchSubscription } from '../features/billing/api.ts';
import { PaymentMethodSection } from '../features/billing/PaymentMethodSection.tsx';
import { subscriptionPhase } from '../features/billing/subscriptionState.ts';
import { subscriptionTabPath } from '../features/billing/useBillingAction.ts';
import { LoadFailed } from '../components/LoadFailed.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { loadFailure } from '../state/queryClient.ts';
import { queryKeys } from '../state/queryKeys.ts';
import { SignedInOnly } from '../components/SignedInOnly.tsx';

/**
 * The card-update page (docs/accounts.md "Screens": "Card-update page for an account being
 * cancelled, with team_id in the query"): the team's card on file and the card form, saved through
 * `PUT /settings/companies/{team_id}/update-payment-method` (docs/adr/0044-the-api-contract.md "The
 * API contract"), so a subscription whose payment failed can be paid before it ends. Owners only
 * (the server checks). Its address is `cardUpdatePath(teamId)` in shared/billing.ts.
 */
export function CardUpdatePage() {
  useDocumentTitle('Update your card');
  return (
    <SignedInOnly>
      <CardUpdate />
    </SignedInOnly>
  );
}

function CardUpdate() {
  const [params] = useSearchParams();
  const teamId = params.get('team_id')?.trim() ?? '';
  const headingId = useId();
  const queryClient = useQueryClient();
  const viewKey = queryKeys.billing.cardUpdate(teamId);
  const data = useQuery({
    queryKey: viewKey,
    queryFn: ({ signal }) => fetchSubscription(teamId, signal),
    enabled: teamId !== '',
  });
  const view = data.data;
  // A saved card answers the team's new billing view: it replaces the cached one.
  const onChanged = (next: SubscriptionView) => {
    queryClient.setQueryData(viewKey, next);
    void queryClient.invalidateQueries({ queryKey: queryKeys.teams.all });
  };

  return (
    <div className="container container--narrow stack">
      <h1 className="page-title">Update your card</h1>
      {!teamId && (
        <Notice tone="error" title="This link does not name a company">
          Open the link from the e-mail again, or update the card in your{' '}
          <Link to="/settings#/subscription">subscription settings</Link>.
        </Notice>
      )}
      {data.isLoading && (
        <p className="muted" role="status">
          <Spinner /> Loading the payment method…
        </p>
      )}
      {data.isError && (
        <LoadFailed
          title="We could not load this company's payment method"
          message={loadFailure(data.error)}
          onRetry={() => void data.refetch()}
        />
      )}
      {view && subscriptionPhase(view) === 'offline' && (
        <Notice tone="info" title="Cards cannot be updated here">
          Billing is not configured on this server, so there is no card to update.
        </Notice>
      )}
      {view && subscriptionPhase(view) !== 'offline' && (
        <>
          <p>
            The last payment for this company did not go through. Enter a card to keep the
            subscription; the open invoice is paid with it.
          </p>
          <PaymentMethodSection
            teamId={teamId}
            view={view}
            headingId={headingId}
            onChanged={onChanged}
            cardUpdate
          />
        </>
      )}
      {teamId && (
        <p>
          <Link to={subscriptionTabPath(teamId)}>Back to the company&apos;s subscription</Link>
        </p>
      )}
    </div>
  );
}
