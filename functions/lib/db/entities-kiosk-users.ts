/**
 * The entities of the kiosk's user side: impersonation audit records (docs/kiosk.md).
 */
import type { EntityKit } from './entity-kit.ts';

/** Builds these entities against one table. */
export function kioskUserEntities(_kit: EntityKit) {
  return {};
}
