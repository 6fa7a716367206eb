/**
 * The contract of the routes no person's session calls: the render URL (docs/export.md "What
 * Generate writes": "Export: the rendered image URL"; docs/export.md) and Stripe's webhook
 * (docs/billing.md "Webhook").
 */
import { z } from 'zod';
import { defineContract, NoJsonAnswer } from './core.ts';

/**
 * `POST /stripe/webhook`'s answer: the event was received; `duplicate` when its id was seen
 * before (nothing done again), else `handled` says whether the product acts on its type.
 */
export const StripeWebhookAnswerSchema = z.union([
  z.object({ received: z.literal(true), duplicate: z.literal(true) }),
  z.object({ received: z.literal(true), handled: z.boolean() }),
]);

/** These routes' contracts, by route key. */
export const PLATFORM_CONTRACT = {
  /**
   * The render URL: `/r/{publicId}[/v{version}].{jpg|png|webp}?{parameter}=…`. It always answers
   * an image (the fallback image on any failure, uncached; docs/export.md), never JSON, so its
   * query is the design's parameters, read by the render service, not a schema here.
   */
  'GET /r/{proxy+}': defineContract({
    params: z.object({ proxy: z.string().min(1) }),
    answer: NoJsonAnswer,
  }),
  /**
   * The rule link: `/l/{publicId}[/v{version}]?{parameter}=…`, the image's query. Answers 302 to
   * the link of the rule the image shows (docs/rules.md "Links"); 404 or 503 as a short page.
   */
  'GET /l/{proxy+}': defineContract({
    params: z.object({ proxy: z.string().min(1) }),
    answer: NoJsonAnswer,
    status: 302,
  }),
  /**
   * Stripe's signed event delivery. 400 for a missing or bad signature, 503 when no endpoint
   * secret is configured; Stripe delivers again after any non-2xx.
   */
  'POST /stripe/webhook': defineContract({
    answer: StripeWebhookAnswerSchema,
    errors: [400, 503],
  }),
} as const;
