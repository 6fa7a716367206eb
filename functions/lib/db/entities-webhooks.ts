/**
 * The entities of webhooks (docs/developer-api.md "Webhooks"; functions/domain/webhooks.ts): a
 * team's endpoints and each endpoint's recent delivery attempts.
 */
import { Entity } from 'electrodb';
import { now, SERVICE, type EntityKit } from './entity-kit.ts';

/** Builds these entities against one table. */
export function webhookEntities({ opts, primary }: EntityKit) {
  /**
   * One webhook endpoint of a team, in the team's webhook partition (at most
   * `MAX_WEBHOOK_ENDPOINTS`). `secret` is the signing secret sealed by functions/lib/secrets.ts
   * (encryption context `{ teamId, webhookId, purpose: 'webhook' }`), never answered after it
   * was made. `failingSince` is set by the first failed delivery after a success and cleared by
   * the next success; an endpoint failing for `WEBHOOK_DISABLE_AFTER_DAYS` is disabled
   * (`enabled` false, `disabledReason` set) and its team's owner is e-mailed.
   */
  const WebhookEndpoint = new Entity(
    {
      model: { entity: 'webhookendpoint', version: '1', service: SERVICE },
      attributes: {
        teamId: { type: 'string', required: true },
        webhookId: { type: 'string', required: true },
        url: { type: 'string', required: true },
        description: { type: 'string', default: '' },
        events: { type: 'list', items: { type: 'string' }, required: true },
        secret: { type: 'string', required: true },
        enabled: { type: 'boolean', required: true },
        createdAt: { type: 'string', default: now, readOnly: true },
        /** ISO 8601: the first failure since the last success. */
        failingSince: { type: 'string' },
        /** ISO 8601 and why, when the product disabled it. */
        disabledAt: { type: 'string' },
        disabledReason: { type: 'string' },
      },
      indexes: {
        byTeam: {
          pk: { ...primary.pk, composite: ['teamId'] },
          sk: { ...primary.sk, composite: ['webhookId'] },
        },
      },
    },
    opts,
  );

  /**
   * One delivery attempt, in its endpoint's partition ordered by `deliveryId` (its time in
   * base 36, then random), so the newest are one backwards query; the worker keeps the newest
   * `WEBHOOK_DELIVERIES_KEPT` and `ttl` removes anything older than 30 days.
   */
  const WebhookDelivery = new Entity(
    {
      model: { entity: 'webhookdelivery', version: '1', service: SERVICE },
      attributes: {
        webhookId: { type: 'string', required: true },
        deliveryId: { type: 'string', required: true },
        teamId: { type: 'string', required: true },
        eventId: { type: 'string', required: true },
        eventType: { type: 'string', required: true },
        attempt: { type: 'number', required: true },
        /** The receiver's HTTP status, 0 when none came. */
        status: { type: 'number', required: true },
        ok: { type: 'boolean', required: true },
        /** ms */
        durationMs: { type: 'number', required: true },
        /** The first bytes of the answer (text). */
        response: { type: 'string', default: '' },
        error: { type: 'string' },
        createdAt: { type: 'string', default: now, readOnly: true },
        /** s since the epoch. */
        ttl: { type: 'number', required: true },
      },
      indexes: {
        byWebhook: {
          pk: { ...primary.pk, composite: ['webhookId'] },
          sk: { ...primary.sk, composite: ['deliveryId'] },
        },
      },
    },
    opts,
  );

  return { WebhookEndpoint, WebhookDelivery };
}
