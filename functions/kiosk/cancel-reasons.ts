/**
 * The kiosk's cancel reasons (spec 001 §7 "Kiosk").
 */
import type { RouteDefinition } from '#lib/http.ts';

/** These routes, by route key. */
export const CANCEL_REASON_ROUTES: Record<string, RouteDefinition> = {};
