import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { Announcement, UserNotification } from '#shared/contract/notifications.ts';
import { isHttpUrl } from '#shared/contract/kiosk.ts';
import { Markdown } from '../../components/Markdown.tsx';
import { Modal } from '../../components/Modal.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { usePagedQuery } from '../../hooks/usePagedQuery.ts';
import { queryKeys } from '../../state/queryKeys.ts';
import {
  fetchNotificationPage,
  markAnnouncementsRead,
  markNotificationsRead,
  recentQuery,
} from './api.ts';
import { APP_LOCALE } from '../../lib/format.ts';

type View = 'notifications' | 'announcements';

/**
 * A glyph per icon name (functions/domain/notify.ts `NOTICES`); decorative, hidden from readers.
 * Text symbols of the common sans fonts, not emoji: a machine without an emoji font (headless
 * Chromium, many Linux desktops) would draw emoji as empty boxes.
 */
const ICONS: Record<string, string> = {
  invitation: '✉',
  team: '⚑',
  role: '★',
  payment: '$',
  subscription: '↻',
  bundle: '✦',
};
/** The announcements' glyph. */
const ANNOUNCEMENT_ICON = '!';

const idOf = (n: UserNotification) => n.id;

/** `2026-11-24T12:09:03Z` → "Nov 24, 12:09" in the user's locale and time zone. */
const when = (iso: string) =>
  new Date(iso).toLocaleString(APP_LOCALE, {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });

/**
 * The notifications panel (docs/notifications.md "The bell and the panel": "notifications modal
 * toggling between notifications and announcements", docs/billing.md "Flows": "opening
 * announcements marks them read"; docs/notifications.md): a modal dialog, so focus stays in it,
 * Escape closes it and focus returns to the bell. The notifications shown are marked read as they
 * arrive; what was unread when shown keeps its "New" label while the panel is open. It opens on
 * what the bell's marker is for: the announcements when only they are unread, else the
 * notifications (web/src/features/notifications/NotificationsPanel.test.tsx).
 */
