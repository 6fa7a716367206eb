/**
 * Registration step 0, the account (./AccountStep.tsx in web/src/pages/RegisterPage.tsx, the
 * rules in ./account.ts; docs/accounts.md "Validation rules", docs/adr/0011-registration.md
 * "Registration"): the labels and hints, a field's error once it is left, every field's once the
 * user asks to continue, the team slug following the company name, and what the e-mail check
 * answers.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { RegisterPage } from '../../pages/RegisterPage.tsx';
import { answer, failNetwork } from '../../test/api.ts';
import {
  descriptionOf,
  expectBusy,
  expectFieldError,
  expectNoFieldError,
} from '../../test/expectations.ts';
import { aFreePlan, aPlan, aUser, invalid } from '../../test/fixtures.ts';
import { renderWithProviders } from '../../test/TestProviders.tsx';

const PASSWORD = 'violet-harbour-42';

beforeEach(() => {
  // Billing offline: the paid plan is listed but cannot be taken.
  answer('GET /spark/plans', 200, [aFreePlan(), aPlan({ available: false })]);
  answer('GET /geocode/country', 200, { country: 'DE' });
});

function renderRegister(route = '/register') {
  const view = renderWithProviders(<RegisterPage />, { route, signedInAs: null });
  const field = (name: string) => screen.getByRole('textbox', { name });
  return {
    ...view,
    name: field('Name'),
    email: field('E-mail address'),
    team: field('Company name'),
    slug: field('Short team name (optional)'),
    password: screen.getByLabelText('Password'),
    confirmation: screen.getByLabelText('Confirm password'),
    terms: screen.getByRole('checkbox', { name: 'I accept the terms of service' }),
    submit: screen.getByRole('button', { name: 'Continue' }),
  };
}

type Form = ReturnType<typeof renderRegister>;

/** Fills step 0 with valid values and ticks the terms. */
async function fillAccount(form: Form, email = 'ana@example.com') {
  const { user } = form;
  await user.type(form.name, 'Ana Müller');
  await user.type(form.email, email);
  await user.type(form.team, 'Café Zürich & Co');
  await user.type(form.password, PASSWORD);
  await user.type(form.confirmation, PASSWORD);
  await user.click(form.terms);
}

