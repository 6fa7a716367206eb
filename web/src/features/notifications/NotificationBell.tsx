import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { recentQuery } from './api.ts';
import './notifications.css';

/**
 * The panel and its Markdown renderer load when the bell is first pressed: every page shows the
 * bell, few visits open it, and the renderer is most of the panel's weight.
 */
const NotificationsPanel = lazy(() =>
  import('./NotificationsPanel.tsx').then((m) => ({ default: m.NotificationsPanel })),
);

/**
 * The bell in the header (docs/notifications.md "The bell and the panel": "Notification bell, with
 * or without a pending marker"): the marker shows
 * while a notification or an announcement is unread (the recent read is polled and read again on
 * window focus). Pressing it opens the panel; Escape or Close shut it and focus returns to the
 * bell.
 */
export function NotificationBell() {
  const [open, setOpen] = useState(false);
  const recent = useQuery(recentQuery());
  const pending =
    recent.data !== undefined &&
    (recent.data.unread_notifications || recent.data.unread_announcements);
  return (
    <>
      <button
        type="button"
        className="bell"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
      >
        <BellIcon />
        <span className="visually-hidden">Notifications{pending ? ' (new)' : ''}</span>
        {pending && <span className="bell__marker" aria-hidden="true" data-testid="bell-marker" />}
      </button>
      {open && (
        <Suspense fallback={null}>
          <NotificationsPanel onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

function BellIcon() {
  return (
    <svg
      className="bell__icon"
      viewBox="0 0 24 24"
      width="22"
      height="22"
      aria-hidden="true"
      focusable="false"
    >
      <path
        d="M12 3a6 6 0 0 0-6 6v3.6L4.3 15.3A1 1 0 0 0 5.1 17h13.8a1 1 0 0 0 .8-1.7L18 12.6V9a6 6 0 0 0-6-6Zm-2.6 15.5a2.7 2.7 0 0 0 5.2 0Z"
        fill="currentColor"
      />
    </svg>
  );
}
