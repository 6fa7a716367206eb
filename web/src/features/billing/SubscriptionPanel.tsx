import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import type { SubscriptionView } from '#shared/billing.ts';
import { isApiError } from '../../api/client.ts';
import type { Plan } from '../../api/plans.ts';
import type { Team } from '../../api/settings.ts';
import { Notice } from '../../components/Notice.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { plansQuery } from '../../hooks/queries.ts';
import { loadFailure } from '../../state/queryClient.ts';
import { queryKeys } from '../../state/queryKeys.ts';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { fetchSubscription } from './api.ts';
import { BillingDetailsSection } from './BillingDetailsSection.tsx';
import { InvoicesSection } from './InvoicesSection.tsx';
import { PaymentMethodSection } from './PaymentMethodSection.tsx';
import { PlanSection, PlanSummary } from './PlanSection.tsx';
import { subscriptionPhase } from './subscriptionState.ts';

/** The team fields the tab reads (`GET /settings/companies` or `…/json/{id}`). */
export type BilledTeam = Pick<
  Team,
  'id' | 'name' | 'owner_id' | 'current_billing_plan' | 'can_export_pdf' | 'can_upload_custom_fonts'
>;

/** Which billing tab a {@link SubscriptionPanel} is (docs/adr/0026-billing-in-the-spa.md "Billing in the SPA"); the hash names the tab. */
export type BillingPart = 'subscription' | 'payment-method' | 'invoices';

/** Why the subscription view is missing: the tab then shows the team's plan as data. */
type Unavailable = { reason: 'not-owner' | 'not-available' | 'failed'; message: string };

/**
 * `GET …/subscription`, with the answers that mean "no billing view here" kept as a reason:
 * 403 (only the owner sees billing, docs/adr/0023-team-roles.md "Team roles"), 404/501 (billing not
 * on this server). Other failures are `failed` with their message.
 */
async function loadView(
  teamId: string | undefined,
  signal: AbortSignal,
): Promise<SubscriptionView | Unavailable> {
  try {
    return await fetchSubscription(teamId, signal);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    if (!isApiError(error)) throw error;
    if (error.status === 403) return { reason: 'not-owner', message: error.message };
    if (error.status === 404 || error.status === 501) {
      return { reason: 'not-available', message: error.message };
    }
    return { reason: 'failed', message: error.message };
  }
}

const isView = (v: SubscriptionView | Unavailable): v is SubscriptionView => 'team_id' in v;

/**
 * The billing tabs of a team, one `part` each (docs/adr/0026-billing-in-the-spa.md "Billing in the
 * SPA": user settings tabs "invoice", "payment method", "subscription"; team settings the same
 * three): `subscription` the plan with its state and actions; `payment-method` the card and the
 * billing details; `invoices` the invoices. `teamId` undefined uses the user paths (the caller's
 * current team); a team id uses `/settings/companies/{id}/…` (docs/billing.md "Flows"). Without a
 * billing view (a member who is not the owner, or billing not on this server) the subscription part
 * shows the team's plan and capabilities as data and says why nothing can be changed; the other
 * parts say why there is nothing to show.
 *
 * The view is cached per team, shared by the three parts; a change answers the new view, which
 * replaces the cached one, and the team's plan and flags elsewhere (the companies, the current
 * team) are read again.
 */
