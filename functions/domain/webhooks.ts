/**
 * Webhooks (docs/developer-api.md "Webhooks"): a team's endpoints, their secrets, the events
 * the product emits, and the signature of a delivery. Emitting writes one message per
 * subscribed, enabled endpoint to the `webhooks` queue (functions/lib/queue.ts); the worker
 * (functions/webhooks/worker.ts) delivers it, retries it and records each attempt.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { EntityItem } from 'electrodb';
import { z } from 'zod';
import {
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_EVENTS,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
} from '#shared/contract/webhooks.ts';
import { config } from '#lib/config.ts';
import { db } from '#lib/db/index.ts';
import type { Entities } from '#lib/db/entities.ts';
import { logger } from '#lib/logger.ts';
import { enqueue } from '#lib/queue.ts';
import { openSecret, sealSecret, secretKeys } from '#lib/secrets.ts';

/** The visible prefix of an endpoint's signing secret. */
const SECRET_PREFIX = 'whsec_';

/** The signature header of a delivery (docs/developer-api.md "Verifying a delivery"). */
export const SIGNATURE_HEADER = 'picsnippets-signature';

const contextOf = (teamId: string, webhookId: string) => ({
  teamId,
  webhookId,
  purpose: 'webhook',
});

/** A stored endpoint (the entity's item). */
export type EndpointRecord = EntityItem<Entities['WebhookEndpoint']>;

/**
 * One queued delivery: the event (the same id, time and data on every attempt, so receivers
 * can drop repeats) and the attempt it is. Validated by the worker.
 */
export const WebhookMessageSchema = z.object({
  eventId: z.string().min(1).max(64),
  type: z.enum([...WEBHOOK_EVENTS, 'ping']),
  createdAt: z.string().max(40),
  teamId: z.string().min(1).max(200),
  webhookId: z.string().min(1).max(200),
  data: z.record(z.string(), z.unknown()),
  attempt: z.number().int().min(1).max(100),
});
export type WebhookMessage = z.infer<typeof WebhookMessageSchema>;

/**
 * The JSON body every attempt of an event sends (docs/developer-api.md "Events"):
 * `{ id, type, created_at, team_id, data }`.
 */
export const deliveryBody = (m: WebhookMessage): string =>
  JSON.stringify({
    id: m.eventId,
    type: m.type,
    created_at: m.createdAt,
    team_id: m.teamId,
    data: m.data,
  });

/**
 * The `PicSnippets-Signature` value of a body: `t=<unix s>,v1=<hex HMAC-SHA256 of "t.body"
 * under the endpoint's secret>` (docs/developer-api.md "Verifying a delivery").
 * @param timestamp seconds since the epoch
 */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/** The endpoint as the settings show it (never its secret). */
export function endpointView(e: EndpointRecord): WebhookEndpoint {
  return {
    id: e.webhookId,
    url: e.url,
    description: e.description ?? '',
    events: e.events.filter((v): v is WebhookEndpoint['events'][number] =>
      (WEBHOOK_EVENTS as readonly string[]).includes(v),
    ),
    enabled: e.enabled,
    created_at: e.createdAt ?? '',
    failing_since: e.failingSince ?? null,
    disabled_reason: e.disabledReason ?? null,
  };
}

/** A team's endpoints (at most `MAX_WEBHOOK_ENDPOINTS`). */
export async function teamEndpoints(teamId: string) {
  return (
    await db()
      .WebhookEndpoint.query.byTeam({ teamId })
      .go({ limit: MAX_WEBHOOK_ENDPOINTS * 2 })
  ).data;
}

/**
 * Makes an endpoint's secret and seals it for storage.
 * @returns the secret (shown once) and its sealed form (JSON of functions/lib/secrets.ts).
 */
export async function newEndpointSecret(teamId: string, webhookId: string) {
  const secret = `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
  const sealed = JSON.stringify(
    await sealSecret(secret, contextOf(teamId, webhookId), secretKeys()),
  );
  return { secret, sealed };
}

/** Opens an endpoint's stored secret. @throws SecretError when it does not open. */
export const endpointSecret = (e: { teamId: string; webhookId: string; secret: string }) =>
  openSecret(JSON.parse(e.secret) as never, contextOf(e.teamId, e.webhookId), secretKeys());

/** A new event id: `evt_` and 24 hex digits. */
const newEventId = () => `evt_${randomUUID().replaceAll('-', '').slice(0, 24)}`;

/** A delivery id that sorts by time: 9 base-36 digits of ms, then 8 hex digits. */
export const newDeliveryId = (now = Date.now()) =>
  `${now.toString(36).padStart(9, '0')}${randomBytes(4).toString('hex')}`;

/**
 * Queues an event for every enabled endpoint of the team subscribed to it (a `ping` goes to the
 * endpoints named in `only`). Never throws: an event that cannot be queued is logged, and the
 * request that caused it goes on (docs/developer-api.md "Webhooks").
 * @param type an event of `WEBHOOK_EVENTS` (docs/developer-api.md "Events" gives each `data`)
 * @param data the event's `data`, JSON-serialisable, well under 256 KiB
 * @param only endpoint ids to send to whatever they subscribe to (the test event)
 * @returns the event id, and how many endpoints it was queued for
 */
export async function emitWebhookEvent(
  teamId: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
  only?: readonly string[],
): Promise<{ eventId: string; queued: number }> {
  const eventId = newEventId();
  try {
    const endpoints = (await teamEndpoints(teamId)).filter((e) =>
      only ? only.includes(e.webhookId) : e.enabled && type !== 'ping' && e.events.includes(type),
    );
    if (endpoints.length === 0) return { eventId, queued: 0 };
    const createdAt = new Date().toISOString();
    const messages: WebhookMessage[] = endpoints.map((e) => ({
      eventId,
      type,
      createdAt,
      teamId,
      webhookId: e.webhookId,
      data,
      attempt: 1,
    }));
    await enqueue('webhooks', messages);
    return { eventId, queued: messages.length };
  } catch (error) {
    logger.error('webhook event not queued', { teamId, type, error: error as Error });
    return { eventId, queued: 0 };
  }
}

/** The newest deliveries of an endpoint, newest first. */
export async function recentDeliveries(webhookId: string, limit: number) {
  const items = (
    await db().WebhookDelivery.query.byWebhook({ webhookId }).go({ order: 'desc', limit })
  ).data;
  return items.map((d): WebhookDelivery => ({
    id: d.deliveryId,
    event_id: d.eventId,
    event_type: d.eventType,
    attempt: d.attempt,
    status: d.status > 0 ? d.status : null,
    ok: d.ok,
    duration_ms: Math.round(d.durationMs),
    response: d.response ?? '',
    error: d.error ?? null,
    created_at: d.createdAt ?? '',
  }));
}

/**
 * The `data` of the design events (docs/developer-api.md "Events"): `{ design: { id, title,
 * status, version, updated_at, render_url } }`.
 */
export function designEventData(d: {
  designId: string;
  publicId: string;
  title: string;
  status: string;
  version: number;
  updatedAt?: string | undefined;
}): Record<string, unknown> {
  return {
    design: {
      id: d.designId,
      title: d.title,
      status: d.status,
      version: d.version,
      updated_at: d.updatedAt ?? null,
      render_url: `${config().PUBLIC_URL}/r/${d.publicId}`,
    },
  };
}
