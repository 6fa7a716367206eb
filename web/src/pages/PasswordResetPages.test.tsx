/**
 * The password-reset pages (./PasswordResetPages.tsx; docs/security.md "Account existence",
 * "Sessions and tokens"): `/password/reset` asks for the address and says the link is on its
 * way, and the e-mailed link's page takes the new password twice, refuses a confirmation that
 * does not match on its field, shows a refused link with a way to ask for a new one, and sends
 * the user to sign in with the new password.
 */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer } from '../test/api.ts';
import { expectBusy, expectFieldError, expectNoFieldError } from '../test/expectations.ts';
import { invalid } from '../test/fixtures.ts';
import { renderWithProviders } from '../test/TestProviders.tsx';
import { ForgotPasswordPage, ResetPasswordPage } from './PasswordResetPages.tsx';

/** What the server says to every address, known or not (functions/auth/account.ts). */
const LINK_SENT = 'If an account uses that address, we have e-mailed a password reset link.';
const TOKEN = 'reset-token-0123456789';

function renderForgot() {
  const view = renderWithProviders(<ForgotPasswordPage />, {
    route: '/password/reset',
    signedInAs: null,
  });
  const email = screen.getByRole('textbox', { name: 'E-mail address' });
  const submit = screen.getByRole('button', { name: 'Send the reset link' });
  return { ...view, email, submit };
}

function renderReset(search = '?email=rhea%40example.org') {
  const view = renderWithProviders(<ResetPasswordPage />, {
    route: `/password/reset/${TOKEN}${search}`,
    path: '/password/reset/:token',
    signedInAs: null,
  });
  return {
    ...view,
    email: screen.getByRole('textbox', { name: 'E-mail address' }) as HTMLInputElement,
    password: screen.getByLabelText('New password') as HTMLInputElement,
    confirmation: screen.getByLabelText('Confirm new password') as HTMLInputElement,
    submit: screen.getByRole('button', { name: 'Save the new password' }),
  };
}

describe('the forgotten-password page', () => {
  it('says the link is on its way once the address is sent', async () => {
    const sent = answer('POST /password/email', 200, { success: true, message: LINK_SENT });
    const { user, email, submit } = renderForgot();
    expect(screen.getByRole('heading', { level: 1, name: 'Reset your password' })).toBeTruthy();
    expect(email.getAttribute('type')).toBe('email');
    await user.type(email, 'Admin@Example.com');
    await user.click(submit);
    const notice = await screen.findByRole('status');
    expect(notice.textContent).toContain(LINK_SENT);
    expect(sent.requests.map((r) => r.body)).toEqual([{ email: 'admin@example.com' }]);
  });

  it('says to enter the address when it is empty, and sends nothing', async () => {
    const sent = answer('POST /password/email', 200, { success: true, message: LINK_SENT });
    const { user, email, submit } = renderForgot();
    await user.click(submit);
    await waitFor(() => expectFieldError(email, 'Enter your e-mail address.'));
    expect(sent.requests).toHaveLength(0);
  });

  it('says it is sending while the answer is on its way', async () => {
    const sent = answer(
      'POST /password/email',
      200,
      { success: true, message: LINK_SENT },
      { held: true },
    );
    const { user, email, submit } = renderForgot();
    await user.type(email, 'admin@example.com');
    await user.click(submit);
    await waitFor(() => expectBusy(submit, 'Sending…'));
    sent.release();
    await screen.findByRole('status');
  });
});

describe('the reset link’s page', () => {
  it('fills in the address of the link and names the new-password fields', () => {
    const { email, password, confirmation } = renderReset();
    expect(screen.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeTruthy();
    expect(email.value).toBe('rhea@example.org');
    expect(password.getAttribute('autocomplete')).toBe('new-password');
    expect(confirmation.getAttribute('autocomplete')).toBe('new-password');
  });

  it('refuses a confirmation that does not match, on its field, and sends nothing', async () => {
    const reset = answer('POST /password/reset', 200, { success: true, redirect: '/login' });
    const { user, password, confirmation, submit } = renderReset();
    await user.type(password, 'fresh-juniper-42');
    await user.type(confirmation, 'fresh-juniper-43');
    await user.click(submit);
    await waitFor(() =>
      expectFieldError(confirmation, 'The password confirmation does not match.'),
    );
    expectNoFieldError(password);
    expect(reset.requests).toHaveLength(0);
  });

  it('sends the token with the new password and goes to sign in, saying the password changed', async () => {
    const reset = answer('POST /password/reset', 200, { success: true, redirect: '/login' });
    const { user, password, confirmation, submit, router } = renderReset();
    await user.type(password, 'fresh-juniper-42');
    await user.type(confirmation, 'fresh-juniper-42');
    await user.click(submit);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.state).toEqual({ passwordReset: true });
    expect(reset.requests[0]?.body).toEqual({
      token: TOKEN,
      email: 'rhea@example.org',
      password: 'fresh-juniper-42',
      password_confirmation: 'fresh-juniper-42',
      revoke_tokens: false,
    });
  });

  it('shows a used link’s refusal on the address, with a way to ask for a new one', async () => {
    answer(
      'POST /password/reset',
      422,
      invalid({ email: ['This password reset link is invalid or has expired.'] }),
    );
    const { user, email, password, confirmation, submit } = renderReset();
    await user.type(password, 'fresh-juniper-42');
    await user.type(confirmation, 'fresh-juniper-42');
    await user.click(submit);
    await waitFor(() =>
      expectFieldError(email, 'This password reset link is invalid or has expired.'),
    );
    expect(
      screen.getByRole('link', { name: 'Ask for a new reset link' }).getAttribute('href'),
    ).toBe('/password/reset');
  });
});
