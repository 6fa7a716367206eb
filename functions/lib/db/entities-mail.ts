/**
 * The entities of e-mail delivery: addresses that bounced or complained (docs/infra.md "E-mail").
 */
import { Entity } from 'electrodb';
import { now, SERVICE, type EntityKit } from './entity-kit.ts';

/** Builds these entities against one table. */
export function mailEntities({ opts, primary }: EntityKit) {
  /**
   * An address the product no longer mails (docs/infra.md "E-mail"): SES reported a permanent
   * bounce for it, or its owner marked a mail as spam. Written by the SES event handler
   * (functions/mail-events/handler.ts), read by functions/lib/mailer.ts before every send. One
   * item per address, keyed by the address in lower case; a later event overwrites it. There is
   * no TTL: an address leaves the list only by hand (docs/infra.md "E-mail").
   */
  const SuppressedAddress = new Entity(
    {
      model: { entity: 'suppressedaddress', version: '1', service: SERVICE },
      attributes: {
        /** The address, trimmed and lower case. */
        email: { type: 'string', required: true },
        reason: { type: ['bounce', 'complaint'] as const, required: true },
        /**
         * What SES said, for an operator: `Permanent/General` (bounce type and sub-type),
         * `abuse` (complaint feedback type). Never the diagnostic text.
         */
        detail: { type: 'string' },
        /** SES's feedback id of the event (finds it in SES's own records). */
        feedbackId: { type: 'string' },
        /** ISO 8601, when SES saw the event. */
        eventAt: { type: 'string' },
        /** ISO 8601, when the address was marked. */
        suppressedAt: { type: 'string', default: now },
      },
      indexes: {
        byEmail: {
          pk: { ...primary.pk, composite: ['email'] },
          sk: { ...primary.sk, composite: [] },
        },
      },
    },
    opts,
  );

  return { SuppressedAddress };
}
