/**
 * The contract of notifications, announcements for users and support (spec 001 §3, §4, §7 "Notifications and support"; docs/notifications.md).
 */
import type { RouteContract } from './core.ts';

/** These routes' contracts, by route key. */
export const NOTIFICATIONS_CONTRACT = {} as const satisfies Record<string, RouteContract>;
