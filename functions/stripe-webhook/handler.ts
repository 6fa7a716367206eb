/**
 * Stripe's webhook, `POST /stripe/webhook` (docs/billing.md; docs/billing.md "Webhook"): its own
 * public Lambda route (access `stripe` in shared/routes.ts: no session, no CSRF) whose body stays
 * raw, because the signature (`Stripe-Signature`, HMAC-SHA256 with the endpoint secret) is over the
 * exact bytes. Each event id is processed once: a StripeEvent item is created with a does-not-exist
 * condition and kept 7 days (Stripe retries for 3); a failure removes it again and answers 500, so
 * Stripe's retry processes the event.
 */
import { db } from '#lib/db/index.ts';
import { AppError, badRequest } from '#lib/errors.ts';
import { featureHandler, json, route, type ApiEvent } from '#lib/http.ts';
import { logger } from '#lib/logger.ts';
import { METRIC, recordMetric } from '#lib/metrics.ts';
import { config } from '#lib/config.ts';
import { Stripe } from '#lib/stripe.ts';
import { handleEvent } from './events.ts';

/** How long a processed event id is remembered, s: 7 days, past Stripe's 3-day retries. */
export const EVENT_TTL_SECONDS = 7 * 24 * 3600;

/** Signatures older than this are refused (Stripe's default tolerance), s. */
const SIGNATURE_TOLERANCE_SECONDS = 300;

/** The exact request bytes as a string (API Gateway may base64 them). */
function rawBody(event: ApiEvent): string {
  const body = typeof event.body === 'string' ? event.body : '';
  return event.isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
}

/**
 * Verifies the signature and parses the event.
 * @throws AppError 400 for a missing or bad signature, 503 when no endpoint secret is configured.
 */
function verifiedEvent(event: ApiEvent): Stripe.Event {
  const secret = config().STRIPE_WEBHOOK_SECRET;
  if (!secret)
    throw new AppError(
      503,
      'webhook_not_configured',
      'The Stripe webhook secret is not configured.',
    );
  const signature = event.headers?.['stripe-signature'];
  if (!signature) throw badRequest('Missing Stripe signature.');
  try {
    return Stripe.webhooks.constructEvent(
      rawBody(event),
      signature,
      secret,
      SIGNATURE_TOLERANCE_SECONDS,
    ) as Stripe.Event;
  } catch {
    throw badRequest('Invalid Stripe signature.');
  }
}

/** True when the event id was not seen before (and is now recorded). */
async function firstDelivery(event: Stripe.Event): Promise<boolean> {
  try {
    await db()
      .StripeEvent.create({
        eventId: event.id,
        type: event.type,
        ttl: Math.floor(Date.now() / 1000) + EVENT_TTL_SECONDS,
      })
      .go();
    return true;
  } catch (error) {
    if ((error as { cause?: { name?: string } }).cause?.name === 'ConditionalCheckFailedException')
      return false;
    throw error;
  }
}

export const handler = featureHandler(
  'stripe-webhook',
  {
    'POST /stripe/webhook': route({
      handle: async ({ event }) => {
        const stripeEvent = verifiedEvent(event);
        if (!(await firstDelivery(stripeEvent))) {
          recordMetric(METRIC.stripeWebhook, 1, ['outcome', 'duplicate']);
          return json(200, { received: true, duplicate: true });
        }
        try {
          const handled = await handleEvent(stripeEvent);
          logger.info('stripe event', { id: stripeEvent.id, type: stripeEvent.type, handled });
          recordMetric(METRIC.stripeWebhook, 1, ['outcome', handled ? 'handled' : 'ignored']);
          return json(200, { received: true, handled });
        } catch (error) {
          recordMetric(METRIC.stripeWebhook, 1, ['outcome', 'failed']);
          await db()
            .StripeEvent.delete({ eventId: stripeEvent.id })
            .go()
            .catch(() => undefined);
          throw error;
        }
      },
    }),
  },
  { rawBody: true, issueXsrf: false },
);
