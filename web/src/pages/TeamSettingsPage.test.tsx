/**
 * A team's settings page (./TeamSettingsPage.tsx; docs/accounts.md "Screens": "tabs: companies,
 * invoice, membership, payment method, subscription", then the developer API's two): its seven
 * tabs in order, named after the team once it is loaded, and the billing tabs opened by their
 * hashes through the team's paths, which say there is nothing to show while billing is offline,
 * and the webhooks tab from its hash.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer } from '../test/api.ts';
import {
  aFreePlan,
  anOfflineSubscription,
  aPlan,
  aTeamWithMembers,
  aUser,
} from '../test/fixtures.ts';
import { renderWithProviders } from '../test/TestProviders.tsx';
import { TeamSettingsPage } from './TeamSettingsPage.tsx';

function renderTeamSettings(hash = '') {
  const team = answer('GET /settings/companies/json/{id}', 200, aTeamWithMembers());
  const view = renderWithProviders(<TeamSettingsPage />, {
    route: `/settings/companies/team-1${hash}`,
    path: '/settings/companies/:teamId',
    signedInAs: aUser(),
  });
  const selected = () =>
    within(screen.getByRole('tablist', { name: 'Company settings' }))
      .getAllByRole('tab')
      .filter((tab) => tab.getAttribute('aria-selected') === 'true')
      .map((tab) => tab.textContent);
  return { ...view, team, selected };
}

/** The team's billing through its own paths: offline, on the free plan. */
function answerTeamBilling() {
  answer('GET /spark/plans', 200, [aFreePlan(), aPlan({ available: false })]);
  return answer('GET /settings/companies/{id}/subscription', 200, anOfflineSubscription());
}

describe('the team settings page', () => {
  it('names its eight tabs: the spec’s five, then Developer, Webhooks and Data, Company open first', async () => {
    const { team, selected } = renderTeamSettings();
    const tablist = await screen.findByRole('tablist', { name: 'Company settings' });
    expect(
      within(tablist)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual([
      'Company',
      'Invoices',
      'Membership',
      'Payment method',
      'Subscription',
      'Developer',
      'Webhooks',
      'Data',
    ]);
    expect(selected()).toEqual(['Company']);
    expect(screen.getByRole('heading', { level: 1, name: 'Acme' })).toBeTruthy();
    expect(document.title).toBe('Acme settings · PicSnippets');
    expect(team.requests[0]?.params).toEqual({ id: 'team-1' });
  });

  it('opens the invoices and payment-method tabs from their hashes, through the team’s paths, with nothing to show offline', async () => {
    const billing = answerTeamBilling();
    const { user, selected } = renderTeamSettings('#/invoices');
    await screen.findByText(
      'Billing is not available on this server, so Acme has no invoices to show here.',
    );
    expect(selected()).toEqual(['Invoices']);
    await user.click(screen.getByRole('tab', { name: 'Payment method' }));
    await screen.findByText(
      'Billing is not available on this server, so Acme has no payment method to show here.',
    );
    expect(selected()).toEqual(['Payment method']);
    expect(billing.requests[0]?.params).toEqual({ id: 'team-1' });
  });

  it('opens the webhooks tab from its hash, the owner’s form and list', async () => {
    answer('GET /settings/companies/{id}/webhooks', 200, {
      endpoints: [],
      events: [{ value: 'design.saved', text: 'A design was saved' }],
    });
    const { selected } = renderTeamSettings('#/webhooks');
    await screen.findByText('This company has no webhook endpoints yet.');
    expect(selected()).toEqual(['Webhooks']);
    expect(screen.getByRole('form', { name: 'Add an endpoint' })).toBeTruthy();
  });
});
