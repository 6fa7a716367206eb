/**
 * The payment-confirmation lookup (docs/adr/0026-billing-in-the-spa.md "Billing in the SPA":
 * "Payment-confirmation page at /{cashierPath}/payment/{paymentId}"; docs/billing.md "Flows": "A
 * 400 on subscribing or plan change redirects to the payment-confirmation page"): what the page
 * needs to finish a payment that asked for 3-D Secure, for a PaymentIntent of one of the caller's
 * teams.
 */
import type { PaymentLookupResponse } from '#shared/billing.ts';
import { notFound } from '#lib/errors.ts';
import { BillingOfflineError, Stripe, stripe, stripePublishableKey } from '#lib/stripe.ts';

/**
 * @param paymentId a PaymentIntent id (`pi_…`).
 * @param customerIds the Stripe customers of the teams the caller owns.
 * @throws AppError 404 for another customer's or an unknown payment; BillingOfflineError.
 */
export async function paymentLookup(
  paymentId: string,
  customerIds: string[],
): Promise<PaymentLookupResponse> {
  const publishableKey = stripePublishableKey();
  if (!publishableKey) throw new BillingOfflineError();
  let intent: Stripe.PaymentIntent;
  try {
    intent = await stripe().paymentIntents.retrieve(paymentId);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeInvalidRequestError) throw notFound();
    throw error;
  }
  const customer = typeof intent.customer === 'string' ? intent.customer : intent.customer?.id;
  if (!customer || !customerIds.includes(customer) || !intent.client_secret) throw notFound();
  return {
    id: intent.id,
    clientSecret: intent.client_secret,
    publishableKey,
    amount: intent.amount,
    currency: intent.currency,
    status: intent.status,
    completed: intent.status === 'succeeded' || intent.status === 'processing',
    description: intent.description,
  };
}
