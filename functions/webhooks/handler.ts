/**
 * The `webhooks` feature (docs/developer-api.md "Webhooks"; shared/contract/webhooks.ts): a
 * team's webhook endpoints (list, add, change, delete), their recent deliveries and a test
 * event. The route table's `manager` access lets the team's owner and admins in (a member gets
 * 403, anyone else 404); an endpoint id is always read under the team of the path, so another
 * team's id is a 404. The endpoint's secret is answered once, when it is made.
 */
import { randomUUID } from 'node:crypto';
import {
  CreateWebhookBody,
  MAX_WEBHOOK_ENDPOINTS,
  UpdateWebhookBody,
  WEBHOOK_DELIVERIES_KEPT,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  WEBHOOK_MESSAGES,
} from '#shared/contract/webhooks.ts';
import { db } from '#lib/db/index.ts';
import { notFound, validationFailed } from '#lib/errors.ts';
import { featureHandler, json, route } from '#lib/http.ts';
import { configuredUrlGuard, UrlRefused } from '#lib/ssrf.ts';
import {
  emitWebhookEvent,
  endpointView,
  newEndpointSecret,
  recentDeliveries,
  teamEndpoints,
} from '#domain/webhooks.ts';

/**
 * Refuses an endpoint URL the SSRF guard would never deliver to (docs/security.md "SSRF
 * guard"): a private or local address, a port other than 80 and 443. A name that does not
 * resolve yet is accepted (its deliveries fail until it does); every delivery checks again.
 * @throws AppError 422 on `url`.
 */
async function assertDeliverable(url: string): Promise<void> {
  try {
    await configuredUrlGuard().check(url, AbortSignal.timeout(3000));
  } catch (error) {
    if (!(error instanceof UrlRefused)) throw error;
    if (error.reason === 'address') throw validationFailed({ url: [WEBHOOK_MESSAGES.privateUrl] });
    if (error.reason === 'port')
      throw validationFailed({ url: ['Only the standard ports (80 and 443) can receive events.'] });
    if (error.reason !== 'dns' && error.reason !== 'timeout')
      throw validationFailed({ url: [WEBHOOK_MESSAGES.url] });
  }
}

/** The endpoint `webhookId` of team `teamId`. @throws AppError 404 when the team has none such. */
async function loadEndpoint(teamId: string, webhookId: string) {
  const found = (await db().WebhookEndpoint.get({ teamId, webhookId }).go()).data;
  if (!found) throw notFound('No such webhook endpoint.');
  return found;
}

export const handler = featureHandler('webhooks', {
  'GET /settings/companies/{id}/webhooks': route({
    handle: async ({ params }) =>
      json(200, {
        endpoints: (await teamEndpoints(params.id!)).map(endpointView),
        events: WEBHOOK_EVENTS.map((value) => ({ value, text: WEBHOOK_EVENT_LABELS[value] })),
      }),
  }),

  'POST /settings/companies/{id}/webhooks': route({
    body: CreateWebhookBody,
    handle: async ({ params, body }) => {
      const teamId = params.id!;
      if ((await teamEndpoints(teamId)).length >= MAX_WEBHOOK_ENDPOINTS)
        throw validationFailed({ url: [WEBHOOK_MESSAGES.tooMany] }, WEBHOOK_MESSAGES.tooMany);
      await assertDeliverable(body.url);
      const webhookId = randomUUID();
      const { secret, sealed } = await newEndpointSecret(teamId, webhookId);
      const created = await db()
        .WebhookEndpoint.create({
          teamId,
          webhookId,
          url: body.url,
          description: body.description ?? '',
          events: body.events,
          secret: sealed,
          enabled: body.enabled,
        })
        .go();
      return json(201, { endpoint: endpointView(created.data), secret });
    },
  }),

  'PUT /settings/companies/{id}/webhooks/{webhookId}': route({
    body: UpdateWebhookBody,
    handle: async ({ params, body }) => {
      const teamId = params.id!;
      await loadEndpoint(teamId, params.webhookId!);
      if (body.url !== undefined) await assertDeliverable(body.url);
      const patch = db()
        .WebhookEndpoint.patch({ teamId, webhookId: params.webhookId! })
        .set({
          ...(body.url !== undefined ? { url: body.url } : {}),
          ...(body.events !== undefined ? { events: body.events } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
        });
      // Turning it on again starts afresh: no failing streak, no disabled reason.
      const updated = await (
        body.enabled === true
          ? patch.remove(['failingSince', 'disabledAt', 'disabledReason'])
          : patch
      ).go({ response: 'all_new' });
      return json(200, endpointView(updated.data as never));
    },
  }),

  'DELETE /settings/companies/{id}/webhooks/{webhookId}': route({
    handle: async ({ params }) => {
      const teamId = params.id!;
      await loadEndpoint(teamId, params.webhookId!);
      await db().WebhookEndpoint.delete({ teamId, webhookId: params.webhookId! }).go();
      return json(200, { success: true });
    },
  }),

  'POST /settings/companies/{id}/webhooks/{webhookId}/test': route({
    handle: async ({ params, auth }) => {
      const endpoint = await loadEndpoint(params.id!, params.webhookId!);
      const { eventId } = await emitWebhookEvent(
        endpoint.teamId,
        'ping',
        { message: 'A test event from PicSnippets.', sent_by: auth.user?.email ?? null },
        [endpoint.webhookId],
      );
      return json(200, { success: true, event_id: eventId });
    },
  }),

  'GET /settings/companies/{id}/webhooks/{webhookId}/deliveries': route({
    handle: async ({ params }) => {
      const endpoint = await loadEndpoint(params.id!, params.webhookId!);
      return json(200, {
        deliveries: await recentDeliveries(endpoint.webhookId, WEBHOOK_DELIVERIES_KEPT),
      });
    },
  }),
});
