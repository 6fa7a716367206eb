import { useReducer, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import {
  FREEZE_PLAN_ID,
  paymentConfirmationPath,
  type Capabilities,
  type SubscriptionView,
} from '#shared/billing.ts';
import type { Plan, PlanInterval } from '../../api/plans.ts';
import { Notice } from '../../components/Notice.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { formatPrice, isFree } from './plans.ts';
import { cancelSubscription, saveCancelMetaData, swapPlan } from './api.ts';
import { CancelFlowModal } from './CancelFlowModal.tsx';
import { CLOSED, cancelFlow } from './cancelFlow.ts';
import { subscriptionFailure } from './failure.ts';
import { formatBillingDate, perInterval } from './format.ts';
import { PlanPicker } from './PlanPicker.tsx';
import { SubscribeForm } from './SubscribeForm.tsx';
import { subscriptionDates, subscriptionPhase } from './subscriptionState.ts';
import { subscriptionTabPath, useBillingAction } from './useBillingAction.ts';
import './billing.css';

/** The Payment method tab of a team's settings, or of the user's own for `undefined`. */
const paymentMethodTabPath = (teamId: string | undefined): string =>
  teamId
    ? `/settings/companies/${encodeURIComponent(teamId)}#/payment-method`
    : '/settings#/payment-method';

/** What the summary shows: the team's plan and what it allows now. */
export type PlanFacts = Pick<Capabilities, 'can_export_pdf' | 'can_upload_custom_fonts'> &
  Partial<Pick<Capabilities, 'teams' | 'teamMembers'>>;

/** A plan's name for the heading; the internal freeze plan reads "Frozen". */
export function planName(planId: string | null, plans: readonly Plan[]): string {
  if (planId === FREEZE_PLAN_ID) return 'Frozen';
  return plans.find((p) => p.id === planId)?.name ?? planId ?? 'No';
}

/**
 * The plan summary (docs/adr/0026-billing-in-the-spa.md "Billing in the SPA" settings
 * "subscription"; docs/adr/0023-team-roles.md "Team roles" capabilities; docs/accounts.md
 * "Validation rules" limits): "{team}: {plan} plan", the price, the dates line, the limits and
 * whether PDF export and custom font upload are included. `children` adds the notices and actions
 * below it.
 */
export function PlanSummary({
  headingId,
  teamName,
  planId,
  plans,
  facts,
  dates,
  children,
}: {
  headingId: string;
  teamName: string;
  planId: string | null;
  plans: readonly Plan[];
  facts: PlanFacts;
  dates?: string;
  children?: ReactNode;
}) {
  const plan = plans.find((p) => p.id === planId);
  const teams = facts.teams ?? plan?.attributes?.teams;
  const members = facts.teamMembers ?? plan?.attributes?.teamMembers;
  const included = (on: boolean) => (on ? 'Included' : 'Not included: Pro plans only');
  return (
    <section className="settings-section stack" aria-labelledby={headingId}>
      <h2 id={headingId} className="card__title">
        {teamName}: {planName(planId, plans)} plan
      </h2>
      {plan && (
        <p className="muted">
          {isFree(plan)
            ? 'Free of charge.'
            : `${formatPrice(plan.price)} per ${perInterval(plan.interval)}${
                plan.type === 'user' ? ' per user' : ''
              }.`}
        </p>
      )}
      {dates && <p className="subscription__status">{dates}</p>}
      <dl className="plan-facts">
        {teams !== undefined && (
          <>
            <dt>Companies you can own</dt>
            <dd>{teams}</dd>
          </>
        )}
        {members !== undefined && (
          <>
            <dt>Members per company</dt>
            <dd>{members}</dd>
          </>
        )}
        <dt>PDF export</dt>
        <dd>{included(facts.can_export_pdf)}</dd>
        <dt>Custom font upload</dt>
        <dd>{included(facts.can_upload_custom_fonts)}</dd>
      </dl>
      {children}
    </section>
  );
}

/** docs/billing.md "Flows": "Buttons read Resuming/Switching while in progress, otherwise Resume/Switch." */
function Busy({ on, busy, idle }: { on: boolean; busy: string; idle: string }) {
  return on ? (
    <>
      <Spinner /> {busy}
    </>
  ) : (
    idle
  );
}

/**
 * The plan section of the subscription tab with what can be done in the subscription's state
 * (docs/billing.md "Flows"): subscribe when there is none, switch and cancel (with the freeze
 * offer) while active, resume on a grace period, return from the freeze or cancel while frozen.
 * Offline (no Stripe keys) it shows the plan and says why it cannot change here.
 */
export function PlanSection({
  headingId,
  teamName,
  teamId,
  view,
  plans,
  onChanged,
}: {
  headingId: string;
  teamName: string;
  /** The team path's id, or undefined for the user paths. */
  teamId: string | undefined;
  view: SubscriptionView;
  plans: readonly Plan[];
  onChanged: (view: SubscriptionView) => void;
}) {
  const navigate = useNavigate();
  const phase = subscriptionPhase(view);
  const paidPlans = plans.filter((p) => !isFree(p) && p.available);
  const current = plans.find((p) => p.id === view.plan);
  /** The plan choice is open: switching while active, or subscribing when there is none. */
  const [switching, setSwitching] = useState(false);
  const [interval, setPickedInterval] = useState<PlanInterval>(current?.interval ?? 'monthly');
  const [picked, setPicked] = useState<string | undefined>(view.plan);
  const [flow, dispatch] = useReducer(cancelFlow, CLOSED);
  // The section stays mounted across changes, so the cancel flow can show its outcome.
  const action = useBillingAction(teamId, ['plan'], (next) => {
    onChanged(next);
    setSwitching(false);
    setPicked(next.plan);
  });
  const subscriptionId = view.subscription_id;

  /** The cancel flow's final step (docs/billing.md "Flows" `PUT …/metaData`, then freeze or cancel). */
  async function runCancelFlow(chosen: 'freeze' | 'cancel') {
    if (flow.step === 'closed' || !flow.reason) return;
    const { reason, description } = flow;
    try {
      await saveCancelMetaData(view.team_id, {
        type: reason,
        description: description.trim() || null,
        subscriptionId,
        currentTeam: view.team_id,
        cancelType: chosen,
        confirm: true,
        frozenPlan: view.frozenPlan ?? (chosen === 'freeze' ? view.plan : null),
      });
      const next =
        chosen === 'freeze'
          ? await swapPlan(teamId, { plan: FREEZE_PLAN_ID, subscriptionId })
          : await cancelSubscription(teamId, {
              type: reason,
              description: description.trim() || null,
            });
      onChanged(next);
      dispatch({ type: 'succeeded' });
    } catch (error) {
      const failure = subscriptionFailure(error);
      if (failure.kind === 'payment') {
        navigate(paymentConfirmationPath(failure.paymentId, subscriptionTabPath(teamId)));
        return;
      }
      dispatch({
        type: 'failed',
        message:
          failure.kind === 'fields'
            ? (failure.message ?? Object.values(failure.errors).flat().join(' '))
            : failure.message || 'Your session has expired. Sign in again.',
      });
    }
  }

  const facts: PlanFacts = view.capabilities;
  const cancelButton = (
    <button
      type="button"
      className="button button--danger"
      onClick={() => dispatch({ type: 'open', cancelType: view.cancel_type })}
    >
      Cancel subscription
    </button>
  );
  return (
    <PlanSummary
      headingId={headingId}
      teamName={teamName}
      planId={view.plan}
      plans={plans}
      facts={facts}
      dates={subscriptionDates(view)}
    >
      {phase === 'offline' && (
        <Notice tone="info" title="Plans cannot be changed online here">
          Billing is not configured on this server (it runs without Stripe keys), so plans cannot be
          bought, switched or cancelled online. Ask your PicSnippets administrator to change the
          plan.
        </Notice>
      )}
      {action.message && <Notice tone="error">{action.message}</Notice>}
      {phase === 'unpaid' && (
        <div className="subscription__actions">
          <Link className="button" to={paymentMethodTabPath(teamId)}>
            Update the card
          </Link>
        </div>
      )}

      {phase === 'none' &&
        paidPlans.length > 0 &&
        // The form mounts on demand: its card field makes a SetupIntent at Stripe.
        (switching ? (
          <SubscribeForm
            teamId={teamId}
            view={view}
            plans={paidPlans}
            onSubscribed={(next) => {
              setSwitching(false);
              onChanged(next);
            }}
            onCancel={() => setSwitching(false)}
          />
        ) : (
          <div className="subscription__actions">
            <button type="button" className="button" onClick={() => setSwitching(true)}>
              Choose a paid plan
            </button>
          </div>
        ))}
      {phase === 'none' && paidPlans.length === 0 && (
        <p className="muted">No paid plans are offered at the moment.</p>
      )}

      {phase === 'grace' && (
        <div className="subscription__actions">
          <button
            type="button"
            className="button"
            aria-disabled={action.pending !== null}
            onClick={() =>
              void action.run('resume', () => swapPlan(teamId, { plan: view.plan, subscriptionId }))
            }
          >
            <Busy on={action.pending === 'resume'} busy="Resuming…" idle="Resume" />
          </button>
        </div>
      )}

      {phase === 'frozen' && (
        <div className="subscription__actions">
          {view.frozenPlan && (
            <button
              type="button"
              className="button"
              aria-disabled={action.pending !== null}
              onClick={() => {
                const plan = view.frozenPlan ?? view.plan;
                void action.run('resume', () => swapPlan(teamId, { plan, subscriptionId }));
              }}
            >
              <Busy
                on={action.pending === 'resume'}
                busy="Resuming…"
                idle={`Resume ${planName(view.frozenPlan, plans)}`}
              />
            </button>
          )}
          {cancelButton}
        </div>
      )}

      {(phase === 'active' || phase === 'unpaid' || phase === 'incomplete') && (
        <>
          {switching ? (
            <div className="stack">
              <h3 className="settings-subtitle">Switch plan</h3>
              <PlanPicker
                plans={paidPlans}
                interval={interval}
                selectedPlanId={picked}
                currentPlanId={view.plan}
                onInterval={setPickedInterval}
                onSelect={setPicked}
                legend="New plan"
                errors={action.errors.plan}
              />
              <div className="subscription__actions">
                <button
                  type="button"
                  className="button button--secondary"
                  onClick={() => {
                    setSwitching(false);
                    action.reset();
                  }}
                >
                  Keep {current?.name ?? 'the current plan'}
                </button>
                <button
                  type="button"
                  className="button"
                  aria-disabled={action.pending !== null || !picked || picked === view.plan}
                  onClick={() => {
                    if (!picked || picked === view.plan) return;
                    void action.run('switch', () =>
                      swapPlan(teamId, { plan: picked, subscriptionId }),
                    );
                  }}
                >
                  <Busy on={action.pending === 'switch'} busy="Switching…" idle="Switch" />
                </button>
              </div>
            </div>
          ) : (
            <div className="subscription__actions">
              <button
                type="button"
                className="button button--secondary"
                onClick={() => setSwitching(true)}
              >
                Switch plan
              </button>
              {cancelButton}
            </div>
          )}
        </>
      )}

      <CancelFlowModal
        state={flow}
        planName={current?.name ?? planName(view.plan, plans)}
        endsOn={formatBillingDate(view.current_period_end)}
        dispatch={dispatch}
        onRun={(chosen) => void runCancelFlow(chosen)}
      />
    </PlanSummary>
  );
}
