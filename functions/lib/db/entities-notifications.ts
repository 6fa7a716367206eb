/**
 * The entities of notifications and announcements (docs/billing.md "Model": "Announcement",
 * "Notification"; docs/notifications.md).
 */
import { Entity } from 'electrodb';
import { gsi, now, SERVICE, type EntityKit } from './entity-kit.ts';

/** Builds the notification and announcement entities against one table. */
export function notificationEntities({ opts, primary }: EntityKit) {
  /**
   * A platform announcement, written in the kiosk and shown to every user in the notifications
   * panel. All announcements share one list partition on gsi1 (`scope` = `all`), newest first
   * by `createdAt`; there are few of them (an admin writes them by hand).
   */
  const Announcement = new Entity(
    {
      model: { entity: 'announcement', version: '1', service: SERVICE },
      attributes: {
        announcementId: { type: 'string', required: true },
        scope: { type: 'string', required: true, default: 'all', readOnly: true },
        /** Markdown, rendered safely by the SPA. */
        body: { type: 'string', required: true },
        actionText: { type: 'string' },
        /** http or https only. */
        actionUrl: { type: 'string' },
        icon: { type: 'string' },
        /** The admin who wrote it. */
        authorId: { type: 'string' },
        createdAt: { type: 'string', default: now, readOnly: true },
        /** The writer's instant when it gives one (a new announcement: the same as `createdAt`), else now. */
        updatedAt: {
          type: 'string',
          default: now,
          watch: '*',
          set: (value?: string) => value ?? now(),
        },
      },
      indexes: {
        byId: {
          pk: { ...primary.pk, composite: ['announcementId'] },
          sk: { ...primary.sk, composite: [] },
        },
        byScope: {
          index: gsi(1).indexName,
          pk: { field: gsi(1).partitionKey, composite: ['scope'] },
          sk: { field: gsi(1).sortKey, composite: ['createdAt', 'announcementId'] },
        },
      },
    },
    opts,
  );

  /**
   * One notification of one user (docs/billing.md "Model": "Notification"). The user's partition
   * holds them by `notificationId`, which starts with its creation time (functions/domain/notify.ts
   * `newNotificationId`), so the partition is in time order, a page of the newest is one query read
   * backwards, and a notification is found by the user and its id alone (marking read needs no
   * other key). `readAt` is set when the user marks it read; `ttl` removes it after
   * `NOTIFICATION_TTL_DAYS` (docs/notifications.md).
   */
  const Notification = new Entity(
    {
      model: { entity: 'notification', version: '1', service: SERVICE },
      attributes: {
        userId: { type: 'string', required: true },
        notificationId: { type: 'string', required: true },
        /** What caused it (docs/notifications.md lists the kinds). */
        kind: { type: 'string', required: true },
        body: { type: 'string', required: true },
        actionText: { type: 'string' },
        actionUrl: { type: 'string' },
        icon: { type: 'string' },
        createdAt: { type: 'string', default: now, readOnly: true },
        readAt: { type: 'string' },
        /** s since the epoch: DynamoDB's TTL removes old notifications. */
        ttl: { type: 'number' },
      },
      indexes: {
        byUser: {
          pk: { ...primary.pk, composite: ['userId'] },
          sk: { ...primary.sk, composite: ['notificationId'] },
        },
      },
    },
    opts,
  );

  return { Announcement, Notification };
}
