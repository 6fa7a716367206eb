/**
 * Registration step 1, the plan (./PlanStep.tsx in web/src/pages/RegisterPage.tsx; docs/accounts.md
 * "Screens", docs/adr/0011-registration.md "Registration"): Create account sends the account with
 * the chosen plan and goes to the confirmation, says it is creating the account meanwhile, brings a
 * refused address back to step 0 on its field, tells an invitee the account joins the team, and on
 * the partner-campaign path names the offer without a code and sends no coupon.
 */
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { PARTNER_CAMPAIGN_PATH, PARTNER_COUPON_LOOKUP } from '#shared/billing.ts';
import { PartnerRegisterPage, RegisterPage } from '../../pages/RegisterPage.tsx';
import { answer } from '../../test/api.ts';
import { expectBusy, expectFieldError } from '../../test/expectations.ts';
import { aFreePlan, aPlan, aUser, invalid } from '../../test/fixtures.ts';
import { renderWithProviders } from '../../test/TestProviders.tsx';

const PASSWORD = 'violet-harbour-42';
const CREATED = { success: true as const, redirect: '/confirmation' };

beforeEach(() => {
  // Billing offline: the paid plan is listed but cannot be taken.
  answer('GET /spark/plans', 200, [aFreePlan(), aPlan({ available: false })]);
  answer('GET /geocode/country', 200, { country: 'DE' });
  answer('POST /if-mail-exists', 200, { success: true });
});

/**
 * Renders registration at `route` (the partner page on its path), fills step 0 with valid
 * values and continues to the plans.
 */
async function renderPlanStep(route = '/register', consent = false) {
  const partner = route.startsWith(PARTNER_CAMPAIGN_PATH);
  const view = renderWithProviders(partner ? <PartnerRegisterPage /> : <RegisterPage />, {
    route,
    path: partner ? PARTNER_CAMPAIGN_PATH : '/register',
    signedInAs: null,
  });
  const { user } = view;
  await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Ana Müller');
  // An invitation may have filled in its address: the user types their own over it.
  const email = screen.getByRole('textbox', { name: 'E-mail address' });
  await user.clear(email);
  await user.type(email, 'ana@example.com');
  await user.type(screen.getByRole('textbox', { name: 'Company name' }), 'Café Zürich & Co');
  await user.type(screen.getByLabelText('Password'), PASSWORD);
  await user.type(screen.getByLabelText('Confirm password'), PASSWORD);
  await user.click(screen.getByRole('checkbox', { name: 'I accept the terms of service' }));
  if (consent)
    await user.click(
      screen.getByRole('checkbox', { name: 'Send me product news and offers by e-mail' }),
    );
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await screen.findByRole('heading', { name: 'Choose your plan' });
  const create = screen.getByRole('button', { name: 'Create account' });
  return { ...view, create };
}

