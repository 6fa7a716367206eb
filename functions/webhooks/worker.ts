/**
 * The webhook delivery worker (docs/developer-api.md "Webhooks"): a plain SQS handler on the
 * `webhooks` queue (functions/lib/queue.ts; in AWS an event source mapping with partial batch
 * failures, locally infra/local/queue-poller.ts). For each message it:
 * 1. reads the endpoint (gone, or disabled for a real event: the message is dropped);
 * 2. POSTs the event's JSON, signed `PicSnippets-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of
 *    "t.body">` with the endpoint's secret, through the SSRF guard (private addresses refused,
 *    the checked address pinned, no redirect followed), within `DELIVERY_TIMEOUT_MS` and
 *    `DELIVERY_MAX_BYTES` of answer;
 * 3. records the attempt (status, duration, the answer's first bytes, the error) and keeps the
 *    newest `WEBHOOK_DELIVERIES_KEPT` per endpoint;
 * 4. on failure queues the next attempt with exponential backoff (`WEBHOOK_RETRY_BASE_S` × 4^n,
 *    at most 900 s, at most `WEBHOOK_MAX_ATTEMPTS` attempts; the test event is not retried), and
 *    disables an endpoint failing for `WEBHOOK_DISABLE_AFTER_DAYS`, e-mailing the team's owner.
 * Only an unexpected error (DynamoDB, the queue) fails a message, which SQS then delivers again.
 */
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { WEBHOOK_DELIVERIES_KEPT } from '#shared/contract/webhooks.ts';
import { config } from '#lib/config.ts';
import { db, isConditionFailure } from '#lib/db/index.ts';
import { logger } from '#lib/logger.ts';
import { eachRecord } from '#lib/sqs-batch.ts';
import { sendMail } from '#lib/mailer.ts';
import { webhookDisabledMail } from '#domain/mail-templates.ts';
import { enqueue } from '#lib/queue.ts';
import { configuredUrlGuard, UrlRefused } from '#lib/ssrf.ts';
import {
  deliveryBody,
  endpointSecret,
  newDeliveryId,
  SIGNATURE_HEADER,
  webhookSignature,
  WebhookMessageSchema,
  type EndpointRecord,
  type WebhookMessage,
} from '#domain/webhooks.ts';

/** The time budget of one delivery (DNS, connect, answer), ms. */
export const DELIVERY_TIMEOUT_MS = 5000;
/** The most of a receiver's answer read, bytes; a longer answer fails the attempt. */
const DELIVERY_MAX_BYTES = 64 * 1024;
/** The answer's first bytes kept with the attempt. */
const RESPONSE_KEPT_BYTES = 1024;
/** How long an attempt's record is kept at most, s (30 days). */
const DELIVERY_TTL_S = 30 * 24 * 3600;
/** SQS's longest delay, s. */
const MAX_DELAY_S = 900;

/** The delay before attempt `attempt + 1`, s: base × 4^(attempt − 1), at most 900. */
export const retryDelay = (attempt: number, base = config().WEBHOOK_RETRY_BASE_S): number =>
  Math.min(MAX_DELAY_S, base * 4 ** Math.min(attempt - 1, 10));

interface Outcome {
  status: number;
  response: string;
  error?: string;
  durationMs: number;
}

/** POSTs the signed event; never throws for what the receiver or the network did. */
async function post(endpoint: EndpointRecord, message: WebhookMessage): Promise<Outcome> {
  const body = deliveryBody(message);
  const secret = await endpointSecret(endpoint);
  const timestamp = Math.floor(Date.now() / 1000);
  const started = performance.now();
  try {
    const answer = await configuredUrlGuard().fetch(endpoint.url, {
      method: 'POST',
      body,
      redirect: 'manual',
      timeoutMs: DELIVERY_TIMEOUT_MS,
      maxBytes: DELIVERY_MAX_BYTES,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'PicSnippets-Webhooks/1.0',
        [SIGNATURE_HEADER]: webhookSignature(secret, timestamp, body),
        'picsnippets-event': message.type,
        'picsnippets-event-id': message.eventId,
        'picsnippets-attempt': String(message.attempt),
      },
    });
    return {
      status: answer.status,
      response: answer.body.subarray(0, RESPONSE_KEPT_BYTES).toString('utf8'),
      durationMs: performance.now() - started,
    };
  } catch (error) {
    if (!(error instanceof UrlRefused)) throw error;
    return {
      status: 0,
      response: '',
      error: `${error.reason}: ${error.message}`,
      durationMs: performance.now() - started,
    };
  }
}

