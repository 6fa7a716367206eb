/**
 * The kiosk's users: search, profile, impersonation and discounts (spec 001 §6, §7 "Kiosk").
 */
import type { RouteDefinition } from '#lib/http.ts';

/** These routes, by route key. */
export const USER_ROUTES: Record<string, RouteDefinition> = {};