describe('registration, the account step', () => {
  it('names every field, with the hints that say what is expected', () => {
    const form = renderRegister();
    expect(screen.getByRole('heading', { name: 'Your account' })).toBeTruthy();
    expect(descriptionOf(form.team)).toBe(
      'Your team in PicSnippets. You can invite colleagues to it later.',
    );
    expect(descriptionOf(form.slug)).toMatch(/^Lowercase words joined by dashes, such as/);
    expect(descriptionOf(form.password)).toBe('At least 8 characters.');
    expect(form.password.getAttribute('autocomplete')).toBe('new-password');
    expect(form.email.getAttribute('type')).toBe('email');
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
  });

  it('links the terms of service beside their checkbox, in a new tab that keeps the form', () => {
    const form = renderRegister();
    const terms = screen.getByRole('link', { name: 'Read the terms (opens in a new tab)' });
    expect([terms.getAttribute('href'), terms.getAttribute('target')]).toEqual([
      '/terms',
      '_blank',
    ]);
    // The link is not part of the checkbox's name or its click target.
    expect(form.terms.closest('.checkbox')?.contains(terms)).toBe(true);
    expect(terms.closest('label')).toBeNull();
  });

  it('shows a field’s error once it is left, and none on fields not yet touched', async () => {
    const form = renderRegister();
    await form.user.type(form.password, 'short');
    await form.user.tab();
    await waitFor(() =>
      expectFieldError(form.password, 'The password must be at least 8 characters.'),
    );
    expectNoFieldError(form.terms);
    expectNoFieldError(form.name);
    expect(screen.queryByText('The terms must be accepted.')).toBeNull();
  });

  it('takes the error away as the field is put right', async () => {
    const form = renderRegister();
    await form.user.type(form.password, 'short');
    await form.user.tab();
    await waitFor(() =>
      expectFieldError(form.password, 'The password must be at least 8 characters.'),
    );
    await form.user.type(form.password, '-but-longer');
    await waitFor(() => expectNoFieldError(form.password));
  });

  it('says what each field needs when Continue is pressed with nothing filled in', async () => {
    const check = answer('POST /if-mail-exists', 200, { success: true });
    const form = renderRegister();
    await form.user.click(form.submit);
    await waitFor(() => expectFieldError(form.name, 'Please enter a value.'));
    for (const field of [form.email, form.team, form.password, form.confirmation]) {
      expectFieldError(field, 'Please enter a value.');
    }
    expectFieldError(form.terms, 'The terms must be accepted.');
    expectNoFieldError(form.slug);
    expect(document.activeElement).toBe(form.name);
    expect(check.requests).toHaveLength(0);
  });

  it('refuses a name with digits and a confirmation that does not match, with the spec’s words', async () => {
    const form = renderRegister();
    await form.user.type(form.name, 'R2D2');
    await form.user.type(form.password, PASSWORD);
    await form.user.type(form.confirmation, `${PASSWORD}!`);
    await form.user.tab();
    await waitFor(() => expectFieldError(form.name, 'Name required and must be a string'));
    expectFieldError(form.confirmation, 'The password confirmation does not match.');
  });

  it('shows both passwords while "Show passwords" is ticked', async () => {
    const form = renderRegister();
    await form.user.click(screen.getByRole('checkbox', { name: 'Show passwords' }));
    expect(form.password.getAttribute('type')).toBe('text');
    expect(form.confirmation.getAttribute('type')).toBe('text');
  });

  it('lets the team slug follow the company name until it is edited', async () => {
    const form = renderRegister();
    await form.user.type(form.team, 'Café Zürich & Co');
    expect((form.slug as HTMLInputElement).value).toBe('café-zürich-co');
    await form.user.clear(form.slug);
    await form.user.type(form.slug, 'Zurich Cafe');
    await form.user.tab();
    expect((form.slug as HTMLInputElement).value).toBe('zurich-cafe');
    await form.user.type(form.team, ' AG');
    expect((form.slug as HTMLInputElement).value).toBe('zurich-cafe');
  });

  it('checks the address alone, then shows the plans with the free plan chosen while billing is offline', async () => {
    const check = answer('POST /if-mail-exists', 200, { success: true });
    const form = renderRegister();
    await fillAccount(form);
    await form.user.click(form.submit);

    const heading = await screen.findByRole('heading', { name: 'Choose your plan' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(check.requests.map((r) => r.body)).toEqual([{ email: 'ana@example.com' }]);
    const plans = screen.getByRole('group', { name: 'Plan' });
    const free = within(plans).getByRole('radio', { name: /^Free/ }) as HTMLInputElement;
    const pro = within(plans).getByRole('radio', { name: /^Pro/ }) as HTMLInputElement;
    expect(free.checked).toBe(true);
    expect(pro.disabled).toBe(true);
    expect(descriptionOf(pro)).toContain('Billing is not configured on this server');
    expect(screen.getByText(/so new accounts start on the free plan/)).toBeTruthy();
  });

  it('starts a visitor who asked for a paid plan on the free one while billing is offline, saying why, without a card', async () => {
    answer('POST /if-mail-exists', 200, { success: true });
    answer('GET /coupon/{code}', 200, {
      valid: false,
      code: 'WELCOME10',
      name: null,
      percent_off: null,
      amount_off: null,
      currency: null,
      duration: null,
      duration_in_months: null,
    });
    const form = renderRegister('/register?plan=pro-monthly&coupon=WELCOME10');
    await fillAccount(form);
    await form.user.click(form.submit);
    await screen.findByRole('heading', { name: 'Choose your plan' });
    expect(screen.getByText('Pro is not available')).toBeTruthy();
    const plans = screen.getByRole('group', { name: 'Plan' });
    expect((within(plans).getByRole('radio', { name: /^Free/ }) as HTMLInputElement).checked).toBe(
      true,
    );
    expect((within(plans).getByRole('radio', { name: /^Pro/ }) as HTMLInputElement).disabled).toBe(
      true,
    );
    await screen.findByText(
      (_text, element) =>
        element?.getAttribute('role') === 'status' &&
        (element.textContent ?? '').includes(
          'Coupon WELCOME10 is not valid, so it will not be applied.',
        ),
    );
    expect(screen.queryByRole('region', { name: 'Payment' })).toBeNull();
    expect(screen.queryByRole('textbox', { name: /Address/ })).toBeNull();
  });

  it('keeps a taken address on this step, on its field, focused', async () => {
    answer('POST /if-mail-exists', 422, invalid({ email: ['The email has already been taken.'] }));
    const form = renderRegister();
    await fillAccount(form, 'demo@example.com');
    await form.user.click(form.submit);
    await waitFor(() => expectFieldError(form.email, 'The email has already been taken.'));
    await waitFor(() => expect(document.activeElement).toBe(form.email));
    expect(screen.queryByRole('radio')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says it is checking while the address is being checked', async () => {
    const check = answer('POST /if-mail-exists', 200, { success: true }, { held: true });
    const form = renderRegister();
    await fillAccount(form);
    await form.user.click(form.submit);
    await waitFor(() => expectBusy(form.submit, 'Checking…'));
    check.release();
    await screen.findByRole('heading', { name: 'Choose your plan' });
  });

  it('says there is no connection when the check gets no answer, and stays', async () => {
    failNetwork('POST /if-mail-exists');
    const form = renderRegister();
    await fillAccount(form);
    await form.user.click(form.submit);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('No connection');
    expect(alert.textContent).toContain(
      'We could not reach PicSnippets. Check your connection and try again.',
    );
    expect(screen.getByRole('heading', { name: 'Your account' })).toBeTruthy();
  });

  it('keeps a refusal the form cannot check again until the field is changed', async () => {
    const check = answer(
      'POST /if-mail-exists',
      422,
      invalid({ password: ['This password is too common. Please choose another one.'] }),
    );
    const form = renderRegister();
    await fillAccount(form);
    await form.user.click(form.submit);
    await waitFor(() =>
      expectFieldError(form.password, 'This password is too common. Please choose another one.'),
    );
    await form.user.click(form.submit);
    await waitFor(() => expect(document.activeElement).toBe(form.password));
    expect(check.requests).toHaveLength(1);
  });

  it('tells a signed-in visitor that a new account signs them out', () => {
    renderWithProviders(<RegisterPage />, { route: '/register', signedInAs: aUser() });
    const notice = screen.getByRole('status');
    expect(notice.textContent).toContain('You are signed in as Ana Example');
    expect(notice.textContent).toContain('Creating a new account signs you out of this one.');
  });

  it('names the team of a valid invitation and fills in the invited address', async () => {
    answer('GET /invitations/{code}', 200, {
      id: 'inv-1',
      email: 'bo@example.com',
      role: 'member',
      team: { name: 'Acme' },
    });
    const form = renderRegister('/register?invitation=abc123');
    const notice = await screen.findByText(/You were invited as a member/);
    expect(notice.closest('[role="status"]')?.textContent).toContain('Join Acme');
    await waitFor(() => expect((form.email as HTMLInputElement).value).toBe('bo@example.com'));
  });

  it('keeps a name typed before the invitation answers, and then fills in the untouched address', async () => {
    const lookup = answer(
      'GET /invitations/{code}',
      200,
      { id: 'inv-1', email: 'iris@example.org', role: 'member', team: { name: 'Acme' } },
      { held: true },
    );
    const form = renderRegister('/register?invitation=abc123');
    await form.user.type(form.name, 'Iris Invitee');
    lookup.release();
    await screen.findByText(/You were invited as a member/);
    await waitFor(() => expect((form.email as HTMLInputElement).value).toBe('iris@example.org'));
    expect((form.name as HTMLInputElement).value).toBe('Iris Invitee');
    expect(document.activeElement).toBe(form.name);
  });

  it('keeps an address typed before the invitation answers', async () => {
    const lookup = answer(
      'GET /invitations/{code}',
      200,
      { id: 'inv-1', email: 'iris@example.org', role: 'member', team: { name: 'Acme' } },
      { held: true },
    );
    const form = renderRegister('/register?invitation=abc123');
    await form.user.type(form.email, 'iris.private@example.org');
    lookup.release();
    await screen.findByText(/You were invited as a member/);
    expect((form.email as HTMLInputElement).value).toBe('iris.private@example.org');
  });

  it('says an invitation is not valid, and that an account can still be made', async () => {
    answer('GET /invitations/{code}', 404, { message: 'This invitation is no longer valid.' });
    renderRegister('/register?invitation=gone');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Invitation not valid');
    expect(alert.textContent).toContain(
      'This invitation is no longer valid. You can still create an account.',
    );
  });
});
