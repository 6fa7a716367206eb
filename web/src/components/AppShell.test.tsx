/**
 * The header of every page (./AppShell.tsx; web/src/styles.css "site-menu"): the main navigation
 * for who is signed in (Kiosk for a platform admin only), and the "Menu" button that folds the
 * navigation, bell and account corner on a narrow screen: it says whether the menu is open,
 * Esc closes the menu and gives focus back to it, and following a link closes it. How the menu
 * lies on a 375 px screen is for the browser (test/e2e/header-menu.test.ts).
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '#shared/contract/auth.ts';
import { answer } from '../test/api.ts';
import { aUser } from '../test/fixtures.ts';
import { renderWithProviders } from '../test/TestProviders.tsx';
import { AppShell } from './AppShell.tsx';

/** Renders the shell at `/` for `user`, the bell's read answered with nothing new. */
function renderShell(user: CurrentUser | null) {
  if (user) {
    answer('GET /notifications/recent', 200, {
      notifications: [],
      next: null,
      unread_notifications: false,
      announcements: [],
      last_read_announcements_at: null,
      unread_announcements: false,
    });
  }
  const view = renderWithProviders(<AppShell />, { route: '/', signedInAs: user });
  const menu = screen.getByRole('button', { name: 'Menu' });
  return { ...view, menu };
}

const ADMIN = aUser({ isAdmin: true, name: 'Ada Admin' });

/** The names of the main navigation's links. */
const navLinks = () =>
  within(screen.getByRole('navigation', { name: 'Main' }))
    .getAllByRole('link')
    .map((link) => link.textContent);

describe('the skip link', () => {
  it('moves focus to the page content without putting #main in the address', async () => {
    const { user, router } = renderShell(null);
    const before = window.location.hash;
    await user.click(screen.getByRole('link', { name: 'Skip to content' }));
    expect(document.activeElement).toBe(screen.getByRole('main'));
    expect([window.location.hash, router.state.location.hash]).toEqual([before, '']);
  });
});

describe('the header', () => {
  it('shows Kiosk to a platform admin only, Dashboard and Campaigns to whoever is signed in', () => {
    const { unmount } = renderShell(null);
    expect(navLinks()).toEqual(['Home']);
    // The service's status is in the footer, for whoever looks for it.
    expect(
      within(screen.getByRole('contentinfo'))
        .getByRole('link', { name: 'System status' })
        .getAttribute('href'),
    ).toBe('/status');
    unmount();
    renderShell(aUser());
    expect(navLinks()).toEqual(['Home', 'Dashboard', 'Campaigns']);
  });

  it('has a Menu button, closed at first, that controls the menu with the navigation and the account corner', async () => {
    const { menu } = renderShell(ADMIN);
    expect(navLinks()).toEqual(['Home', 'Dashboard', 'Campaigns', 'Kiosk']);
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    const controlled = document.getElementById(menu.getAttribute('aria-controls') ?? '');
    expect(controlled).not.toBeNull();
    const inMenu = within(controlled!);
    expect(inMenu.getByRole('navigation', { name: 'Main' })).toBeTruthy();
    expect(inMenu.getByRole('button', { name: 'Sign out' })).toBeTruthy();
    expect(inMenu.getByRole('button', { name: /^Notifications/ })).toBeTruthy();
  });

  it('says the menu is open once Menu is pressed, and closed when pressed again', async () => {
    const { user, menu } = renderShell(ADMIN);
    await user.click(menu);
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    await user.click(menu);
    expect(menu.getAttribute('aria-expanded')).toBe('false');
  });

  it('closes the open menu with Esc and gives focus back to Menu', async () => {
    const { user, menu } = renderShell(ADMIN);
    await user.click(menu);
    // The user has moved on into the menu.
    act(() => screen.getByRole('link', { name: 'Kiosk' }).focus());
    await user.keyboard('{Escape}');
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(menu);
  });

  it('closes the menu when one of its links is followed', async () => {
    const { user, menu, router } = renderShell(ADMIN);
    await user.click(menu);
    await user.click(screen.getByRole('link', { name: 'Dashboard' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(menu.getAttribute('aria-expanded')).toBe('false');
  });
});
