/**
 * The contract of the kiosk's announcements, performance indicators and cancel reasons (spec 001 §3, §7 "Kiosk", §9; docs/kiosk.md).
 */
import type { RouteContract } from './core.ts';

/** These routes' contracts, by route key. */
export const KIOSK_CONTRACT = {} as const satisfies Record<string, RouteContract>;
