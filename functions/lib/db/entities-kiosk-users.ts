/**
 * The entities of the kiosk's user side (docs/kiosk.md "Users, impersonation and discounts"):
 * the impersonation audit record and each user's recent sign-ins.
 */
import { Entity } from 'electrodb';
import { gsi, now, SERVICE, type EntityKit } from './entity-kit.ts';

/** Sign-ins kept per user, newest first (docs/kiosk.md): older ones are dropped. */
export const SIGN_INS_KEPT = 20;

/** Builds these entities against one table. */
export function kioskUserEntities({ opts, primary }: EntityKit) {
  /**
   * One impersonation (docs/adr/0023-team-roles.md "Team roles": "impersonate"; docs/kiosk.md): who
   * (`adminId`), whom (`targetId`), when it started and when it ended. Written when it starts,
   * `endedAt` set when the admin stops or signs out; never deleted (an audit trail). Listed per
   * impersonated user, newest first, on the kiosk profile.
   */
  const Impersonation = new Entity(
    {
      model: { entity: 'impersonation', version: '1', service: SERVICE },
      attributes: {
        impersonationId: { type: 'string', required: true, readOnly: true },
        adminId: { type: 'string', required: true, readOnly: true },
        targetId: { type: 'string', required: true, readOnly: true },
        /** ISO 8601. */
        startedAt: { type: 'string', required: true, default: now, readOnly: true },
        /** ISO 8601; unset while it lasts (or when the session simply expired). */
        endedAt: { type: 'string' },
      },
      indexes: {
        byId: {
          pk: { ...primary.pk, composite: ['impersonationId'] },
          sk: { ...primary.sk, composite: [] },
        },
        byTarget: {
          index: gsi(1).indexName,
          pk: { field: gsi(1).partitionKey, composite: ['targetId'] },
          sk: { field: gsi(1).sortKey, composite: ['startedAt'] },
        },
      },
    },
    opts,
  );

  /**
   * A user's last {@link SIGN_INS_KEPT} sign-ins, newest first, in one item (functions/lib/
   * sign-ins.ts): when (ISO 8601), the client address and its user agent (cut to 200
   * characters). Shown on the kiosk profile.
   */
  const SignInHistory = new Entity(
    {
      model: { entity: 'signinhistory', version: '1', service: SERVICE },
      attributes: {
        userId: { type: 'string', required: true, readOnly: true },
        entries: {
          type: 'list',
          required: true,
          items: {
            type: 'map',
            properties: {
              at: { type: 'string', required: true },
              ip: { type: 'string', required: true },
              userAgent: { type: 'string', required: true },
            },
          },
        },
      },
      indexes: {
        byUser: {
          pk: { ...primary.pk, composite: ['userId'] },
          sk: { ...primary.sk, composite: [] },
        },
      },
    },
    opts,
  );

  return { Impersonation, SignInHistory };
}
