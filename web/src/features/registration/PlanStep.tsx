import { useId, type FormEvent } from 'react';
import type { Plan, PlanInterval, PlanList } from '../../api/plans.ts';
import { Notice } from '../../components/Notice.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { FieldError } from '../../components/TextField.tsx';
import { formatPrice, hasIntervalChoice, isFree, plansFor } from './plans.ts';

/** Shown on a paid plan while the server cannot take payments (no Stripe keys). */
export const BILLING_OFFLINE_TEXT = 'Billing is not configured';

/**
 * Registration step 1: the plan (spec 001 §2 "step 1 plan and card"). Plans that cannot be
 * taken now are shown, disabled, with the reason. The monthly/yearly toggle shows only when
 * there are paid plans of both intervals.
 *
 * TODO: the card form (spec 001 §4 "Card input is shown only for a non-free plan") comes with
 * the billing issue; until then only plans the server marks available can be chosen.
 */
export function PlanStep({
  headingId,
  planGroupId,
  planList,
  interval,
  selectedPlanId,
  planErrors,
  unavailableRequest,
  coupon,
  invitation,
  pending,
  onInterval,
  onSelect,
  onBack,
  onSubmit,
}: {
  headingId: string;
  /** Id of the plan group's first radio, so the page can move focus to the plans. */
  planGroupId: string;
  planList: PlanList | undefined;
  interval: PlanInterval;
  selectedPlanId: string | undefined;
  planErrors: readonly string[] | undefined;
  unavailableRequest: Plan | undefined;
  coupon: string | undefined;
  invitation: string | undefined;
  pending: boolean;
  onInterval: (interval: PlanInterval) => void;
  onSelect: (planId: string) => void;
  onBack: () => void;
  onSubmit: () => void;
}) {
  const ids = { legend: useId(), error: useId(), interval: useId() };
  const loading = planList === undefined;
  const shown = planList ? plansFor(planList.plans, interval) : [];

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSubmit();
  }

  return (
    <form className="stack" noValidate onSubmit={submit} aria-busy={pending || loading}>
      <h2 id={headingId} tabIndex={-1} className="card__title">
        Choose your plan
      </h2>

      {planList?.source === 'fallback' && (
        <Notice tone="info" title="Only the free plan is offered right now">
          The plan list could not be loaded. You can change your plan later in the settings.
        </Notice>
      )}
      {unavailableRequest && (
        <Notice tone="info" title={`${unavailableRequest.name} is not available yet`}>
          {BILLING_OFFLINE_TEXT}, so paid plans cannot be chosen. Start on the free plan and upgrade
          later in the settings.
        </Notice>
      )}

      {planList && hasIntervalChoice(planList.plans) && (
        <fieldset className="segmented">
          <legend className="field__label">Billing period</legend>
          <div className="segmented__options">
            {(['monthly', 'yearly'] as const).map((value) => (
              <label key={value} className="segmented__option">
                <input
                  type="radio"
                  name="interval"
                  value={value}
                  checked={interval === value}
                  onChange={() => onInterval(value)}
                />
                <span>{value === 'monthly' ? 'Monthly' : 'Yearly'}</span>
              </label>
            ))}
          </div>
        </fieldset>
      )}

      <fieldset
        className="plans"
        aria-describedby={planErrors ? ids.error : undefined}
        aria-invalid={planErrors ? true : undefined}
      >
        {/* The step's heading says it visually; the legend names the group for screen readers. */}
        <legend id={ids.legend} className="visually-hidden">
          Plan
        </legend>
        {loading ? (
          <p className="plans__loading" role="status">
            <Spinner /> Loading the plans…
          </p>
        ) : (
          <ul className="plan-list">
            {shown.map((plan, i) => (
              <PlanOption
                key={plan.id}
                plan={plan}
                inputId={i === 0 ? planGroupId : undefined}
                selected={plan.id === selectedPlanId}
                onSelect={onSelect}
              />
            ))}
          </ul>
        )}
        {planErrors && <FieldError id={ids.error} errors={planErrors} />}
      </fieldset>

      {(coupon || invitation) && (
        <ul className="plan-extras muted">
          {coupon && (
            <li>
              Coupon <code>{coupon}</code> is kept with your registration.
            </li>
          )}
          {invitation && <li>You are registering with an invitation to join a team.</li>}
        </ul>
      )}

      <div className="form-actions">
        <button type="button" className="button button--secondary" onClick={onBack}>
          Back
        </button>
        <button
          type="submit"
          className="button"
          aria-disabled={pending || loading || selectedPlanId === undefined}
        >
          {pending ? (
            <>
              <Spinner /> Creating your account…
            </>
          ) : (
            'Create account'
          )}
        </button>
      </div>
    </form>
  );
}

function PlanOption({
  plan,
  inputId,
  selected,
  onSelect,
}: {
  plan: Plan;
  inputId: string | undefined;
  selected: boolean;
  onSelect: (planId: string) => void;
}) {
  const generatedId = useId();
  const id = inputId ?? generatedId;
  const details = planDetails(plan);
  const describedBy = [
    details.length > 0 ? `${id}-details` : '',
    plan.available ? '' : `${id}-note`,
  ]
    .filter(Boolean)
    .join(' ');
  const classes = [
    'plan-option',
    selected ? 'plan-option--selected' : '',
    plan.available ? '' : 'plan-option--unavailable',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <li className={classes} data-plan={plan.id}>
      <input
        id={id}
        className="plan-option__radio"
        type="radio"
        name="plan"
        value={plan.id}
        checked={selected}
        disabled={!plan.available}
        aria-describedby={describedBy || undefined}
        onChange={() => onSelect(plan.id)}
      />
      <label htmlFor={id} className="plan-option__label">
        <span className="plan-option__name">{plan.name}</span>
        <span className="plan-option__price">
          {isFree(plan) ? (
            'Free'
          ) : (
            <>
              {formatPrice(plan.price)}
              <span className="plan-option__per">
                {' '}
                / {plan.interval === 'yearly' ? 'year' : 'month'}
              </span>
            </>
          )}
        </span>
      </label>
      {details.length > 0 && (
        <ul id={`${id}-details`} className="plan-option__details">
          {details.map((d) => (
            <li key={d}>{d}</li>
          ))}
        </ul>
      )}
      {!plan.available && (
        <p id={`${id}-note`} className="plan-option__note">
          <span aria-hidden="true">⊘ </span>
          {BILLING_OFFLINE_TEXT}
        </p>
      )}
    </li>
  );
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What a plan gives, as short lines: limits (spec 001 §9) and Pro features (spec 001 §6). */
function planDetails(plan: Plan): string[] {
  const lines: string[] = [];
  if (plan.attributes) {
    lines.push(count(plan.attributes.teams, 'team', 'teams'));
    lines.push(count(plan.attributes.teamMembers, 'member per team', 'members per team'));
  }
  if (plan.features?.can_export_pdf) lines.push('PDF export');
  if (plan.features?.can_upload_custom_fonts) lines.push('Custom font upload');
  return lines;
}
