import { useId } from 'react';
import type { Plan, PlanInterval } from '../../api/plans.ts';
import { FieldError } from '../../components/TextField.tsx';
import { formatPrice, hasIntervalChoice, isFree, plansFor } from './plans.ts';
import { perInterval } from './format.ts';

/**
 * Shown on a paid plan while the server cannot take payments (no Stripe keys; docs/billing.md
 * docs/adr/0026-billing-in-the-spa.md "Billing in the SPA").
 */
export const BILLING_OFFLINE_TEXT = 'Billing is not configured on this server';

/**
 * The plan choice with its monthly/yearly toggle (docs/adr/0026-billing-in-the-spa.md "Billing in
 * the SPA": "monthly/yearly toggle and plan details"; docs/billing.md "Flows" yearly-display rule,
 * applied by the caller through `interval`). Free plans show whatever the interval; paid plans of
 * the active interval follow. Plans that cannot be taken now are disabled, with `unavailableText`
 * saying why. The toggle shows only when there are paid plans of both intervals.
 *
 * @param firstInputId id of the first radio, so a page can move focus to the group.
 * @param currentPlanId the plan the team is on (settings): marked "Current plan".
 * @param showTrials mark the plans that start with a card-less trial ("14-day free trial"):
 *   registration, where a trial starts (docs/billing.md "Trials"); never a plan change.
 * @param errors server errors on `plan`, shown under the group.
 */
export function PlanPicker({
  plans,
  interval,
  selectedPlanId,
  onInterval,
  onSelect,
  firstInputId,
  legend,
  currentPlanId,
  unavailableText = BILLING_OFFLINE_TEXT,
  errors,
  showTrials = false,
}: {
  plans: readonly Plan[];
  interval: PlanInterval;
  selectedPlanId: string | undefined;
  onInterval: (interval: PlanInterval) => void;
  onSelect: (planId: string) => void;
  firstInputId?: string;
  legend: string;
  currentPlanId?: string;
  unavailableText?: string;
  errors?: readonly string[];
  showTrials?: boolean;
}) {
  const errorId = useId();
  const shown = plansFor(plans, interval);
  const invalid = errors !== undefined && errors.length > 0;
  return (
    <>
      {hasIntervalChoice(plans) && (
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
        aria-describedby={invalid ? errorId : undefined}
        aria-invalid={invalid ? true : undefined}
      >
        {/* The step's heading says it visually; the legend names the group for screen readers. */}
        <legend className="visually-hidden">{legend}</legend>
        <ul className="plan-list">
          {shown.map((plan, i) => (
            <PlanOption
              key={plan.id}
              plan={plan}
              inputId={i === 0 ? firstInputId : undefined}
              selected={plan.id === selectedPlanId}
              current={plan.id === currentPlanId}
              trialDays={showTrials ? trialDaysOf(plan) : undefined}
              unavailableText={unavailableText}
              onSelect={onSelect}
            />
          ))}
        </ul>
        {invalid && <FieldError id={errorId} errors={errors} />}
      </fieldset>
    </>
  );
}

/** The days of a plan's card-less trial (docs/billing.md "Trials"), or undefined. */
function trialDaysOf(plan: Plan): number | undefined {
  return plan.available && plan.trial_days && plan.card_up_front === false
    ? plan.trial_days
    : undefined;
}

function PlanOption({
  plan,
  inputId,
  selected,
  current,
  trialDays,
  unavailableText,
  onSelect,
}: {
  plan: Plan;
  inputId: string | undefined;
  selected: boolean;
  current: boolean;
  /** Days of the card-less trial the plan starts with, shown beside its name. */
  trialDays: number | undefined;
  unavailableText: string;
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
        <span className="plan-option__name">
          {plan.name}
          {current && <span className="pill plan-option__current">Current plan</span>}
          {trialDays !== undefined && (
            <span className="pill plan-option__trial">{trialDays}-day free trial</span>
          )}
        </span>
        <span className="plan-option__price">
          {isFree(plan) ? (
            'Free'
          ) : (
            <>
              {formatPrice(plan.price)}
              <span className="plan-option__per">
                {' '}
                / {perInterval(plan.interval)}
                {plan.type === 'user' ? ' per user' : ''}
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
          {unavailableText}
        </p>
      )}
    </li>
  );
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What a plan gives, as short lines: limits (docs/accounts.md "Validation rules", docs/accounts.md "Constants") and Pro features (docs/adr/0023-team-roles.md "Team roles"). */
export function planDetails(plan: Plan): string[] {
  const lines: string[] = [];
  if (plan.attributes) {
    lines.push(count(plan.attributes.teams, 'team', 'teams'));
    lines.push(count(plan.attributes.teamMembers, 'member per team', 'members per team'));
  }
  if (plan.features?.can_export_pdf) lines.push('PDF export');
  if (plan.features?.can_upload_custom_fonts) lines.push('Custom font upload');
  return lines;
}
