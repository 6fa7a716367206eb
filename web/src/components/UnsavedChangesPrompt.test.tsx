/**
 * The question before leaving a page with unsaved changes (./UnsavedChangesPrompt.tsx;
 * docs/adr/0043-leaving-with-unsaved-changes-asks-first.md "Leaving with unsaved changes asks
 * first"): an in-app navigation waits behind "Leave this page?" (focus on Stay; Esc stays; Leave
 * goes), closing or reloading gets the browser's prompt, and a page without changes is left without
 * a question.
 */
import { screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { useUnsavedChangesGuard } from '../hooks/useUnsavedChangesGuard.ts';
import { renderWithProviders } from '../test/TestProviders.tsx';
import { UnsavedChangesPrompt } from './UnsavedChangesPrompt.tsx';

const QUESTION = 'Leave this page?';

/** A settings page: a name field marked unsaved while it differs from the saved name. */
function SettingsPage() {
  const [saved, setSaved] = useState('Ana');
  const [name, setName] = useState('Ana');
  useUnsavedChangesGuard(name !== saved);
  return (
    <>
      <label>
        Name <input value={name} onChange={(event) => setName(event.target.value)} />
      </label>
      <button type="button" onClick={() => setSaved(name)}>
        Save
      </button>
      <Link to="/dashboard">Dashboard</Link>
      <Link to="/settings#/security">Security</Link>
      <UnsavedChangesPrompt />
    </>
  );
}

function renderSettings() {
  const view = renderWithProviders(<SettingsPage />, { route: '/settings', path: '/settings' });
  const name = screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement;
  return { ...view, name };
}

/** Fires the browser's `beforeunload` (a reload or closing the tab): true when it asks. */
function unloadAsks(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

describe('UnsavedChangesPrompt', () => {
  it('lets a page without changes go without asking', async () => {
    const { user, router } = renderSettings();
    await user.click(screen.getByRole('link', { name: 'Dashboard' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(unloadAsks()).toBe(false);
  });

  it('asks before a link leaves typed changes, focus on the safe choice', async () => {
    const { user, name, router } = renderSettings();
    await user.type(name, ' Example');
    await user.click(screen.getByRole('link', { name: 'Dashboard' }));
    const dialog = await screen.findByRole('alertdialog', { name: QUESTION });
    expect(dialog.textContent).toContain('Your changes on this page are not saved yet.');
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Stay' })),
    );
    expect(router.state.location.pathname).toBe('/settings');
  });

  it('stays with Stay or Escape, what was typed kept', async () => {
    const { user, name, router } = renderSettings();
    await user.type(name, ' Example');
    await user.click(screen.getByRole('link', { name: 'Dashboard' }));
    await user.click(await screen.findByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await user.click(screen.getByRole('link', { name: 'Dashboard' }));
    await screen.findByRole('alertdialog', { name: QUESTION });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/settings');
    expect(name.value).toBe('Ana Example');
  });

  it('goes on with Leave', async () => {
    const { user, name, router } = renderSettings();
    await user.type(name, ' Example');
    await user.click(screen.getByRole('link', { name: 'Dashboard' }));
    await user.click(await screen.findByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('asks before another tab of the page (a hash) replaces the form', async () => {
    const { user, name, router } = renderSettings();
    await user.type(name, ' Example');
    await user.click(screen.getByRole('link', { name: 'Security' }));
    await screen.findByRole('alertdialog', { name: QUESTION });
    expect(router.state.location.hash).toBe('');
  });

  it('has the browser ask on reload while changes are unsaved, and not once they are saved', async () => {
    const { user, name, router } = renderSettings();
    await user.type(name, ' Example');
    expect(unloadAsks()).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(unloadAsks()).toBe(false);
    await user.click(screen.getByRole('link', { name: 'Dashboard' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
