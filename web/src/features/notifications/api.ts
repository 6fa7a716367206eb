/**
 * The notifications feature's server state (docs/notifications.md "The bell and the panel";
 * docs/adr/0045-server-state.md "Server state"): the bell's read of `GET /notifications/recent`,
 * polled and read again when the window regains focus, the panel's pages, and the two "mark read"
 * calls.
 */
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import type { RecentNotifications, UserNotification } from '#shared/contract/notifications.ts';
import { queryKeys } from '../../state/queryKeys.ts';
import type { Page } from '../../hooks/usePagedQuery.ts';

/** How often the bell asks whether something new arrived, ms (and on window focus). */
export const POLL_MS = 60_000;

/**
 * The first page with the announcements and the unread flags: the bell's pending marker.
 * Polled every {@link POLL_MS} and read again when the window regains focus (the app's default
 * is no refetch on focus; this read fills no form).
 */
export const recentQuery = () =>
  queryOptions({
    queryKey: queryKeys.notifications.recent,
    queryFn: ({ signal }) => call('GET /notifications/recent', { query: {}, signal }),
    refetchInterval: POLL_MS,
    refetchOnWindowFocus: true,
  });

/** One page of the panel's notifications: `cursor` is the previous page's `next`. */
export async function fetchNotificationPage(
  cursor: string | null,
  signal: AbortSignal,
): Promise<Page<UserNotification, string> & { answer: RecentNotifications }> {
  const answer = await call('GET /notifications/recent', {
    query: cursor ? { cursor } : {},
    signal,
  });
  return { items: answer.notifications, next: answer.next, answer };
}

/** Marks the caller's notifications `ids` read; answers how many were. */
export const markNotificationsRead = (ids: string[]) =>
  call('PUT /notifications/read', { body: { notifications: ids } });

/** Marks the announcements read (now): the user opened them. */
export const markAnnouncementsRead = () => call('PUT /user/last-read-announcements-at', {});
