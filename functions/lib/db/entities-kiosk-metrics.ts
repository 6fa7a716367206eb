/**
 * The entities of the kiosk's daily metrics snapshots (spec 001 §3 kiosk indicators; docs/kiosk.md).
 */
import type { EntityKit } from './entity-kit.ts';

/** Builds these entities against one table. */
export function kioskMetricsEntities(_kit: EntityKit) {
  return {};
}
