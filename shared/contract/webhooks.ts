/**
 * The contract of the `webhooks` routes (shared/routes.ts; docs/developer-api.md "Webhooks"): a
 * team's webhook endpoints (URL, subscribed events, a secret shown once, enabled), their recent
 * deliveries and a test event. Team owners and admins manage them, in the app or with an API
 * token. functions/webhooks parses its input with these schemas.
 */
import { z } from 'zod';
import { defineContract, SuccessSchema } from './core.ts';

/**
 * Every event a webhook endpoint can subscribe to (docs/developer-api.md "Webhooks" lists each
 * payload). `ping` is the test event: every endpoint gets it when asked, none subscribes to it.
 */
export const WEBHOOK_EVENTS = [
  'design.saved',
  'design.published',
  'design.archived',
  'export.generated',
  'subscription.changed',
  'send_list.finished',
  'poll.voted',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export type WebhookEventType = WebhookEvent | 'ping';

/** What each event means, for the settings' checkboxes and the reference. */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  'design.saved': 'A design was saved',
  'design.published': 'A design was made active (published again from the archive)',
  'design.archived': 'A design was archived',
  'export.generated': 'An export URL was generated',
  'subscription.changed': "The team's subscription changed",
  'send_list.finished': 'A send-list job finished',
  'poll.voted': 'A recipient voted in a poll',
};

/** Endpoints a team may have at most. */
export const MAX_WEBHOOK_ENDPOINTS = 10;
/** Deliveries kept per endpoint (the newest; older ones are removed). */
export const WEBHOOK_DELIVERIES_KEPT = 25;
/** The longest endpoint URL, characters. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

export const WEBHOOK_MESSAGES = {
  url: 'Enter the http(s) URL that should receive the events.',
  events: 'Choose at least one event.',
  tooMany: `A team can have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints.`,
  privateUrl: 'This URL is not reachable from the internet (a private or local address).',
} as const;

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

/** `{ id, webhookId }`: a team and one of its endpoints. */
export const WebhookParams = z.object({ id: z.string().min(1), webhookId: z.string().min(1) });

/** An endpoint URL: http or https, no credentials, at most 2048 characters. */
const WebhookUrl = z
  .string({ error: WEBHOOK_MESSAGES.url })
  .trim()
  .max(MAX_WEBHOOK_URL_LENGTH, `The URL may have at most ${MAX_WEBHOOK_URL_LENGTH} characters.`)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (
        (url.protocol === 'https:' || url.protocol === 'http:') &&
        url.username === '' &&
        url.password === ''
      );
    } catch {
      return false;
    }
  }, WEBHOOK_MESSAGES.url);

const WebhookEvents = z
  .array(z.enum(WEBHOOK_EVENTS), { error: WEBHOOK_MESSAGES.events })
  .min(1, WEBHOOK_MESSAGES.events)
  .max(WEBHOOK_EVENTS.length)
  .transform((events) => [...new Set(events)]);

/** `POST /settings/companies/{id}/webhooks`: a new endpoint (enabled unless said). */
export const CreateWebhookBody = z.object({
  url: WebhookUrl,
  events: WebhookEvents,
  description: z.string().trim().max(255).optional(),
  enabled: z.boolean().default(true),
});
export type CreateWebhookInput = z.input<typeof CreateWebhookBody>;

/** `PUT /settings/companies/{id}/webhooks/{webhookId}`: the fields to change. */
export const UpdateWebhookBody = z.object({
  url: WebhookUrl.optional(),
  events: WebhookEvents.optional(),
  description: z.string().trim().max(255).optional(),
  enabled: z.boolean().optional(),
});

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

/** An endpoint as the settings show it: never its secret. */
export const WebhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  enabled: z.boolean(),
  created_at: z.string(),
  /** ISO 8601: failing since (no success after it); null while it works. */
  failing_since: z.string().nullable(),
  /** Why the product disabled it (kept failing), or null. */
  disabled_reason: z.string().nullable(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

/** `GET /settings/companies/{id}/webhooks`. */
export const WebhookListSchema = z.object({
  endpoints: z.array(WebhookEndpointSchema),
  events: z.array(z.object({ value: z.enum(WEBHOOK_EVENTS), text: z.string() })),
});

/** A new endpoint with its secret (`whsec_…`), shown this once. */
export const CreatedWebhookSchema = z.object({
  endpoint: WebhookEndpointSchema,
  secret: z.string(),
});

/** One delivery attempt of an event to an endpoint. */
export const WebhookDeliverySchema = z.object({
  id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  /** 1 for the first try, then each retry. */
  attempt: z.number().int(),
  /** The receiver's HTTP status; null when none came (refused URL, timeout, network). */
  status: z.number().int().nullable(),
  /** The receiver answered 2xx. */
  ok: z.boolean(),
  /** How long the attempt took, ms. */
  duration_ms: z.number().int(),
  /** The first bytes of the receiver's answer (text), at most 1 KiB. */
  response: z.string(),
  /** Why the attempt failed without an answer, or null. */
  error: z.string().nullable(),
  created_at: z.string(),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookDeliveriesSchema = z.object({ deliveries: z.array(WebhookDeliverySchema) });

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

export const WEBHOOKS_CONTRACT = {
  'GET /settings/companies/{id}/webhooks': defineContract({
    params: z.object({ id: z.string().min(1) }),
    answer: WebhookListSchema,
  }),
  'POST /settings/companies/{id}/webhooks': defineContract({
    params: z.object({ id: z.string().min(1) }),
    body: CreateWebhookBody,
    answer: CreatedWebhookSchema,
    status: 201,
  }),
  'PUT /settings/companies/{id}/webhooks/{webhookId}': defineContract({
    params: WebhookParams,
    body: UpdateWebhookBody,
    answer: WebhookEndpointSchema,
  }),
  'DELETE /settings/companies/{id}/webhooks/{webhookId}': defineContract({
    params: WebhookParams,
    answer: SuccessSchema,
  }),
  'POST /settings/companies/{id}/webhooks/{webhookId}/test': defineContract({
    params: WebhookParams,
    answer: SuccessSchema,
  }),
  'GET /settings/companies/{id}/webhooks/{webhookId}/deliveries': defineContract({
    params: WebhookParams,
    answer: WebhookDeliveriesSchema,
  }),
} as const;
