/**
 * The subscription tab of the user settings (./SubscriptionTab.tsx with
 * web/src/features/billing/SubscriptionPanel.tsx and PlanSection.tsx;
 * docs/adr/0026-billing-in-the-spa.md "Billing in the SPA", docs/billing.md "Offline mode") on a
 * server without Stripe keys: the current company's plan with its limits and whether PDF export and
 * custom font upload are included, why the plan cannot be changed here, and no control to pay,
 * switch or cancel with.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer } from '../../test/api.ts';
import { aFreePlan, anOfflineSubscription, aPlan, aTeam, aUser } from '../../test/fixtures.ts';
import { renderWithProviders } from '../../test/TestProviders.tsx';
import { SubscriptionTab } from './SubscriptionTab.tsx';

/** The plans of an offline server: the paid ones listed, but not to be taken. */
const PLANS = [aFreePlan(), aPlan({ available: false })];

/** The current company Acme with its offline billing on `plan`. */
function renderPlan(plan: 'free' | 'pro-monthly') {
  const pro = plan === 'pro-monthly';
  answer('GET /settings/companies', 200, [
    aTeam({ current_billing_plan: plan, can_export_pdf: pro, can_upload_custom_fonts: pro }),
  ]);
  answer('GET /spark/plans', 200, PLANS);
  answer(
    'GET /settings/subscription',
    200,
    anOfflineSubscription({
      plan,
      capabilities: {
        can_export_pdf: pro,
        can_upload_custom_fonts: pro,
        teams: pro ? 5 : 1,
        teamMembers: pro ? 10 : 2,
        frozen: false,
      },
    }),
  );
  return renderWithProviders(<SubscriptionTab part="subscription" />, {
    route: '/settings#/subscription',
    signedInAs: aUser(),
  });
}

/** The plan facts: each term (`<dt>`) with what it says (its `<dd>`). */
function facts(): Record<string, string> {
  return Object.fromEntries(
    [...document.querySelectorAll('dt')].map((dt) => [
      dt.textContent ?? '',
      dt.nextElementSibling?.textContent ?? '',
    ]),
  );
}

describe('the subscription tab, billing offline', () => {
  it('says it is loading the plan while the company is on its way', async () => {
    const teams = answer('GET /settings/companies', 200, [aTeam()], { held: true });
    renderWithProviders(<SubscriptionTab part="subscription" />, {
      route: '/settings#/subscription',
      signedInAs: aUser(),
    });
    expect(screen.getByRole('status').textContent).toContain('Loading your plan…');
    answer('GET /spark/plans', 200, PLANS);
    answer('GET /settings/subscription', 200, anOfflineSubscription());
    teams.release();
    await screen.findByRole('heading', { name: 'Acme: Free plan' });
  });

  it('shows the current company’s Pro plan: its limits, with PDF export and custom font upload included', async () => {
    renderPlan('pro-monthly');
    await screen.findByRole('heading', { name: 'Acme: Pro plan' });
    expect(screen.getByText('$29 per month per user.')).toBeTruthy();
    expect(facts()).toEqual({
      'Companies you can own': '5',
      'Members per company': '10',
      'PDF export': 'Included',
      'Custom font upload': 'Included',
    });
  });

  it('says why the plan cannot be changed here, and offers nothing to pay, switch or cancel with', async () => {
    renderPlan('pro-monthly');
    const notice = await screen.findByText('Plans cannot be changed online here');
    expect(notice.closest('[role="status"]')?.textContent).toContain(
      'Billing is not configured on this server',
    );
    for (const name of ['Cancel subscription', 'Switch plan', 'Choose a paid plan']) {
      expect(screen.queryByRole('button', { name })).toBeNull();
    }
    expect(screen.queryByRole('heading', { name: 'Invoices' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Payment method' })).toBeNull();
  });

  it('says what the free plan does not include', async () => {
    renderPlan('free');
    await screen.findByRole('heading', { name: 'Acme: Free plan' });
    expect(screen.getByText('Free of charge.')).toBeTruthy();
    expect(facts()).toMatchObject({
      'PDF export': 'Not included: Pro plans only',
      'Custom font upload': 'Not included: Pro plans only',
    });
    expect(screen.getByText(/Billing is not configured on this server/)).toBeTruthy();
  });
});

describe('the subscription tab, a team on a trial (docs/billing.md "Trials")', () => {
  it('says until when the trial runs, in the spec’s date format', async () => {
    answer('GET /settings/companies', 200, [aTeam({ current_billing_plan: 'starter-yearly' })]);
    answer('GET /spark/plans', 200, [
      aFreePlan(),
      aPlan({
        id: 'starter-yearly',
        name: 'Starter',
        price: 9000,
        interval: 'yearly',
        trial_days: 14,
        card_up_front: false,
      }),
    ]);
    answer(
      'GET /settings/subscription',
      200,
      anOfflineSubscription({
        billing_online: true,
        plan: 'starter-yearly',
        subscription_id: 'sub_Trial01',
        status: 'trialing',
        quantity: 1,
        active: true,
        needs_subscription: false,
        on_trial: true,
        trial_ends_at: '2027-03-03T12:00:00.000Z',
      }),
    );
    renderWithProviders(<SubscriptionTab part="subscription" />, {
      route: '/settings#/subscription',
      signedInAs: aUser(),
    });
    expect(await screen.findByText('On trial until March 3rd, 2027.')).toBeTruthy();
  });
});
