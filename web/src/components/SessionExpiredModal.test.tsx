/**
 * The session-expired modal (./SessionExpiredModal.tsx;
 * docs/adr/0040-session-expiry-keeps-the-work.md "Session expiry keeps the work"): a 401 to a
 * signed-in user opens it over the page, with the address filled in and focus on the password; Esc
 * or "Not now" fold it into a bar; signing in again as the same user closes it and the page goes
 * on.
 */
import { act, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { call } from '../api/client.ts';
import { useAppStore } from '../state/store.ts';
import { answer } from '../test/api.ts';
import { expectBusy, expectFieldError } from '../test/expectations.ts';
import { aSignIn, aUser, invalid } from '../test/fixtures.ts';
import { renderWithProviders } from '../test/TestProviders.tsx';
import { SessionExpiredModal } from './SessionExpiredModal.tsx';

const TITLE = 'Your session has expired';

/** A settings page whose Save is answered 401, with the modal of the app shell. */
function PageWithModal() {
  const [name, setName] = useState('');
  return (
    <>
      <label>
        Name <input value={name} onChange={(event) => setName(event.target.value)} />
      </label>
      <button
        type="button"
        onClick={() =>
          void call('PUT /settings/contact', { body: { name, email: 'ana@example.com' } }).catch(
            () => {},
          )
        }
      >
        Save contact details
      </button>
      <SessionExpiredModal />
    </>
  );
}

/** Renders the page signed in as Ana, and lets Save answer 401 so the session expires. */
async function expire() {
  answer('PUT /settings/contact', 401, { message: 'Unauthenticated.' });
  const view = renderWithProviders(<PageWithModal />, { signedInAs: aUser() });
  await view.user.type(screen.getByRole('textbox', { name: 'Name' }), 'Ana Renamed');
  await view.user.click(screen.getByRole('button', { name: 'Save contact details' }));
  const dialog = await screen.findByRole('alertdialog', { name: TITLE });
  return { ...view, dialog };
}

describe('SessionExpiredModal', () => {
  it('is not there while the session lives', () => {
    renderWithProviders(<PageWithModal />, { signedInAs: aUser() });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.queryByRole('region', { name: 'Signed out' })).toBeNull();
  });

  it('opens on a 401, the address filled in and focus on the password, the page kept', async () => {
    const { dialog } = await expire();
    expect(dialog.textContent).toContain('what you typed on this page is kept');
    const email = screen.getByRole('textbox', { name: 'E-mail address' }) as HTMLInputElement;
    expect(email.value).toBe('ana@example.com');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Password')));
    expect((screen.getByDisplayValue('Ana Renamed') as HTMLInputElement).value).toBe('Ana Renamed');
    expect(useAppStore.getState().user?.id).toBe('user-1');
  });

  it('asks for the address first when it does not know it', async () => {
    renderWithProviders(<SessionExpiredModal />, { signedInAs: aUser({ email: '' }) });
    act(() => useAppStore.getState().expireSession());
    await screen.findByRole('alertdialog', { name: TITLE });
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'E-mail address' })),
    );
  });

  it('folds into the "Signed out" bar on Escape, and opens again from it', async () => {
    const { user } = await expire();
    await user.keyboard('{Escape}');
    const bar = await screen.findByRole('region', { name: 'Signed out' });
    expect(bar.textContent).toContain('You are signed out.');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Sign in again' }));
    await screen.findByRole('alertdialog', { name: TITLE });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Password')));
  });

  it('folds with "Not now" too', async () => {
    const { user } = await expire();
    await user.click(screen.getByRole('button', { name: 'Not now' }));
    expect(screen.getByRole('region', { name: 'Signed out' })).toBeTruthy();
  });

  it('closes once the same user has signed in again, the page as it was', async () => {
    const { user } = await expire();
    const login = answer('POST /login', 200, aSignIn(aUser(), '/dashboard'), { held: true });
    answer('GET /user/current', 200, aUser());
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
    await user.type(screen.getByLabelText('Password'), 'secret-42');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() =>
      expectBusy(screen.getByRole('button', { name: 'Signing in…' }), 'Signing in…'),
    );
    login.release();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(login.requests[0]?.body).toEqual({ email: 'ana@example.com', password: 'secret-42' });
    expect(useAppStore.getState().sessionExpired).toBe(false);
    expect(assign).not.toHaveBeenCalled();
    expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe(
      'Ana Renamed',
    );
  });

  it('starts afresh on the dashboard when another account signs in', async () => {
    const { user } = await expire();
    const other = aUser({ id: 'user-2', email: 'bo@example.com', name: 'Bo Other' });
    answer('POST /login', 200, aSignIn(other));
    answer('GET /user/current', 200, other);
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
    const email = screen.getByRole('textbox', { name: 'E-mail address' });
    await user.clear(email);
    await user.type(email, 'bo@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-42');
    // The modal's button sits in its footer (`form={id}`); user-event's Enter does not find a
    // submit button outside the form, where a browser does: the test clicks it.
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/dashboard'));
  });

  it('shows a refusal on the form inside the modal', async () => {
    const { user } = await expire();
    answer('POST /login', 422, invalid({ email: ['These credentials do not match our records.'] }));
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Please check the form');
    expectFieldError(
      screen.getByRole('textbox', { name: 'E-mail address' }),
      'These credentials do not match our records.',
    );
    expect(screen.getByRole('alertdialog', { name: TITLE })).toBeTruthy();
  });
});
