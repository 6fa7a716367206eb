/**
 * The profile tab's forms and the question before leaving them (./ProfileTab.tsx with
 * web/src/components/UnsavedChangesPrompt.tsx;
 * docs/adr/0043-leaving-with-unsaved-changes-asks-first.md "Leaving with unsaved changes asks
 * first"): typed contact details make a link ask "Leave this page?" until they are saved, and a
 * password form holding something has the browser ask on reload until it is sent.
 */
import { screen, waitFor } from '@testing-library/react';
import { Link } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { UnsavedChangesPrompt } from '../../components/UnsavedChangesPrompt.tsx';
import { answer } from '../../test/api.ts';
import { aUser } from '../../test/fixtures.ts';
import { renderWithProviders } from '../../test/TestProviders.tsx';
import { ProfileTab } from './ProfileTab.tsx';

const QUESTION = 'Leave this page?';

/** The tab as the settings page shows it, with a header link out and the shell's prompt. */
function renderProfile() {
  const view = renderWithProviders(
    <>
      <Link to="/dashboard">Dashboard</Link>
      <ProfileTab />
      <UnsavedChangesPrompt />
    </>,
    { route: '/settings#/profile', path: '/settings', signedInAs: aUser() },
  );
  const name = screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement;
  return { ...view, name };
}

/** Fires the browser's `beforeunload` (a reload or closing the tab): true when it asks. */
function unloadAsks(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

describe('the profile tab’s unsaved changes', () => {
  it('asks before a link leaves typed contact details, keeping them with Stay', async () => {
    const { user, name, router } = renderProfile();
    await user.clear(name);
    await user.type(name, 'Desi Gner Typed');
    await user.click(screen.getByRole('link', { name: 'Dashboard' }));
    await screen.findByRole('alertdialog', { name: QUESTION });
    await user.click(screen.getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/settings');
    expect(name.value).toBe('Desi Gner Typed');
  });

  it('leaves without asking once the contact details are saved', async () => {
    const contact = answer('PUT /settings/contact', 200, { success: true });
    answer('GET /user/current', 200, aUser({ name: 'Desi Gner Saved' }));
    const { user, name, router } = renderProfile();
    await user.clear(name);
    await user.type(name, 'Desi Gner Saved');
    expect(unloadAsks()).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Save contact details' }));
    await screen.findByText('Your contact details were saved.');
    expect(contact.requests[0]?.body).toEqual({
      name: 'Desi Gner Saved',
      email: 'ana@example.com',
    });
    expect(unloadAsks()).toBe(false);
    await user.click(screen.getByRole('link', { name: 'Dashboard' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('has the browser ask on reload while the password form holds something, not before', async () => {
    const { user } = renderProfile();
    expect(unloadAsks()).toBe(false);
    await user.type(screen.getByLabelText('Current password'), 'something');
    expect(unloadAsks()).toBe(true);
  });

  it('stops asking once the password is changed', async () => {
    const changed = answer('PUT /settings/password', 200, { success: true, tokens_revoked: false });
    const { user } = renderProfile();
    await user.type(screen.getByLabelText('Current password'), 'copper-meadow-58');
    await user.type(screen.getByLabelText('New password'), 'fresh-juniper-42');
    await user.type(screen.getByLabelText('Confirm new password'), 'fresh-juniper-42');
    expect(unloadAsks()).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await screen.findByText('Your password was changed. Your other sessions were signed out.');
    expect(changed.requests).toHaveLength(1);
    expect(unloadAsks()).toBe(false);
  });
});
