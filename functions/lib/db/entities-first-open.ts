/**
 * The entity of evergreen countdown timers that count from a recipient's first open
 * (docs/adr/0058-countdown-timers.md "Countdown timers").
 */
import { Entity } from 'electrodb';
import { SERVICE, type EntityKit } from './entity-kit.ts';

/** Builds these entities against one table. */
export function firstOpenEntities({ opts, primary }: EntityKit) {
  /**
   * When a recipient first opened a design's image (functions/render/first-open.ts). Keyed by
   * `openDesign` (the design's id) and `recipient`, a SHA-256 (hex) of the recipient's
   * normalised URL values, never the values themselves (they are personal data). Written once,
   * by a put conditional on the item's absence, so two first opens at once agree on one instant.
   * Its partition key (`$picsnippets#opendesign_…`) is apart from every other item's, so the
   * render role may write these items only (infra/constructs/render.ts `FIRST_OPEN`); `ttl`
   * (epoch s) removes it 30 days after the longest timer of the design ran out.
   */
  const FirstOpen = new Entity(
    {
      model: { entity: 'firstopen', version: '1', service: SERVICE },
      attributes: {
        /** The design's id. */
        openDesign: { type: 'string', required: true },
        /** SHA-256 of the recipient's normalised values, 64 hex characters. */
        recipient: { type: 'string', required: true },
        /** The first open, ms since the epoch. */
        openedAt: { type: 'number', required: true },
        /** Epoch seconds when DynamoDB may delete the item. */
        ttl: { type: 'number', required: true },
      },
      indexes: {
        byRecipient: {
          pk: { ...primary.pk, composite: ['openDesign'] },
          sk: { ...primary.sk, composite: ['recipient'] },
        },
      },
    },
    opts,
  );

  return { FirstOpen };
}
