/**
 * The kiosk's performance indicators (spec 001 §3 kiosk indicators, §9 charts).
 */
import type { RouteDefinition } from '#lib/http.ts';

/** These routes, by route key. */
export const METRICS_ROUTES: Record<string, RouteDefinition> = {};