export function NotificationsPanel({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  const recent = useQuery(recentQuery());
  const [view, setView] = useState<View>(() =>
    recent.data?.unread_announcements && !recent.data.unread_notifications
      ? 'announcements'
      : 'notifications',
  );
  // What was read before this opening: announcements after it are "New" while open.
  const [lastRead] = useState(() => recent.data?.last_read_announcements_at ?? null);
  const refreshBell = () =>
    queryClient.invalidateQueries({ queryKey: queryKeys.notifications.recent });

  const list = usePagedQuery({
    queryKey: queryKeys.notifications.pages,
    fetchPage: fetchNotificationPage,
    idOf,
  });
  const markRead = useMutation({ mutationFn: markNotificationsRead, onSuccess: refreshBell });
  const markAnnouncements = useMutation({
    mutationFn: markAnnouncementsRead,
    onSuccess: refreshBell,
  });

  // Each unread notification on screen is marked read once (per opening).
  const marked = useRef(new Set<string>());
  const { mutate: mark } = markRead;
  useEffect(() => {
    const ids = list.items.filter((n) => !n.read && !marked.current.has(n.id)).map(idOf);
    if (ids.length === 0) return;
    for (const id of ids) marked.current.add(id);
    mark(ids);
  }, [list.items, mark]);

  const announcementsSeen = useRef(false);
  const { mutate: markSeen } = markAnnouncements;
  useEffect(() => {
    if (view !== 'announcements' || announcementsSeen.current) return;
    announcementsSeen.current = true;
    markSeen();
  }, [view, markSeen]);

  const unreadAnnouncements = recent.data?.unread_announcements === true;
  return (
    <Modal
      open
      title="Notifications"
      onCancel={onClose}
      wide={false}
      actions={
        <button type="button" className="button button--secondary" onClick={onClose}>
          Close
        </button>
      }
    >
      <div className="notification-toggle" role="group" aria-label="Show">
        <button
          type="button"
          className="notification-toggle__option"
          aria-pressed={view === 'notifications'}
          data-autofocus
          onClick={() => setView('notifications')}
        >
          Notifications
        </button>
        <button
          type="button"
          className="notification-toggle__option"
          aria-pressed={view === 'announcements'}
          onClick={() => setView('announcements')}
        >
          Announcements
          {unreadAnnouncements && view !== 'announcements' && (
            <span className="notification-toggle__new"> (new)</span>
          )}
        </button>
      </div>
      {view === 'notifications' ? (
        <NotificationList
          items={list.items}
          phase={list.phase}
          error={list.error}
          hasMore={list.hasMore}
          loadMore={list.loadMore}
          retry={list.retry}
          unread={(n) => !n.read}
          onAction={onClose}
        />
      ) : (
        <AnnouncementList
          items={recent.data?.announcements}
          failed={recent.isError}
          isNew={(a) => lastRead === null || a.created_at > lastRead}
        />
      )}
    </Modal>
  );
}

function NotificationList({
  items,
  phase,
  error,
  hasMore,
  loadMore,
  retry,
  unread,
  onAction,
}: {
  items: UserNotification[];
  phase: string;
  error: string | null;
  hasMore: boolean;
  loadMore: () => void;
  retry: () => void;
  unread: (n: UserNotification) => boolean;
  onAction: () => void;
}) {
  if (phase === 'loading')
    return (
      <p className="notification-empty">
        <Spinner /> Loading your notifications…
      </p>
    );
  if (phase === 'error')
    return (
      <p className="notification-empty" role="alert">
        {error}{' '}
        <button type="button" className="button button--small button--secondary" onClick={retry}>
          Try again
        </button>
      </p>
    );
  if (items.length === 0) return <p className="notification-empty">You have no notifications.</p>;
  return (
    <>
      <ul className="notification-list" aria-label="Notifications">
        {items.map((n) => (
          <li key={n.id} className="notification">
            <span className="notification__icon" aria-hidden="true">
              {ICONS[n.icon ?? ''] ?? '•'}
            </span>
            <div className="notification__main">
              <p className="notification__body">
                {unread(n) && <span className="notification__new">New</span>} {n.body}
              </p>
              <p className="notification__meta">
                <time dateTime={n.created_at}>{when(n.created_at)}</time>
                {n.action_text &&
                  n.action_url?.startsWith('/') &&
                  !n.action_url.startsWith('//') && (
                    <Link to={n.action_url} className="notification__action" onClick={onAction}>
                      {n.action_text}
                    </Link>
                  )}
              </p>
            </div>
          </li>
        ))}
      </ul>
      {phase === 'error-more' && (
        <p role="alert">
          {error}{' '}
          <button type="button" className="button button--small button--secondary" onClick={retry}>
            Try again
          </button>
        </p>
      )}
      {hasMore && phase !== 'error-more' && (
        <button
          type="button"
          className="button button--small button--secondary"
          aria-disabled={phase === 'loading-more'}
          onClick={loadMore}
        >
          {phase === 'loading-more' ? 'Loading…' : 'Show older notifications'}
        </button>
      )}
    </>
  );
}

function AnnouncementList({
  items,
  failed,
  isNew,
}: {
  items: Announcement[] | undefined;
  failed: boolean;
  isNew: (a: Announcement) => boolean;
}) {
  if (items === undefined)
    return failed ? (
      <p className="notification-empty" role="alert">
        The announcements could not be loaded. Please try again later.
      </p>
    ) : (
      <p className="notification-empty">
        <Spinner /> Loading the announcements…
      </p>
    );
  if (items.length === 0) return <p className="notification-empty">There are no announcements.</p>;
  return (
    <ul className="notification-list" aria-label="Announcements">
      {items.map((a) => (
        <li key={a.id} className="notification">
          <span className="notification__icon" aria-hidden="true">
            {ANNOUNCEMENT_ICON}
          </span>
          <div className="notification__main">
            {isNew(a) && <span className="notification__new">New</span>}
            <Markdown className="notification__body">{a.body}</Markdown>
            <p className="notification__meta">
              <time dateTime={a.created_at}>{when(a.created_at)}</time>
              {a.action_text && a.action_url && isHttpUrl(a.action_url) && (
                <a
                  href={a.action_url}
                  className="notification__action"
                  target="_blank"
                  rel="noopener noreferrer"
                >
                  {a.action_text}
                </a>
              )}
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}