describe('registration, the plan step', () => {
  it('creates the account on the free plan and goes to the confirmation', async () => {
    const registered = answer('POST /register', 201, CREATED);
    answer('GET /user/current', 200, aUser({ name: 'Ana Müller' }));
    const { user, create, router } = await renderPlanStep();
    await user.click(create);
    await waitFor(() => expect(router.state.location.pathname).toBe('/confirmation'));
    expect(router.state.location.state).toEqual({ team: 'Café Zürich & Co', plan: 'Free' });
    expect(registered.requests).toHaveLength(1);
    expect(registered.requests[0]?.body).toEqual({
      name: 'Ana Müller',
      email: 'ana@example.com',
      team: 'Café Zürich & Co',
      team_slug: 'café-zürich-co',
      password: PASSWORD,
      password_confirmation: PASSWORD,
      terms: true,
      plan: 'free',
    });
  });

  it('says it is creating the account while the answer is on its way', async () => {
    const registered = answer('POST /register', 201, CREATED, { held: true });
    answer('GET /user/current', 200, aUser());
    const { user, create, router } = await renderPlanStep();
    await user.click(create);
    await waitFor(() => expectBusy(create, 'Creating your account…'));
    await user.click(create);
    registered.release();
    await waitFor(() => expect(router.state.location.pathname).toBe('/confirmation'));
    expect(registered.requests).toHaveLength(1);
  });

  it('brings an address taken meanwhile back to step 0, on its field, focused', async () => {
    answer('POST /register', 422, invalid({ email: ['The email has already been taken.'] }));
    const { user, create, router } = await renderPlanStep();
    await user.click(create);
    const email = await screen.findByRole('textbox', { name: 'E-mail address' });
    expectFieldError(email, 'The email has already been taken.');
    await waitFor(() => expect(document.activeElement).toBe(email));
    expect(screen.queryByRole('heading', { name: 'Choose your plan' })).toBeNull();
    const notice = screen.getByRole('alert');
    expect(notice.textContent).toContain('Some details need attention');
    expect(router.state.location.pathname).toBe('/register');
  });

  it('tells an invitee the account joins the team, and sends the invitation', async () => {
    answer('GET /invitations/{code}', 200, {
      id: 'inv-1',
      email: 'ana@acme.example',
      role: 'member',
      team: { name: 'Acme' },
    });
    const registered = answer('POST /register', 201, CREATED);
    answer('GET /user/current', 200, aUser());
    const { user, create, router } = await renderPlanStep('/register?invitation=abc123');
    expect(screen.getByText('You are registering with an invitation to join a team.')).toBeTruthy();
    await user.click(create);
    await waitFor(() => expect(router.state.location.pathname).toBe('/confirmation'));
    expect(registered.requests[0]?.body).toMatchObject({ invitation: 'abc123', plan: 'free' });
  });

  it('on the partner path names the offer without a code, ignores the address bar’s coupon, and registers free without one', async () => {
    const lookup = answer('GET /coupon/{code}', 200, {
      valid: false,
      code: PARTNER_COUPON_LOOKUP,
      name: null,
      percent_off: null,
      amount_off: null,
      currency: null,
      duration: null,
      duration_in_months: null,
    });
    const partner = answer('POST /register/partner', 201, CREATED);
    answer('GET /user/current', 200, aUser());
    const { user, create, router } = await renderPlanStep(
      `${PARTNER_CAMPAIGN_PATH}?coupon=SHOULD-NOT-SHOW`,
    );
    expect(lookup.requests.map((r) => r.params)).toEqual([{ code: PARTNER_COUPON_LOOKUP }]);
    await screen.findByText(/The partner offer is not available right now/);
    expect(
      (screen.getByRole('radio', { name: /^Free/ }) as HTMLInputElement).checked,
      'the free plan is chosen',
    ).toBe(true);
    expect((screen.getByRole('radio', { name: /^Pro/ }) as HTMLInputElement).disabled).toBe(true);
    const text = document.body.textContent ?? '';
    expect(text).not.toContain('SHOULD-NOT-SHOW');
    expect(text).not.toContain(PARTNER_COUPON_LOOKUP);

    await user.click(create);
    await waitFor(() => expect(router.state.location.pathname).toBe('/confirmation'));
    expect(partner.requests).toHaveLength(1);
    const body = partner.requests[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({ plan: 'free' });
    expect(body).not.toHaveProperty('coupon');
    expect(body).not.toHaveProperty('partner_campaign');
  });

  it('on the partner path sends no coupon even when the offer is valid: its route applies it', async () => {
    answer('GET /coupon/{code}', 200, {
      valid: true,
      code: PARTNER_COUPON_LOOKUP,
      name: 'Partner',
      percent_off: 20,
      amount_off: null,
      currency: null,
      duration: 'repeating',
      duration_in_months: 3,
    });
    const partner = answer('POST /register/partner', 201, CREATED);
    answer('GET /user/current', 200, aUser());
    const { user, create, router } = await renderPlanStep(PARTNER_CAMPAIGN_PATH);
    await screen.findByText(/Partner offer/);
    expect(document.body.textContent).not.toContain(PARTNER_COUPON_LOOKUP);
    await user.click(create);
    await waitFor(() => expect(router.state.location.pathname).toBe('/confirmation'));
    expect(partner.requests[0]?.body).not.toHaveProperty('coupon');
  });

  it('offers a card-less trial without asking for a card, and sends no billing fields', async () => {
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
    const registered = answer('POST /register', 201, CREATED);
    answer('GET /user/current', 200, aUser({ name: 'Ana Müller' }));
    const { user, create, router } = await renderPlanStep();
    // The trial shows on the plan's card before it is picked; the free plan has none.
    const starter = screen.getByRole('radio', { name: /^Starter/ });
    expect(starter.closest('li')?.querySelector('.plan-option__trial')?.textContent).toBe(
      '14-day free trial',
    );
    expect(document.querySelectorAll('.plan-option__trial')).toHaveLength(1);
    await user.click(starter);
    expect(
      await screen.findByText(
        '14-day free trial, no card needed. Add a card on the Payment Method tab before the trial ends to keep the plan.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Payment' })).toBeNull();
    await user.click(create);
    await waitFor(() => expect(router.state.location.pathname).toBe('/confirmation'));
    expect(registered.requests[0]?.body).toMatchObject({ plan: 'starter-yearly' });
    expect(Object.keys(registered.requests[0]?.body as object).sort()).toEqual(
      [
        'email',
        'name',
        'password',
        'password_confirmation',
        'plan',
        'team',
        'team_slug',
        'terms',
      ].sort(),
    );
  });

  it('asks for marketing consent unticked, and sends it only when ticked', async () => {
    const view = renderWithProviders(<RegisterPage />, {
      route: '/register',
      path: '/register',
      signedInAs: null,
    });
    const consent = screen.getByRole('checkbox', {
      name: 'Send me product news and offers by e-mail',
    }) as HTMLInputElement;
    expect(consent.checked).toBe(false);
    view.unmount();

    const registered = answer('POST /register', 201, CREATED);
    answer('GET /user/current', 200, aUser({ name: 'Ana Müller' }));
    const first = await renderPlanStep();
    await first.user.click(first.create);
    await waitFor(() => expect(registered.requests).toHaveLength(1));
    expect(registered.requests[0]?.body).not.toHaveProperty('marketing_consent');
    first.unmount();

    const second = await renderPlanStep('/register', true);
    await second.user.click(second.create);
    await waitFor(() => expect(registered.requests).toHaveLength(2));
    expect(registered.requests[1]?.body).toMatchObject({ marketing_consent: true });
  });
});
