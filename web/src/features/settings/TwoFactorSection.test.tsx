/**
 * Two-factor authentication in the security settings (./TwoFactorSection.tsx;
 * docs/adr/0008-two-factor-authentication.md "Two-factor authentication"): setting it up (QR code,
 * secret, the code to confirm), the reset code shown once, turning it off with a code, and a
 * refused code on its field.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer, failNetwork } from '../../test/api.ts';
import { descriptionOf, expectBusy, expectFieldError } from '../../test/expectations.ts';
import { aUser, invalid } from '../../test/fixtures.ts';
import { renderWithProviders } from '../../test/TestProviders.tsx';
import { TwoFactorSection } from './TwoFactorSection.tsx';

const SETUP = {
  secret: 'JBSWY3DPEHPK3PXP',
  otpauth_url: 'otpauth://totp/PicSnippets:ana@example.com?secret=JBSWY3DPEHPK3PXP',
  qr: 'data:image/png;base64,iVBORw0KGgo=',
};

function renderTwoFactor(enabled = false) {
  return renderWithProviders(<TwoFactorSection />, {
    route: '/settings#/security',
    signedInAs: aUser({ two_factor_enabled: enabled }),
  });
}

/** Starts the set-up and waits for the QR code. */
async function startSetup(view: ReturnType<typeof renderTwoFactor>) {
  const start = answer('POST /settings/two-factor-auth', 200, SETUP);
  await view.user.click(screen.getByRole('button', { name: 'Set up two-factor authentication' }));
  await screen.findByRole('img', {
    name: 'QR code to add PicSnippets to your authenticator app',
  });
  return start;
}

describe('two-factor authentication', () => {
  it('offers to set it up while it is off', () => {
    renderTwoFactor();
    expect(screen.getByRole('heading', { name: 'Two-factor authentication' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Set up two-factor authentication' })).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('shows the QR code, the secret to type by hand and the code field', async () => {
    const view = renderTwoFactor();
    const start = await startSetup(view);
    expect(start.requests[0]?.body).toEqual({});
    const secret = screen.getByRole('textbox', {
      name: 'Or enter this secret by hand',
    }) as HTMLInputElement;
    expect(secret.value).toBe(SETUP.secret);
    expect(secret.readOnly).toBe(true);
    const code = screen.getByRole('textbox', { name: 'Code from your app' });
    expect(descriptionOf(code)).toBe('Six digits.');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(screen.getByRole('button', { name: 'Confirm and turn on' })).toBeTruthy();
  });

  it('goes back with Cancel', async () => {
    const view = renderTwoFactor();
    await startSetup(view);
    await view.user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'Set up two-factor authentication' })).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('refuses an empty code before asking the server', async () => {
    const view = renderTwoFactor();
    const start = await startSetup(view);
    await view.user.click(screen.getByRole('button', { name: 'Confirm and turn on' }));
    const code = screen.getByRole('textbox', { name: 'Code from your app' });
    await waitFor(() => expectFieldError(code, 'The code is invalid.'));
    expect(start.requests).toHaveLength(1);
  });

  it('puts a wrong code on the field and focuses it', async () => {
    const view = renderTwoFactor();
    await startSetup(view);
    answer('POST /settings/two-factor-auth', 422, invalid({ code: ['The code is invalid.'] }));
    const code = screen.getByRole('textbox', { name: 'Code from your app' });
    await view.user.type(code, '000000{Enter}');
    await waitFor(() => expectFieldError(code, 'The code is invalid.'));
    expect(document.activeElement).toBe(code);
  });

  it('turns it on with the right code and shows the reset code once', async () => {
    const view = renderTwoFactor();
    await startSetup(view);
    const confirm = answer(
      'POST /settings/two-factor-auth',
      200,
      { success: true, reset_code: 'reset-1234-5678' },
      { held: true },
    );
    answer('GET /user/current', 200, aUser({ two_factor_enabled: true }));
    await view.user.type(screen.getByRole('textbox', { name: 'Code from your app' }), '123456');
    const button = screen.getByRole('button', { name: 'Confirm and turn on' });
    await view.user.click(button);
    await waitFor(() => expectBusy(button, 'Checking…'));
    confirm.release();

    const title = await screen.findByText('Two-factor authentication is on');
    const notice = title.closest('[role="status"]');
    expect(notice?.textContent).toContain('It is shown only once');
    const reset = screen.getByRole('textbox', { name: 'Reset code' }) as HTMLInputElement;
    expect(reset.value).toBe('reset-1234-5678');
    expect(confirm.requests[0]?.body).toEqual({ code: '123456' });
    // Now on: the form turns it off.
    expect(await screen.findByRole('textbox', { name: 'Code or reset code' })).toBeTruthy();
  });

  it('turns it off with a code and says so', async () => {
    const off = answer('DELETE /settings/two-factor-auth', 200, { success: true });
    answer('GET /user/current', 200, aUser({ two_factor_enabled: false }));
    const { user } = renderTwoFactor(true);
    const code = screen.getByRole('textbox', { name: 'Code or reset code' });
    expect(descriptionOf(code)).toBe('Six digits from your app, or your reset code.');
    await user.type(code, '654321');
    await user.click(screen.getByRole('button', { name: 'Turn off two-factor' }));
    const done = await screen.findByText('Two-factor authentication is off.');
    expect(done.closest('[role="status"]')).toBeTruthy();
    expect(off.requests[0]?.body).toEqual({ code: '654321' });
    expect(screen.getByRole('button', { name: 'Set up two-factor authentication' })).toBeTruthy();
  });

  it('says there is no connection when the set-up gets no answer', async () => {
    failNetwork('POST /settings/two-factor-auth');
    const { user } = renderTwoFactor();
    await user.click(screen.getByRole('button', { name: 'Set up two-factor authentication' }));
    const alert = await screen.findByRole('alert');
    expect(
      within(alert).getByText(
        'We could not reach PicSnippets. Check your connection and try again.',
      ),
    ).toBeTruthy();
  });
});
