/**
 * The user settings page (./SettingsPage.tsx; docs/accounts.md "Screens": "tabs profile,
 * companies, security, invoice, payment method, subscription"): its six tabs in that order, the
 * tab its hash names (with the page title), the arrow keys through the real tabs, the billing
 * tabs of a server without Stripe keys, and a signed-out visitor sent to sign in. The tabs'
 * mechanics on their own are in web/src/components/Tabs.test.tsx.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ABILITIES } from '#shared/contract/auth.ts';
import { answer } from '../test/api.ts';
import { aFreePlan, anOfflineSubscription, aPlan, aTeam, aUser } from '../test/fixtures.ts';
import { renderWithProviders } from '../test/TestProviders.tsx';
import { SettingsPage } from './SettingsPage.tsx';

const TAB_LABELS = [
  'Profile',
  'Companies',
  'Security',
  'Invoices',
  'Payment method',
  'Subscription',
];

/** What the billing tabs read: the user's team (Acme, current), the plans, its offline billing. */
function answerBilling() {
  answer('GET /settings/companies', 200, [aTeam()]);
  answer('GET /spark/plans', 200, [aFreePlan(), aPlan({ available: false })]);
  return answer('GET /settings/subscription', 200, anOfflineSubscription());
}

/** What the security tab reads: the token abilities and the (empty) list of tokens. */
function answerSecurity() {
  answer(
    'GET /settings/api/token/abilities',
    200,
    ABILITIES.map(({ value, text, default: on }) => ({ value, text, default: on })),
  );
  answer('GET /settings/api/tokens', 200, []);
}

function renderSettings(route: string) {
  const view = renderWithProviders(<SettingsPage />, {
    route,
    path: '/settings',
    signedInAs: aUser(),
  });
  const tablist = () => screen.getByRole('tablist', { name: 'Settings' });
  const selected = () =>
    within(tablist())
      .getAllByRole('tab')
      .filter((tab) => tab.getAttribute('aria-selected') === 'true')
      .map((tab) => tab.textContent);
  return { ...view, tablist, selected };
}

describe('the settings page', () => {
  it('names its six tabs in the spec’s order and opens the one its hash names, in the title too', async () => {
    answerBilling();
    const { tablist, selected } = renderSettings('/settings#/invoices');
    expect(
      within(tablist())
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(TAB_LABELS);
    expect(selected()).toEqual(['Invoices']);
    expect(document.title).toBe('Settings: Invoices · PicSnippets');
    await screen.findByRole('heading', { name: 'Invoices' });
  });

  it('moves through its tabs with the arrow keys and End, wrapping from Subscription to Profile', async () => {
    answerSecurity();
    answerBilling();
    const { user, router, selected } = renderSettings('/settings#/security');
    screen.getByRole('tab', { name: 'Security' }).focus();
    const steps: Array<[string, string, string]> = [
      ['{ArrowRight}', 'Invoices', '#/invoices'],
      ['{ArrowRight}', 'Payment method', '#/payment-method'],
      ['{End}', 'Subscription', '#/subscription'],
      ['{ArrowRight}', 'Profile', '#/profile'],
    ];
    for (const [key, tab, hash] of steps) {
      await user.keyboard(key);
      expect(selected()).toEqual([tab]);
      expect(router.state.location.hash).toBe(hash);
      expect(document.activeElement).toBe(screen.getByRole('tab', { name: tab }));
    }
  });

  it('says the current company has no invoices, and no payment method, to show while billing is offline', async () => {
    answerBilling();
    const { user, selected } = renderSettings('/settings#/invoices');
    await screen.findByText(
      'Billing is not available on this server, so Acme has no invoices to show here.',
    );
    await user.click(screen.getByRole('tab', { name: 'Payment method' }));
    expect(selected()).toEqual(['Payment method']);
    await screen.findByText(
      'Billing is not available on this server, so Acme has no payment method to show here.',
    );
  });

  it('opens the subscription tab from its hash, with the current company’s plan', async () => {
    answer('GET /settings/companies', 200, [
      aTeam({ current_billing_plan: 'pro-monthly', can_export_pdf: true }),
    ]);
    answer('GET /spark/plans', 200, [aFreePlan(), aPlan()]);
    answer(
      'GET /settings/subscription',
      200,
      anOfflineSubscription({
        plan: 'pro-monthly',
        capabilities: {
          can_export_pdf: true,
          can_upload_custom_fonts: true,
          teams: 5,
          teamMembers: 10,
          frozen: false,
        },
      }),
    );
    const { selected } = renderSettings('/settings#/subscription');
    expect(selected()).toEqual(['Subscription']);
    await screen.findByRole('heading', { name: 'Acme: Pro plan' });
    expect(screen.getByText('Custom font upload')).toBeTruthy();
  });

  it('sends a signed-out visitor to sign in, to come back to the tab afterwards', () => {
    const { router } = renderWithProviders(<SettingsPage />, {
      route: '/settings#/security',
      path: '/settings',
      signedInAs: null,
    });
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.state).toMatchObject({
      from: { pathname: '/settings', hash: '#/security' },
    });
    expect(screen.queryByRole('tablist')).toBeNull();
  });
});
