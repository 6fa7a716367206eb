/**
 * The `notifications` feature (docs/notifications.md "What notifies": "Announcement",
 * "Notification"; docs/billing.md "Flows": "Notification panel"; docs/notifications.md "The
 * routes": "Notifications and support"; docs/notifications.md): the caller's notifications page by
 * page with the newest announcements, marking notifications read, and marking the announcements
 * read. Notifications are written by the code paths that cause them (functions/domain/notify.ts);
 * announcements by the kiosk.
 */
import type { EntityItem } from 'electrodb';
import {
  ANNOUNCEMENTS_SHOWN,
  MarkReadBody,
  NOTIFICATIONS_PAGE_SIZE,
  RecentQuery,
  type Announcement,
  type RecentNotifications,
  type UserNotification,
} from '#shared/contract/notifications.ts';
import type { AuthUser } from '#lib/auth.ts';
import { db, isConditionFailure } from '#lib/db/index.ts';
import type { Entities } from '#lib/db/entities.ts';
import { unauthenticated } from '#lib/errors.ts';
import { featureHandler, json, route } from '#lib/http.ts';

type NotificationRecord = EntityItem<Entities['Notification']>;
type AnnouncementRecord = EntityItem<Entities['Announcement']>;

/** DynamoDB pages read at most when looking for an unread notification (1 MB each). */
const UNREAD_SCAN_PAGES = 4;
/** Ids marked read at once (DynamoDB calls in flight per request). */
const MARK_CONCURRENCY = 10;

const need = (user: AuthUser | undefined): AuthUser => {
  if (!user) throw unauthenticated();
  return user;
};

/** A stored notification as the contract's `NotificationSchema`. */
function notificationView(n: NotificationRecord): UserNotification {
  return {
    id: n.notificationId,
    kind: n.kind,
    body: n.body,
    action_text: n.actionText ?? null,
    action_url: n.actionUrl ?? null,
    icon: n.icon ?? null,
    created_at: n.createdAt ?? '',
    read: n.readAt !== undefined,
  };
}

/** A stored announcement as the contract's `AnnouncementSchema`. */
function announcementView(a: AnnouncementRecord): Announcement {
  return {
    id: a.announcementId,
    body: a.body,
    action_text: a.actionText ?? null,
    action_url: a.actionUrl ?? null,
    icon: a.icon ?? null,
    created_at: a.createdAt ?? '',
  };
}

/**
 * One page of the user's notifications, newest first: `NOTIFICATIONS_PAGE_SIZE` of them before
 * `cursor` (a notification id: ids sort by creation time), and the cursor of the next page.
 * A cursor only moves within the caller's own partition.
 */
async function notificationPage(userId: string, cursor: string | undefined) {
  const query = db().Notification.query.byUser({ userId });
  const { data } = await (cursor ? query.lt({ notificationId: cursor }) : query).go({
    order: 'desc',
    limit: NOTIFICATIONS_PAGE_SIZE + 1,
  });
  const page = data.slice(0, NOTIFICATIONS_PAGE_SIZE);
  const next = data.length > NOTIFICATIONS_PAGE_SIZE ? page[page.length - 1]!.notificationId : null;
  return { page, next };
}

/**
 * Whether any of the user's notifications is unread, on any page: one query of the user's
 * partition filtered on a missing `readAt`, stopping at the first hit and after
 * `UNREAD_SCAN_PAGES` pages (a user's partition holds at most `NOTIFICATION_TTL_DAYS` of
 * notifications, far less than one page in practice).
 */
async function hasUnread(userId: string, page: NotificationRecord[]): Promise<boolean> {
  if (page.some((n) => n.readAt === undefined)) return true;
  const { data } = await db()
    .Notification.query.byUser({ userId })
    .where((a, op) => op.notExists(a.readAt))
    .go({ limit: 1, pages: UNREAD_SCAN_PAGES });
  return data.length > 0;
}

/**
 * Marks the user's notifications `ids` read (keeping the first `readAt`). An id that is not
 * one of the user's unread notifications (another user's, an unknown one, one already read)
 * fails the update's condition and is skipped.
 * @returns how many were marked.
 */
async function markRead(userId: string, ids: readonly string[]): Promise<number> {
  const unique = [...new Set(ids)];
  const readAt = new Date().toISOString();
  let marked = 0;
  for (let at = 0; at < unique.length; at += MARK_CONCURRENCY) {
    const batch = unique.slice(at, at + MARK_CONCURRENCY);
    const results = await Promise.all(
      batch.map(async (notificationId): Promise<number> => {
        try {
          await db()
            .Notification.patch({ userId, notificationId })
            .set({ readAt })
            .where((a, op) => op.notExists(a.readAt))
            .go({ response: 'none' });
          return 1;
        } catch (error) {
          if (isConditionFailure(error)) return 0;
          throw error;
        }
      }),
    );
    marked += results.reduce((sum, n) => sum + n, 0);
  }
  return marked;
}

export const handler = featureHandler('notifications', {
  /**
   * docs/notifications.md "The routes": the caller's notifications (a page, newest first) and the
   * newest announcements, with whether any of either is unread (the bell's pending marker).
   */
  'GET /notifications/recent': route({
    query: RecentQuery,
    handle: async ({ auth, query }) => {
      const user = need(auth.user);
      const [{ page, next }, announcements, record] = await Promise.all([
        notificationPage(user.userId, query.cursor),
        db()
          .Announcement.query.byScope({ scope: 'all' })
          .go({ order: 'desc', limit: ANNOUNCEMENTS_SHOWN }),
        db().User.get({ userId: user.userId }).go(),
      ]);
      const lastRead = record.data?.lastReadAnnouncementsAt ?? null;
      const shown = announcements.data.map(announcementView);
      const answer: RecentNotifications = {
        notifications: page.map(notificationView),
        next,
        unread_notifications: await hasUnread(user.userId, page),
        announcements: shown,
        last_read_announcements_at: lastRead,
        unread_announcements: shown.some((a) => lastRead === null || a.created_at > lastRead),
      };
      return json(200, answer);
    },
  }),

  /** docs/notifications.md "The routes": "notifications: list of ids": marks the caller's own ones read. */
  'PUT /notifications/read': route({
    body: MarkReadBody,
    handle: async ({ auth, body }) => {
      const user = need(auth.user);
      return json(200, { success: true, read: await markRead(user.userId, body.notifications) });
    },
  }),

  /** docs/billing.md "Flows": opening the announcements marks them read (now). */
  'PUT /user/last-read-announcements-at': route({
    handle: async ({ auth }) => {
      const user = need(auth.user);
      const now = new Date().toISOString();
      await db().User.patch({ userId: user.userId }).set({ lastReadAnnouncementsAt: now }).go();
      return json(200, { success: true, last_read_announcements_at: now });
    },
  }),
});
