/**
 * The payment-confirmation page (./PaymentConfirmationPage.tsx; docs/accounts.md "Screens",
 * docs/adr/0026-billing-in-the-spa.md "Billing in the SPA") on a server without Stripe keys: the
 * lookup's 422 says why the payment cannot be confirmed here and Stripe.js is never loaded; the way
 * back follows `?redirect=` only to a path on this site (web/src/features/billing/redirect.ts),
 * else the subscription settings.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer } from '../test/api.ts';
import { aUser, invalid } from '../test/fixtures.ts';
import { renderWithProviders } from '../test/TestProviders.tsx';
import { PaymentConfirmationPage } from './PaymentConfirmationPage.tsx';

/** The Stripe.js scripts in the document (`@stripe/stripe-js` adds one as it loads). */
const stripeScriptCount = () => document.querySelectorAll('script[src*="js.stripe.com"]').length;

/** The page for PaymentIntent `pi_unknown` with `redirect`, the lookup answered as offline. */
function renderOffline(redirect?: string) {
  const lookup = answer(
    'GET /stripe/payment/{id}',
    422,
    invalid({ payment: ['Invalid Stripe Key/Secret'] }),
  );
  const query = redirect === undefined ? '' : `?redirect=${encodeURIComponent(redirect)}`;
  const view = renderWithProviders(<PaymentConfirmationPage />, {
    route: `/stripe/payment/pi_unknown${query}`,
    path: '/stripe/payment/:paymentId',
    signedInAs: aUser(),
  });
  return { ...view, lookup };
}

describe('the payment-confirmation page, billing offline', () => {
  it('says why the payment cannot be confirmed here, and never loads Stripe', async () => {
    const stripeScripts = stripeScriptCount();
    const { lookup } = renderOffline();
    expect(screen.getByRole('heading', { name: 'Confirm your payment' })).toBeTruthy();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This payment cannot be confirmed here');
    expect(alert.textContent).toContain('Invalid Stripe Key/Secret');
    expect(lookup.requests[0]?.params).toEqual({ id: 'pi_unknown' });
    expect(screen.queryByRole('button', { name: 'Confirm payment' })).toBeNull();
    expect(stripeScriptCount(), 'Stripe.js was not loaded').toBe(stripeScripts);
    expect(document.title).toBe('Confirm your payment · PicSnippets');
  });

  it('leads back to the subscription settings, not to another site’s redirect', async () => {
    renderOffline('https://evil.example/');
    await screen.findByRole('alert');
    expect(screen.getByRole('link', { name: 'Back to the settings' }).getAttribute('href')).toBe(
      '/settings#/subscription',
    );
  });

  it('leads back to a redirect on this site', async () => {
    renderOffline('/settings/companies/team-1#/subscription');
    await screen.findByRole('alert');
    expect(screen.getByRole('link', { name: 'Back to the settings' }).getAttribute('href')).toBe(
      '/settings/companies/team-1#/subscription',
    );
  });
});