export function SubscriptionPanel({
  team,
  teamId,
  part,
}: {
  team: BilledTeam;
  teamId: string | undefined;
  part: BillingPart;
}) {
  const base = useId();
  const heading = (name: string) => `${base}-${name}`;
  const queryClient = useQueryClient();
  const plansRead = useQuery(plansQuery());
  const viewKey = queryKeys.billing.subscription(team.id);
  const viewRead = useQuery({
    queryKey: viewKey,
    queryFn: ({ signal }) => loadView(teamId, signal),
  });
  const retry = () => {
    if (plansRead.isError) void plansRead.refetch();
    void viewRead.refetch();
  };
  const onChanged = (next: SubscriptionView) => {
    queryClient.setQueryData<SubscriptionView | Unavailable>(viewKey, next);
    void queryClient.invalidateQueries({ queryKey: queryKeys.teams.all });
  };

  if (plansRead.isPending || viewRead.isPending) {
    return (
      <p className="muted" role="status">
        <Spinner /> Loading the plan…
      </p>
    );
  }
  if (plansRead.isError || viewRead.isError) {
    return (
      <LoadFailed
        title="We could not load the plan"
        message={loadFailure(plansRead.error ?? viewRead.error)}
        onRetry={retry}
      />
    );
  }
  const plans = plansRead.data.plans;
  const view = isView(viewRead.data) ? viewRead.data : undefined;
  if (part !== 'subscription') {
    const unavailable: Unavailable | undefined = view
      ? subscriptionPhase(view) === 'offline'
        ? { reason: 'not-available', message: '' }
        : undefined
      : (viewRead.data as Unavailable);
    if (unavailable) {
      return (
        <NothingToShow
          headingId={heading(part)}
          part={part}
          team={team}
          unavailable={unavailable}
          onRetry={retry}
        />
      );
    }
  }
  if (part === 'invoices') {
    return (
      <div className="subscription">
        <InvoicesSection teamId={teamId} billedTeamId={team.id} headingId={heading('invoices')} />
      </div>
    );
  }
  if (part === 'payment-method' && view) {
    return (
      <div className="subscription">
        <PaymentMethodSection
          teamId={teamId}
          view={view}
          headingId={heading('payment')}
          onChanged={onChanged}
        />
        <BillingDetailsSection
          teamId={teamId}
          view={view}
          headingId={heading('details')}
          onChanged={onChanged}
        />
      </div>
    );
  }
  if (!view) {
    return (
      <TeamPlanOnly
        headingId={heading('plan')}
        team={team}
        plans={plans}
        unavailable={viewRead.data as Unavailable}
        onRetry={retry}
      />
    );
  }
  return (
    <div className="subscription">
      <PlanSection
        headingId={heading('plan')}
        teamName={team.name}
        teamId={teamId}
        view={view}
        plans={plans}
        onChanged={onChanged}
      />
    </div>
  );
}

const PART_TITLES: Record<Exclude<BillingPart, 'subscription'>, string> = {
  invoices: 'Invoices',
  'payment-method': 'Payment method',
};

/** The invoices or payment-method tab when there is no billing view: why it is empty. */
function NothingToShow({
  headingId,
  part,
  team,
  unavailable,
  onRetry,
}: {
  headingId: string;
  part: Exclude<BillingPart, 'subscription'>;
  team: BilledTeam;
  unavailable: Unavailable;
  onRetry: () => void;
}) {
  const what = part === 'invoices' ? 'invoices' : 'payment method';
  return (
    <section className="settings-section stack" aria-labelledby={headingId}>
      <h2 id={headingId} className="card__title">
        {PART_TITLES[part]}
      </h2>
      {unavailable.reason === 'not-owner' && (
        <Notice tone="info" title="Only the owner sees this">
          The {what} of {team.name} {part === 'invoices' ? 'are' : 'is'} managed by its owner.
        </Notice>
      )}
      {unavailable.reason === 'not-available' && (
        <Notice tone="info" title="Billing is offline">
          Billing is not available on this server, so {team.name} has no {what} to show here.
        </Notice>
      )}
      {unavailable.reason === 'failed' && (
        <LoadFailed
          title="We could not load the subscription"
          message={unavailable.message}
          onRetry={onRetry}
        />
      )}
    </section>
  );
}

function TeamPlanOnly({
  headingId,
  team,
  plans,
  unavailable,
  onRetry,
}: {
  headingId: string;
  team: BilledTeam;
  plans: readonly Plan[];
  unavailable: Unavailable;
  onRetry: () => void;
}) {
  return (
    <PlanSummary
      headingId={headingId}
      teamName={team.name}
      planId={team.current_billing_plan}
      plans={plans}
      facts={team}
    >
      {unavailable.reason === 'not-owner' && (
        <Notice tone="info" title="Only the owner can change the plan">
          The plan, payment method and invoices of {team.name} are managed by its owner.
        </Notice>
      )}
      {unavailable.reason === 'not-available' && (
        <Notice tone="info" title="Plans cannot be changed online here">
          Billing is not available on this server, so plans cannot be bought, switched or cancelled
          online. Ask your PicSnippets administrator to change the plan.
        </Notice>
      )}
      {unavailable.reason === 'failed' && (
        <LoadFailed
          title="We could not load the subscription"
          message={unavailable.message}
          onRetry={onRetry}
        />
      )}
    </PlanSummary>
  );
}
