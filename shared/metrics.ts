/**
 * The product's CloudWatch metrics: their namespace and names, written by functions/lib/metrics.ts
 * and read by the alarms and dashboard of infra/constructs/monitoring.ts (docs/infra.md
 * "Observability"). Every metric also carries the `service` dimension (the function's feature).
 */

/** CloudWatch namespace of every product metric. */
export const METRICS_NAMESPACE = 'PicSnippets';

/** The metric names, shared with infra/constructs/monitoring.ts. */
export const METRIC = {
  /** A render answered with a real image; dimension `outcome`: memory, store or miss. */
  render: 'Render',
  /** Milliseconds from request to answer of a real render. */
  renderMs: 'RenderMs',
  /** A render answered with the fallback image; dimension `reason` (the logged cause). */
  renderFallback: 'RenderFallback',
  /** Chromium relaunched after a crash or disconnect. */
  chromiumRestart: 'ChromiumRestart',
  /** A Stripe webhook event; dimension `outcome`: handled, ignored, duplicate or failed. */
  stripeWebhook: 'StripeWebhook',
  /**
   * An e-mail handed to SES (or the local outbox); dimension `outcome`: sent, failed, suppressed
   * (the address bounced or complained: skipped) or off (mail is not set up in this stage).
   */
  mail: 'Mail',
  /**
   * SES reported a bounce (functions/mail-events); dimension `type`: permanent (the address is
   * suppressed), transient or undetermined.
   */
  mailBounced: 'MailBounced',
  /** A recipient marked a mail as spam (functions/mail-events); the address is suppressed. */
  mailComplained: 'MailComplained',
} as const;
export type MetricName = (typeof METRIC)[keyof typeof METRIC];
