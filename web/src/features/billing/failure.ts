/**
 * What a failed subscription call means for the screen (docs/accounts.md "Error answers in the
 * SPA": "Plan change or subscribe 400 carries paymentId: go to the payment-confirmation page. 422:
 * show field errors. Others: 'We were unable to update your subscription. Please contact customer
 * support.'").
 */
import { BILLING_MESSAGES } from '#shared/billing.ts';
import { isApiError, type FieldErrors } from '../../api/client.ts';

/** docs/accounts.md "Error answers in the SPA", word for word. */
export const SUBSCRIPTION_ERROR_MESSAGE = BILLING_MESSAGES.subscriptionFailed;

export type SubscriptionFailure =
  /** The first invoice needs an extra step (3-D Secure): confirm it on the payment page. */
  | { kind: 'payment'; paymentId: string }
  /** A 422: messages per field; `message` is set when some errors have no field on the form. */
  | { kind: 'fields'; errors: FieldErrors; message: string | null }
  /** Anything else: one message to show above the form ('' for a 401: the modal says it). */
  | { kind: 'message'; message: string };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The PaymentIntent id of a 400 that asks for a payment confirmation (shared/billing.ts
 * `PaymentActionRequired`; docs/billing.md "Flows", docs/accounts.md "Error answers in the SPA"),
 * else undefined.
 */
export function paymentIdOf(error: unknown): string | undefined {
  if (!isApiError(error) || error.status !== 400 || !isRecord(error.body)) return undefined;
  const { paymentId } = error.body;
  return typeof paymentId === 'string' && paymentId !== '' ? paymentId : undefined;
}

/**
 * Sorts a failed subscribe, plan change, cancel, resume or payment-method call.
 *
 * - 400 whose body has a `paymentId` string → `payment`;
 * - 422 with field errors → `fields`; errors on fields not in `formFields` are joined into
 *   `message` (so nothing the server said is lost);
 * - 401 → `message: ''` (the session-expired modal is already open, docs/accounts.md "Error answers
 *   in the SPA");
 * - 501 → the server's own message: it says billing is not available on this server, which
 *   tells the user more than the generic text (docs/adr/0026-billing-in-the-spa.md "Billing in the
 *   SPA");
 * - anything else, a network failure or an unexpected error → {@link SUBSCRIPTION_ERROR_MESSAGE}.
 *
 * @param error      what the call threw.
 * @param formFields the fields the form shows (errors for these go next to them).
 */
export function subscriptionFailure(
  error: unknown,
  formFields: readonly string[] = [],
): SubscriptionFailure {
  if (!isApiError(error)) {
    console.error(error);
    return { kind: 'message', message: SUBSCRIPTION_ERROR_MESSAGE };
  }
  const paymentId = paymentIdOf(error);
  if (paymentId) return { kind: 'payment', paymentId };
  if (error.status === 401) return { kind: 'message', message: '' };
  if (error.status === 422 && error.errors) {
    const others = Object.entries(error.errors)
      .filter(([field]) => !formFields.includes(field))
      .flatMap(([, messages]) => messages);
    return {
      kind: 'fields',
      errors: error.errors,
      message: others.length > 0 ? others.join(' ') : null,
    };
  }
  if (error.status === 501) return { kind: 'message', message: error.message };
  return { kind: 'message', message: SUBSCRIPTION_ERROR_MESSAGE };
}
