/**
 * The kiosk's announcements (spec 001 §3 "Announcement", §7 "Kiosk").
 */
import type { RouteDefinition } from '#lib/http.ts';

/** These routes, by route key. */
export const ANNOUNCEMENT_ROUTES: Record<string, RouteDefinition> = {};
