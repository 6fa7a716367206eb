/**
 * The plan choice (./PlanPicker.tsx; docs/adr/0026-billing-in-the-spa.md "Billing in the SPA":
 * "monthly/yearly toggle and plan details"): the plans as radios named by name and price and
 * described by what they give, the billing period toggle when both periods have paid plans, plans
 * that cannot be taken now disabled with the reason, the current plan marked, and the server's
 * refusal under the group.
 */
import { screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { Plan, PlanInterval } from '../../api/plans.ts';
import { descriptionOf, expectFieldError, expectNoFieldError } from '../../test/expectations.ts';
import { aFreePlan, aPlan } from '../../test/fixtures.ts';
import { renderWithProviders } from '../../test/TestProviders.tsx';
import { PlanPicker } from './PlanPicker.tsx';

const PLANS: Plan[] = [
  aFreePlan(),
  aPlan(),
  aPlan({ id: 'pro-yearly', name: 'Pro yearly', price: 29000, interval: 'yearly' }),
  aPlan({ id: 'team-monthly', name: 'Team', price: 9900, type: 'team', available: false }),
];

/** A page holding the choice, as registration and the subscription tab do. */
function Choice(props: {
  plans?: Plan[];
  currentPlanId?: string;
  errors?: string[];
  onSelect?: (id: string) => void;
  showTrials?: boolean;
}) {
  const [interval, setInterval] = useState<PlanInterval>('monthly');
  const [selected, setSelected] = useState('free');
  return (
    <PlanPicker
      plans={props.plans ?? PLANS}
      interval={interval}
      selectedPlanId={selected}
      onInterval={setInterval}
      onSelect={(id) => {
        setSelected(id);
        props.onSelect?.(id);
      }}
      legend="Plan"
      currentPlanId={props.currentPlanId}
      errors={props.errors}
      showTrials={props.showTrials}
    />
  );
}

const plans = () => screen.getByRole('group', { name: 'Plan' });
const radio = (name: RegExp) => within(plans()).getByRole('radio', { name }) as HTMLInputElement;

describe('PlanPicker', () => {
  it("marks a card-less trial in the plan's name where trials start, and nowhere else", () => {
    const trialPlans = [aFreePlan(), aPlan({ trial_days: 14, card_up_front: false })];
    const { unmount } = renderWithProviders(<Choice plans={trialPlans} showTrials />);
    expect(radio(/^Pro/).closest('li')?.querySelector('label')?.textContent).toBe(
      'Pro14-day free trial$29 / month per user',
    );
    unmount();
    // A plan change in settings starts no trial, so it says none.
    renderWithProviders(<Choice plans={trialPlans} />);
    expect(radio(/^Pro/).closest('li')?.querySelector('label')?.textContent).toBe(
      'Pro$29 / month per user',
    );
  });

  it('names each plan of the period by its name and price, the free plan first', () => {
    renderWithProviders(<Choice />);
    const names = within(plans())
      .getAllByRole('radio')
      .map((r) => r.closest('li')?.querySelector('label')?.textContent);
    expect(names).toEqual(['FreeFree', 'Pro$29 / month per user', 'Team$99 / month']);
    expect(radio(/^Free/).checked).toBe(true);
  });

  it('describes what each plan gives: its limits and its Pro features', () => {
    renderWithProviders(<Choice />);
    const pro = descriptionOf(radio(/^Pro/));
    for (const line of ['5 teams', '10 members per team', 'PDF export', 'Custom font upload']) {
      expect(pro).toContain(line);
    }
    const free = descriptionOf(radio(/^Free/));
    expect(free).toContain('1 team');
    expect(free).toContain('2 members per team');
    expect(free).not.toContain('PDF export');
  });

  it('disables a plan that cannot be taken now, saying why', () => {
    renderWithProviders(<Choice />);
    const team = radio(/^Team/);
    expect(team.disabled).toBe(true);
    expect(descriptionOf(team)).toContain('Billing is not configured on this server');
    expect(descriptionOf(radio(/^Pro/))).not.toContain('Billing is not configured on this server');
  });

  it('switches the paid plans with the billing period, keeping the free plan', async () => {
    const { user } = renderWithProviders(<Choice />);
    const period = screen.getByRole('group', { name: 'Billing period' });
    expect(
      (within(period).getByRole('radio', { name: 'Monthly' }) as HTMLInputElement).checked,
    ).toBe(true);
    await user.click(within(period).getByRole('radio', { name: 'Yearly' }));
    expect(radio(/^Pro yearly/).closest('li')?.textContent).toContain('$290 / year per user');
    expect(within(plans()).queryByRole('radio', { name: /^Pro\$/ })).toBeNull();
    expect(radio(/^Free/)).toBeTruthy();
  });

  it('offers no billing period when only one period has paid plans', () => {
    renderWithProviders(<Choice plans={[aFreePlan(), aPlan()]} />);
    expect(screen.queryByRole('group', { name: 'Billing period' })).toBeNull();
  });

  it('selects a plan by click or with the arrow keys', async () => {
    const onSelect = vi.fn();
    const { user } = renderWithProviders(<Choice onSelect={onSelect} />);
    await user.click(radio(/^Pro/));
    expect(onSelect).toHaveBeenLastCalledWith('pro-monthly');
    expect(radio(/^Pro/).checked).toBe(true);
    await user.keyboard('{ArrowUp}');
    expect(onSelect).toHaveBeenLastCalledWith('free');
    expect(radio(/^Free/).checked).toBe(true);
  });

  it('marks the plan the team is on', () => {
    renderWithProviders(<Choice currentPlanId="pro-monthly" />);
    expect(within(radio(/^Pro/).closest('li')!).getByText('Current plan')).toBeTruthy();
    expect(within(radio(/^Free/).closest('li')!).queryByText('Current plan')).toBeNull();
  });

  it('shows the server’s refusal of the plan under the group', () => {
    renderWithProviders(<Choice errors={['The selected plan is invalid.']} />);
    expectFieldError(plans(), 'The selected plan is invalid.');
  });

  it('shows no error without one', () => {
    renderWithProviders(<Choice />);
    expectNoFieldError(plans());
  });
});
