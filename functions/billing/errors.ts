/**
 * Stripe failures as the spec's answers (docs/accounts.md "Error answers in the SPA"): a card
 * problem or a bad coupon or VAT id is a 422 on its field; offline billing is a 422 'Invalid Stripe
 * Key/Secret'; anything else is the generic 'We were unable to update your subscription. Please
 * contact customer support.' (502, logged with Stripe's request id, never shown).
 */
import { BILLING_MESSAGES } from '#shared/billing.ts';
import { AppError, validationFailed } from '#lib/errors.ts';
import { logger } from '#lib/logger.ts';
import { BillingOfflineError, Stripe } from '#lib/stripe.ts';

/** Stripe request parameters and the form field a problem with them belongs to. */
const FIELD_OF_PARAM: Array<[RegExp, string]> = [
  [/coupon|promotion_code|discounts/, 'coupon'],
  [/tax_id|^value$|vat/, 'vat_id'],
  [/payment_method|source|card/, 'stripe_payment_method'],
  [/address|country|postal_code/, 'country'],
  [/price|items/, 'plan'],
];

/**
 * Maps any error of a Stripe call to an AppError.
 * @param offlineField the field that carries 'Invalid Stripe Key/Secret' in offline mode.
 * @returns the AppError to throw (AppErrors pass through).
 */
export function billingError(error: unknown, offlineField = 'plan'): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof BillingOfflineError)
    return validationFailed({ [offlineField]: [BILLING_MESSAGES.invalidStripeKey] });
  if (error instanceof Stripe.errors.StripeCardError)
    return validationFailed({ stripe_payment_method: [error.message] });
  if (error instanceof Stripe.errors.StripeInvalidRequestError && error.param) {
    const field = FIELD_OF_PARAM.find(([re]) => re.test(error.param!))?.[1];
    if (field === 'coupon') return validationFailed({ coupon: [BILLING_MESSAGES.couponInvalid] });
    if (field === 'vat_id') return validationFailed({ vat_id: [BILLING_MESSAGES.vatIdInvalid] });
    if (field) return validationFailed({ [field]: [error.message] });
  }
  const stripeError = error instanceof Stripe.errors.StripeError ? error : undefined;
  logger.error('stripe call failed', {
    type: stripeError?.type,
    code: stripeError?.code,
    requestId: stripeError?.requestId,
    error: stripeError ? undefined : error,
  });
  return new AppError(502, 'billing_failed', BILLING_MESSAGES.subscriptionFailed);
}

/**
 * Runs a billing operation and maps its failures with {@link billingError}.
 * @throws AppError always, on failure.
 */
export async function withBillingErrors<T>(work: () => Promise<T>, offlineField?: string) {
  try {
    return await work();
  } catch (error) {
    throw billingError(error, offlineField);
  }
}
