/**
 * The contract of notifications, announcements for users and support (docs/notifications.md "What
 * notifies" "Announcement", "Notification", "Support form"; docs/billing.md "Flows": "Notification
 * panel"; docs/notifications.md "The routes": "Notifications and support"; docs/notifications.md).
 * The spec names the calls and fields but not the answer shapes; they follow the spec's field names
 * (`action_text`, `action_url`, `created_at`, `last_read_announcements_at`) and
 * docs/notifications.md says why each field is there.
 */
import { z } from 'zod';
import { defineContract, SuccessSchema, type RouteContract } from './core.ts';

// ---------------------------------------------------------------------------------------------
// What notifies
// ---------------------------------------------------------------------------------------------

/**
 * Every kind of notification, one per cause (docs/notifications.md "What notifies"):
 * functions/domain/notify.ts `NOTICES` builds each one.
 */
export const NOTIFICATION_KINDS = [
  'invitation',
  'member-joined',
  'member-left',
  'member-removed',
  'role-changed',
  'payment-failed',
  'payment-action-required',
  'subscription-changed',
  'trial-ending',
  'bundle-assigned',
  'render-quota',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Notifications per page of `GET /notifications/recent`. */
export const NOTIFICATIONS_PAGE_SIZE = 20;
/** The newest announcements `GET /notifications/recent` gives (an admin writes them by hand). */
export const ANNOUNCEMENTS_SHOWN = 20;
/** Ids one `PUT /notifications/read` may mark (the panel marks one page at a time). */
export const MAX_READ_IDS = 100;

/**
 * A notification id (functions/domain/notify.ts `newNotificationId`): 9 base-36 digits of its
 * creation time in ms, then 12 hex digits. Linear, anchored pattern.
 */
export const NOTIFICATION_ID = /^[0-9a-z]{9}[0-9a-f]{12}$/;

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

/** `GET /notifications/recent?cursor=`: the `next` of the page before; none for the first. */
export const RecentQuery = z.object({
  cursor: z.string().regex(NOTIFICATION_ID, 'The cursor is invalid.').optional(),
});

/**
 * `PUT /notifications/read` (docs/notifications.md "The routes": "notifications: list of ids"): the
 * caller's notifications to mark read. Ids of other users' notifications, or of none, are ignored.
 */
export const MarkReadBody = z.object({
  notifications: z
    .array(z.string().max(64, 'A notification id is at most 64 characters.'), {
      error: 'The notifications must be a list of ids.',
    })
    .max(MAX_READ_IDS, `At most ${MAX_READ_IDS} notifications can be marked read at once.`),
});

/** docs/notifications.md "What notifies": "Support form": the messages of a refused field. */
export const SUPPORT_MESSAGES = {
  subjectRequired: 'Please enter a subject.',
  subjectTooLong: 'The subject may not be greater than 200 characters.',
  messageRequired: 'Please enter a message.',
  messageTooLong: 'The message may not be greater than 5000 characters.',
  /** The 429 past the hourly limit (docs/notifications.md "Support"). */
  tooMany: 'You have sent 5 support messages in the last hour. Please try again later.',
  /** docs/accounts.md "Error answers in the SPA": "Support success". */
  sentTitle: 'Got It!',
  sent: 'We have received your message and will respond soon!',
} as const;

/**
 * `POST /support/email` (docs/notifications.md "The routes": from, subject, message). The sender
 * (`from`) is always the signed-in user: a `from` in the body is dropped, never trusted.
 */
export const SupportBody = z.object({
  subject: z
    .string({ error: SUPPORT_MESSAGES.subjectRequired })
    .trim()
    .min(1, SUPPORT_MESSAGES.subjectRequired)
    .max(200, SUPPORT_MESSAGES.subjectTooLong),
  message: z
    .string({ error: SUPPORT_MESSAGES.messageRequired })
    .trim()
    .min(1, SUPPORT_MESSAGES.messageRequired)
    .max(5000, SUPPORT_MESSAGES.messageTooLong),
});

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

/**
 * One notification (docs/notifications.md "What notifies": "Notification: id, read flag", with the
 * body, action and icon every notification shows). `action_url` is a path of the SPA
 * (`/settings#/companies`).
 */
export const NotificationSchema = z.object({
  id: z.string(),
  kind: z.string(),
  body: z.string(),
  action_text: z.string().nullable(),
  action_url: z.string().nullable(),
  icon: z.string().nullable(),
  /** ISO 8601 */
  created_at: z.string(),
  read: z.boolean(),
});
export type UserNotification = z.infer<typeof NotificationSchema>;

/** One announcement (docs/notifications.md "What notifies": "Announcement: body, action_text, action_url, icon, created_at"). */
export const AnnouncementSchema = z.object({
  id: z.string(),
  /** Markdown, rendered safely by the SPA. */
  body: z.string(),
  action_text: z.string().nullable(),
  /** An http(s) address. */
  action_url: z.string().nullable(),
  icon: z.string().nullable(),
  /** ISO 8601 */
  created_at: z.string(),
});
export type Announcement = z.infer<typeof AnnouncementSchema>;

/**
 * `GET /notifications/recent` (docs/notifications.md "The routes": "notifications and
 * announcements"): one page of the caller's notifications, newest first, and the newest
 * announcements, with what the bell's pending marker needs (docs/notifications.md "The bell and the
 * panel": "with or without a pending marker").
 */
export const RecentSchema = z.object({
  notifications: z.array(NotificationSchema),
  /** Send as `cursor` for the next page; null on the last. */
  next: z.string().nullable(),
  /** Whether any of the caller's notifications, on this page or another, is unread. */
  unread_notifications: z.boolean(),
  announcements: z.array(AnnouncementSchema),
  /** ISO 8601, or null before the user first opened the announcements. */
  last_read_announcements_at: z.string().nullable(),
  /** Whether an announcement was created after `last_read_announcements_at`. */
  unread_announcements: z.boolean(),
});
export type RecentNotifications = z.infer<typeof RecentSchema>;

/** These routes' contracts, by route key. */
export const NOTIFICATIONS_CONTRACT = {
  'GET /notifications/recent': defineContract({ query: RecentQuery, answer: RecentSchema }),
  'PUT /notifications/read': defineContract({
    body: MarkReadBody,
    /** `read`: how many of the ids were the caller's unread notifications. */
    answer: SuccessSchema.extend({ read: z.number().int() }),
  }),
  'PUT /user/last-read-announcements-at': defineContract({
    answer: SuccessSchema.extend({ last_read_announcements_at: z.string() }),
  }),
  'POST /support/email': defineContract({ body: SupportBody, answer: SuccessSchema }),
} as const satisfies Record<string, RouteContract>;
