/**
 * The entities of e-mail delivery: addresses that bounced or complained (docs/infra.md "E-mail").
 */
import type { EntityKit } from './entity-kit.ts';

/** Builds these entities against one table. */
export function mailEntities(_kit: EntityKit) {
  return {};
}