/** Records one attempt and removes the endpoint's attempts past the newest kept. */
async function record(message: WebhookMessage, outcome: Outcome, ok: boolean): Promise<void> {
  const now = Date.now();
  await db()
    .WebhookDelivery.create({
      webhookId: message.webhookId,
      deliveryId: newDeliveryId(now),
      teamId: message.teamId,
      eventId: message.eventId,
      eventType: message.type,
      attempt: message.attempt,
      status: outcome.status,
      ok,
      durationMs: Math.round(outcome.durationMs),
      response: outcome.response,
      ...(outcome.error ? { error: outcome.error.slice(0, 500) } : {}),
      ttl: Math.floor(now / 1000) + DELIVERY_TTL_S,
    })
    .go();
  const newest = (
    await db()
      .WebhookDelivery.query.byWebhook({ webhookId: message.webhookId })
      .go({ order: 'desc', limit: WEBHOOK_DELIVERIES_KEPT + 10 })
  ).data;
  const extra = newest.slice(WEBHOOK_DELIVERIES_KEPT);
  if (extra.length > 0)
    await db()
      .WebhookDelivery.delete(
        extra.map((d) => ({ webhookId: d.webhookId, deliveryId: d.deliveryId })),
      )
      .go();
}

/**
 * Disables an endpoint that kept failing and tells the team's owner by e-mail, once (the
 * write is conditional on the endpoint still being enabled).
 */
async function disable(endpoint: EndpointRecord, days: number): Promise<void> {
  const { teamId, webhookId } = endpoint;
  try {
    await db()
      .WebhookEndpoint.patch({ teamId, webhookId })
      .set({
        enabled: false,
        disabledAt: new Date().toISOString(),
        disabledReason: `Deliveries failed for ${days} days.`,
      })
      .where((a, op) => op.eq(a.enabled, true))
      .go();
  } catch (error) {
    if (isConditionFailure(error)) return;
    throw error;
  }
  logger.warn('webhook endpoint disabled', { teamId, webhookId, days });
  const team = (await db().Team.get({ teamId }).go()).data;
  const owner = team ? (await db().User.get({ userId: team.ownerId }).go()).data : null;
  if (!team || !owner?.email) return;
  await sendMail({
    to: owner.email,
    ...webhookDisabledMail({
      name: owner.name,
      teamName: team.name,
      url: endpoint.url,
      days,
      link: `${config().PUBLIC_URL}/settings/companies/${encodeURIComponent(teamId)}#/webhooks`,
    }),
  }).catch((error: unknown) =>
    logger.warn('webhook disabled mail not sent', { teamId, error: error as Error }),
  );
}

/** After a failed attempt: the failing streak, then disable, retry, or give up. */
async function afterFailure(endpoint: EndpointRecord, message: WebhookMessage): Promise<void> {
  const c = config();
  const now = Date.now();
  const since = endpoint.failingSince ? Date.parse(endpoint.failingSince) : now;
  if (!endpoint.failingSince)
    await db()
      .WebhookEndpoint.patch({ teamId: endpoint.teamId, webhookId: endpoint.webhookId })
      .set({ failingSince: new Date(now).toISOString() })
      .go();
  if (message.type === 'ping') return;
  const disableAfterMs = c.WEBHOOK_DISABLE_AFTER_DAYS * 86_400_000;
  if (endpoint.failingSince && now - since >= disableAfterMs) {
    await disable(endpoint, Math.max(1, Math.round((now - since) / 86_400_000)));
    return;
  }
  if (message.attempt >= c.WEBHOOK_MAX_ATTEMPTS) {
    logger.warn('webhook event given up', {
      teamId: message.teamId,
      webhookId: message.webhookId,
      eventId: message.eventId,
    });
    return;
  }
  await enqueue('webhooks', [{ ...message, attempt: message.attempt + 1 }], {
    delaySeconds: retryDelay(message.attempt),
  });
}

/** Delivers one queued message (see the module's steps). */
async function deliver(sqsRecord: SQSRecord): Promise<void> {
  let message: WebhookMessage;
  try {
    message = WebhookMessageSchema.parse(JSON.parse(sqsRecord.body));
  } catch {
    logger.error('webhook message refused', { messageId: sqsRecord.messageId });
    return;
  }
  const endpoint = (
    await db().WebhookEndpoint.get({ teamId: message.teamId, webhookId: message.webhookId }).go()
  ).data;
  if (!endpoint || (!endpoint.enabled && message.type !== 'ping')) return;
  const outcome = await post(endpoint, message);
  const ok = outcome.status >= 200 && outcome.status < 300;
  await record(message, outcome, ok);
  if (ok) {
    if (endpoint.failingSince)
      await db()
        .WebhookEndpoint.patch({ teamId: endpoint.teamId, webhookId: endpoint.webhookId })
        .remove(['failingSince'])
        .go();
    return;
  }
  await afterFailure(endpoint, message);
}

/**
 * The SQS handler: every record delivered one after the other (a batch is at most 10, each
 * attempt at most 5 s); the ones that threw are reported in `batchItemFailures`.
 */
export const handler = (event: SQSEvent): Promise<SQSBatchResponse> =>
  eachRecord(event, async (r) => {
    try {
      await deliver(r);
    } catch (error) {
      logger.error('webhook delivery failed', { messageId: r.messageId, error: error as Error });
      throw error;
    }
  });
