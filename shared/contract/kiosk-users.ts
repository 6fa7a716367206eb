/**
 * The contract of the kiosk's users (search, profile, impersonation, discounts) and teams (spec 001 §6, §7 "Kiosk"; docs/kiosk.md).
 */
import type { RouteContract } from './core.ts';

/** These routes' contracts, by route key. */
export const KIOSK_USERS_CONTRACT = {} as const satisfies Record<string, RouteContract>;
