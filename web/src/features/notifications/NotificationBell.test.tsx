/**
 * The bell and its panel (./NotificationBell.tsx, ./NotificationsPanel.tsx; docs/notifications.md
 * "The bell and the panel"): the marker says what is unread, and pressing the bell opens the
 * panel on it: the announcements when only an announcement is new (marking them read), else the
 * notifications.
 */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RecentNotifications } from '#shared/contract/notifications.ts';
import { answer } from '../../test/api.ts';
import { aUser } from '../../test/fixtures.ts';
import { renderWithProviders } from '../../test/TestProviders.tsx';
import { NotificationBell } from './NotificationBell.tsx';

const WELCOME = {
  id: 'announcement-welcome',
  body: 'Welcome to **PicSnippets**!',
  action_text: 'Create a design',
  action_url: 'http://localhost:3000/pic-snippet/create',
  icon: 'megaphone',
  created_at: '2026-11-28T10:00:00.000Z',
};

const NOTICE = {
  id: 'n1',
  kind: 'render_quota',
  body: 'Your team used 80 % of its renders.',
  action_text: null,
  action_url: null,
  icon: null,
  created_at: '2026-11-28T11:00:00.000Z',
  read: false,
};

function recent(fields: Partial<RecentNotifications>): RecentNotifications {
  return {
    notifications: [],
    next: null,
    unread_notifications: false,
    announcements: [WELCOME],
    last_read_announcements_at: null,
    unread_announcements: false,
    ...fields,
  };
}

const pressed = (name: string) => screen.getByRole('button', { name }).getAttribute('aria-pressed');

describe('the bell', () => {
  it('opens on the announcements when only an announcement is new, and marks them read', async () => {
    answer('GET /notifications/recent', 200, recent({ unread_announcements: true }));
    const seen = answer('PUT /user/last-read-announcements-at', 200, {
      success: true,
      last_read_announcements_at: '2026-11-28T12:00:00.000Z',
    });
    const { user } = renderWithProviders(<NotificationBell />, { signedInAs: aUser() });
    await user.click(await screen.findByRole('button', { name: 'Notifications (new)' }));
    await screen.findByRole('dialog', { name: 'Notifications' });
    expect(pressed('Announcements')).toBe('true');
    expect(await screen.findByText('Create a design')).toBeTruthy();
    await waitFor(() => expect(seen.requests).toHaveLength(1));
  });

  it('opens on the notifications when a notification is new', async () => {
    answer(
      'GET /notifications/recent',
      200,
      recent({ notifications: [NOTICE], unread_notifications: true, unread_announcements: true }),
    );
    answer('PUT /notifications/read', 200, { success: true, read: 1 });
    const { user } = renderWithProviders(<NotificationBell />, { signedInAs: aUser() });
    await user.click(await screen.findByRole('button', { name: 'Notifications (new)' }));
    await screen.findByRole('dialog', { name: 'Notifications' });
    expect(pressed('Notifications')).toBe('true');
    expect(await screen.findByText('Your team used 80 % of its renders.')).toBeTruthy();
  });
});
