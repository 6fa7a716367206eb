/**
 * The contract of the kiosk's sticker packs and the global image library (spec 001 §7 "Kiosk (packs)", §8; docs/kiosk.md).
 */
import type { RouteContract } from './core.ts';

/** These routes' contracts, by route key. */
export const KIOSK_PACKS_CONTRACT = {} as const satisfies Record<string, RouteContract>;
