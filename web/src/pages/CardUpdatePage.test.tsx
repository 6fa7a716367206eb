/**
 * The card-update page (./CardUpdatePage.tsx; docs/accounts.md "Screens": "Card-update page …
 * with team_id in the query") on a server without Stripe keys: the team comes from the query,
 * the page says cards cannot be updated here and offers no card form (Stripe.js is never
 * loaded), with the way back to the team's subscription; a link without `team_id` says so.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer } from '../test/api.ts';
import { anOfflineSubscription, aUser } from '../test/fixtures.ts';
import { renderWithProviders } from '../test/TestProviders.tsx';
import { CardUpdatePage } from './CardUpdatePage.tsx';

/** The Stripe.js scripts in the document (`@stripe/stripe-js` adds one as it loads). */
const stripeScriptCount = () => document.querySelectorAll('script[src*="js.stripe.com"]').length;

describe('the card-update page, billing offline', () => {
  it('reads the team from the query and says cards cannot be updated here, with no card form', async () => {
    const view = answer(
      'GET /settings/companies/{id}/subscription',
      200,
      anOfflineSubscription({ team_id: 'team-demo' }),
    );
    const stripeScripts = stripeScriptCount();
    renderWithProviders(<CardUpdatePage />, {
      route: '/settings/card-update?team_id=team-demo',
      signedInAs: aUser(),
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Update your card' })).toBeTruthy();
    const notice = await screen.findByText('Cards cannot be updated here');
    expect(notice.closest('[role="status"]')?.textContent).toContain(
      'Billing is not configured on this server, so there is no card to update.',
    );
    expect(view.requests[0]?.params).toEqual({ id: 'team-demo' });
    expect(document.querySelector('.card-field')).toBeNull();
    expect(screen.queryByRole('button', { name: /card/i })).toBeNull();
    expect(stripeScriptCount(), 'Stripe.js was not loaded').toBe(stripeScripts);
    expect(
      screen.getByRole('link', { name: "Back to the company's subscription" }).getAttribute('href'),
    ).toBe('/settings/companies/team-demo#/subscription');
  });

  it('says a link without a company cannot be used, and asks for nothing', () => {
    renderWithProviders(<CardUpdatePage />, {
      route: '/settings/card-update',
      signedInAs: aUser(),
    });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('This link does not name a company');
    expect(screen.getByRole('link', { name: 'subscription settings' }).getAttribute('href')).toBe(
      '/settings#/subscription',
    );
  });
});
