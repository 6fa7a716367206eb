import { Link } from 'react-router-dom';
import { fetchPlans, type Plan } from '../../api/plans.ts';
import { fetchTeams, type Team } from '../../api/settings.ts';
import { Notice } from '../../components/Notice.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { useLoad } from '../../hooks/useLoad.ts';
import { useAppStore } from '../../state/store.ts';
import { formatPrice } from '../registration/plans.ts';

/**
 * Subscription tab (spec 001 §2 "Settings"; §8 "HTTP 402: redirect to /settings#/subscription"):
 * the current team's plan with its limits and Pro capabilities. Choosing, swapping and
 * cancelling plans is the billing issue's (#8); until then the tab says how to get a change.
 */
export function SubscriptionTab() {
  const currentTeamId = useAppStore((s) => s.user?.current_team_id ?? null);
  const data = useLoad(async (signal) => {
    const [teams, plans] = await Promise.all([fetchTeams(signal), fetchPlans(signal)]);
    return { teams, plans: plans.plans };
  }, `subscription-${currentTeamId}`);
  if (data.state === 'loading') {
    return (
      <p className="muted" role="status">
        <Spinner /> Loading your plan…
      </p>
    );
  }
  if (data.state === 'error') return <Notice tone="error">{data.error}</Notice>;
  const team = data.data.teams.find((t) => t.id === currentTeamId) ?? data.data.teams[0];
  if (!team) {
    return (
      <Notice tone="info">
        You do not belong to a company yet. <Link to="/settings#/companies">Create one</Link> to
        choose a plan.
      </Notice>
    );
  }
  const plan = data.data.plans.find((p) => p.id === team.current_billing_plan);
  return <PlanSummary team={team} plan={plan} />;
}

function PlanSummary({ team, plan }: { team: Team; plan: Plan | undefined }) {
  const name = plan?.name ?? team.current_billing_plan ?? 'No plan';
  const yes = (on: boolean) => (on ? 'Included' : 'Not included: Pro plans only');
  return (
    <section className="settings-section stack" aria-labelledby="subscription-title">
      <h2 id="subscription-title" className="card__title">
        {team.name}: {name} plan
      </h2>
      {plan && (
        <p className="muted">
          {plan.price === 0
            ? 'Free of charge.'
            : `${formatPrice(plan.price)} per ${plan.interval === 'yearly' ? 'year' : 'month'}${
                plan.type === 'user' ? ' per user' : ''
              }.`}
        </p>
      )}
      <dl className="plan-facts">
        {plan?.attributes && (
          <>
            <dt>Companies you can own</dt>
            <dd>{plan.attributes.teams}</dd>
            <dt>Members per company</dt>
            <dd>{plan.attributes.teamMembers}</dd>
          </>
        )}
        <dt>PDF export</dt>
        <dd>{yes(team.can_export_pdf)}</dd>
        <dt>Custom font upload</dt>
        <dd>{yes(team.can_upload_custom_fonts)}</dd>
      </dl>
      <Notice tone="info">
        Changing the plan online is not available on this server yet. Ask your PicSnippets
        administrator to change it.
      </Notice>
    </section>
  );
}
