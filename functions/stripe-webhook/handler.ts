/**
 * Stripe's webhook, `POST /stripe/webhook`, on its own public route with the raw body kept for
 * signature checking (DESIGN.md §6). The billing issue implements it; until then it answers 501.
 */
import { featureHandler } from '#lib/http.ts';

export const handler = featureHandler('stripe-webhook', {}, { rawBody: true });
