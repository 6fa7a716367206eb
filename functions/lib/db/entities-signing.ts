/**
 * The entity of signed render URLs (docs/developer-api.md "Signed render URLs"): each team's
 * signing secrets, sealed like provider credentials (functions/lib/secrets.ts).
 */
import { Entity } from 'electrodb';
import { SERVICE, type EntityKit } from './entity-kit.ts';

/** Builds these entities against one table. */
export function signingEntities({ opts, primary }: EntityKit) {
  /**
   * A team's render signing secrets: the current one and, after a rotation, the previous one
   * until `previousValidUntil`. One item per team, replaced whole by a create or a rotation
   * (functions/domain/signing-secrets.ts); the secrets are JSON of a `SealedSecret`, never plain.
   */
  const SigningSecret = new Entity(
    {
      model: { entity: 'signingsecret', version: '1', service: SERVICE },
      attributes: {
        teamId: { type: 'string', required: true },
        /** JSON of the current secret's `SealedSecret`. */
        current: { type: 'string', required: true },
        /** ISO 8601, when the current secret was made. */
        currentCreatedAt: { type: 'string', required: true },
        /** JSON of the previous secret's `SealedSecret`, after a rotation with an overlap. */
        previous: { type: 'string' },
        /** ISO 8601, when the previous secret stops verifying. */
        previousValidUntil: { type: 'string' },
        /** Who made the current secret (a user id). */
        createdBy: { type: 'string', required: true },
      },
      indexes: {
        byTeam: {
          pk: { ...primary.pk, composite: ['teamId'] },
          sk: { ...primary.sk, composite: [] },
        },
      },
    },
    opts,
  );

  return { SigningSecret };
}
