/**
 * The bell in the header (spec 001 §4 "notification panel"; docs/notifications.md): its
 * pending marker and the panel of notifications and announcements.
 */
export function NotificationBell() {
  return null;
}
