/**
 * The sign-in form as the sign-in page shows it (web/src/pages/LoginPage.tsx; the rules in
 * ./signIn.ts; docs/accounts.md "Error answers in the SPA"): its labels, the checks before
 * `POST /login`, a refusal on its fields and in the notice, the second factor, the busy state,
 * and where a success goes.
 */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LoginPage } from '../../pages/LoginPage.tsx';
import { TEST_XSRF_TOKEN, answer, answerHtml, failNetwork } from '../../test/api.ts';
import { expectBusy, expectFieldError, expectNoFieldError } from '../../test/expectations.ts';
import { aSignIn, aUser, invalid } from '../../test/fixtures.ts';
import { renderWithProviders, type RenderOptions } from '../../test/TestProviders.tsx';

const CREDENTIALS_WRONG = 'These credentials do not match our records.';

function renderLogin(options: RenderOptions = {}) {
  const view = renderWithProviders(<LoginPage />, {
    route: '/login',
    signedInAs: null,
    ...options,
  });
  const email = screen.getByRole('textbox', { name: 'E-mail address' });
  const password = screen.getByLabelText('Password');
  const submit = screen.getByRole('button', { name: 'Sign in' });
  return { ...view, email, password, submit };
}

describe('the sign-in form', () => {
  it('names its fields, its button and the ways out', () => {
    const { email, password } = renderLogin();
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    expect(email.getAttribute('type')).toBe('email');
    expect(email.getAttribute('autocomplete')).toBe('username');
    expect(password.getAttribute('type')).toBe('password');
    expect(password.getAttribute('autocomplete')).toBe('current-password');
    expect(screen.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).toBe(
      '/password/reset',
    );
    expect(screen.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe(
      '/register',
    );
    // No code field until the server asks for one.
    expect(screen.queryByLabelText('Authentication code')).toBeNull();
  });

  it('shows the password while "Show password" is ticked', async () => {
    const { user, password } = renderLogin();
    await user.click(screen.getByRole('checkbox', { name: 'Show password' }));
    expect(password.getAttribute('type')).toBe('text');
    await user.click(screen.getByRole('checkbox', { name: 'Show password' }));
    expect(password.getAttribute('type')).toBe('password');
  });

  it('says what to enter in each empty field, focuses the first, and sends nothing', async () => {
    const login = answer('POST /login', 200, aSignIn());
    const { user, email, password, submit } = renderLogin();
    await user.click(submit);
    await waitFor(() => expectFieldError(email, 'Enter your e-mail address.'));
    expectFieldError(password, 'Enter your password.');
    expect(document.activeElement).toBe(email);
    expect(login.requests).toHaveLength(0);
  });

  it('refuses an address that is not one with the server’s message', async () => {
    const { user, email, password, submit } = renderLogin();
    await user.type(email, 'ana-at-example');
    await user.type(password, 'secret-42');
    await user.click(submit);
    await waitFor(() => expectFieldError(email, 'Email must be valid email'));
    expectNoFieldError(password);
  });

  it('submits with Enter, sending the address trimmed and lower-cased with the CSRF headers', async () => {
    const login = answer('POST /login', 200, aSignIn(aUser(), '/dashboard'));
    answer('GET /user/current', 200, aUser());
    const { user, email, password, router } = renderLogin();
    await user.type(email, '  Ana@Example.com ');
    await user.type(password, 'secret-42{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(login.requests).toHaveLength(1);
    expect(login.requests[0]?.body).toEqual({ email: 'ana@example.com', password: 'secret-42' });
    expect(login.requests[0]?.headers.get('X-XSRF-TOKEN')).toBe(TEST_XSRF_TOKEN);
    expect(login.requests[0]?.headers.get('X-Requested-With')).toBe('XMLHttpRequest');
  });

  it('puts a 422 on its field, says so above the form, and focuses the field', async () => {
    answer('POST /login', 422, invalid({ email: [CREDENTIALS_WRONG] }));
    const { user, email, password, submit } = renderLogin();
    await user.type(email, 'ana@example.com');
    await user.type(password, 'wrong-password');
    await user.click(submit);
    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toContain('Please check the form');
    expect(notice.textContent).toContain('The given data was invalid.');
    expectFieldError(email, CREDENTIALS_WRONG);
    expectNoFieldError(password);
    await waitFor(() => expect(document.activeElement).toBe(email));
  });

  it('asks for the authentication code when the server wants the second factor, then sends it', async () => {
    answer('POST /login', 422, invalid({ code: ['Enter the code from your authenticator app.'] }));
    const { user, email, password, submit, router } = renderLogin();
    await user.type(email, 'tove@example.org');
    await user.type(password, 'copper-meadow-58');
    await user.click(submit);

    const code = await screen.findByRole('textbox', { name: 'Authentication code' });
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expectFieldError(code, 'Enter the code from your authenticator app.');
    expect(code.getAttribute('aria-describedby')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(code));

    const login = answer('POST /login', 200, aSignIn(aUser(), '/dashboard'));
    answer('GET /user/current', 200, aUser());
    await user.type(code, '123456{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(login.requests[0]?.body).toEqual({
      email: 'tove@example.org',
      password: 'copper-meadow-58',
      code: '123456',
    });
  });

  it('says it is signing in while the answer is on its way, and ignores a second submit', async () => {
    const login = answer('POST /login', 200, aSignIn(aUser(), '/dashboard'), { held: true });
    answer('GET /user/current', 200, aUser());
    const { user, email, password, submit, router } = renderLogin();
    await user.type(email, 'ana@example.com');
    await user.type(password, 'secret-42');
    await user.click(submit);
    await waitFor(() => expectBusy(submit, 'Signing in…'));
    expect(submit.closest('form')?.getAttribute('aria-busy')).toBe('true');
    await user.click(submit);
    await user.type(password, '{Enter}');
    login.release();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(login.requests).toHaveLength(1);
  });

  it('says there is no connection when the request gets no answer', async () => {
    failNetwork('POST /login');
    const { user, email, password, submit } = renderLogin();
    await user.type(email, 'ana@example.com');
    await user.type(password, 'secret-42');
    await user.click(submit);
    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toContain('No connection');
    expect(notice.textContent).toContain(
      'We could not reach PicSnippets. Check your connection and try again.',
    );
    expectNoFieldError(email);
  });

  it('gives the generic message for an answer that is not JSON', async () => {
    answerHtml('POST /login', 502);
    const { user, email, password, submit } = renderLogin();
    await user.type(email, 'ana@example.com');
    await user.type(password, 'secret-42');
    await user.click(submit);
    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toContain('Sign-in failed');
    expect(notice.textContent).toContain(
      'Something went wrong. Please try again or contact customer support.',
    );
  });

  it('shows a throttled sign-in’s own message', async () => {
    answer('POST /login', 429, {
      message: 'Too many login attempts. Please try again in 60 seconds.',
    });
    const { user, email, password, submit } = renderLogin();
    await user.type(email, 'ana@example.com');
    await user.type(password, 'secret-42');
    await user.click(submit);
    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toContain('Sign-in failed');
    expect(notice.textContent).toContain(
      'Too many login attempts. Please try again in 60 seconds.',
    );
  });

  it('clears the notice as the form is sent again', async () => {
    answer('POST /login', 500, { message: 'Server Error' });
    const { user, email, password, submit } = renderLogin();
    await user.type(email, 'ana@example.com');
    await user.type(password, 'secret-42');
    await user.click(submit);
    await screen.findByRole('alert');
    answer('POST /login', 200, aSignIn(aUser(), '/dashboard'), { held: true });
    await user.click(submit);
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('says "Password changed" after a reset, until the next submit', () => {
    renderLogin({ route: { pathname: '/login', state: { passwordReset: true } } });
    const notice = screen.getByRole('status');
    expect(notice.textContent).toContain('Password changed');
    expect(notice.textContent).toContain('Sign in with your new password.');
  });

  it('confirms the sign-in, focused, when the answer names no page of the app', async () => {
    answer('POST /login', 200, aSignIn(aUser(), 'https://elsewhere.example.com/'));
    answer('GET /user/current', 200, aUser());
    const { user, email, password, submit } = renderLogin();
    await user.type(email, 'ana@example.com');
    await user.type(password, 'secret-42');
    await user.click(submit);
    const heading = await screen.findByRole('heading', { name: 'You are signed in' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(screen.getByRole('link', { name: 'Go to your dashboard' })).toBeTruthy();
  });
});
