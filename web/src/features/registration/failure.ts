/**
 * Where a failed registration call's answer goes (docs/adr/0011-registration.md "Registration",
 * docs/accounts.md "Error answers in the SPA"): which step the user is taken to, where focus goes,
 * and what the notice above the form says. The field errors themselves go on the fields: the
 * account fields' through `applyServerErrors`, the plan's, billing fields' and card's through the
 * step-1 hooks.
 */
import { GENERIC_ERROR_MESSAGE, isApiError } from '../../api/client.ts';
import { BILLING_FIELDS, isBillingField, type BillingField } from '../billing/billingDetails.ts';
import { ACCOUNT_FIELDS, isAccountField, type AccountField } from './account.ts';

/** A notice above the registration form. */
export interface RegistrationNotice {
  tone: 'info' | 'error';
  title: string;
  text: string;
}

/** A step-1 field that can carry an error: a billing field or the card. */
export type PaymentField = BillingField | 'stripe_payment_method';

/** True for the step-1 fields `usePayment` shows: the billing address, VAT id and the card. */
export const isPaymentField = (field: string): field is PaymentField =>
  isBillingField(field) || field === 'stripe_payment_method';

/** Where focus goes after the next render: a field, the plans, the card, or a step's heading. */
export type FocusTarget = AccountField | BillingField | 'plan' | 'card' | 'heading';

/** What the page does after a failed call. */
export interface RegistrationFailure {
  notice: RegistrationNotice | null;
  step: 0 | 1;
  focus: FocusTarget | null;
}

/**
 * docs/accounts.md "Error answers in the SPA": the answer's field errors go on the fields; other
 * field errors and answers without any go in the notice. docs/adr/0011-registration.md
 * "Registration": errors on plan, name, team, e-mail or password send the user back to step 0 (a
 * plan error is named in the notice there and stays on the plans); errors on the billing fields and
 * the card keep step 1.
 * @param error what the call threw.
 * @param step the step the call was made from.
 * @param title the notice's title for this call.
 */
export function registrationFailure(
  error: unknown,
  step: 0 | 1,
  title: string,
): RegistrationFailure {
  if (!isApiError(error)) {
    return { notice: { tone: 'error', title, text: GENERIC_ERROR_MESSAGE }, step, focus: null };
  }
  const errors = error.errors ?? {};
  const firstAccount = ACCOUNT_FIELDS.find((f) => errors[f]);
  const firstBilling = BILLING_FIELDS.find((f) => errors[f]);
  const others = Object.entries(errors)
    .filter(([f]) => !isAccountField(f) && f !== 'plan' && !isPaymentField(f))
    .flatMap(([, messages]) => messages);
  const placed = firstAccount ?? firstBilling ?? (errors.stripe_payment_method && 'card');
  if (!placed && !errors.plan) {
    return {
      notice: {
        tone: error.status === 501 ? 'info' : 'error',
        title: error.status === 0 ? 'No connection' : title,
        text: [error.message, ...others].join(' '),
      },
      step,
      focus: null,
    };
  }
  const otherNotice =
    others.length > 0 ? { tone: 'error' as const, title, text: others.join(' ') } : null;
  if (!firstAccount && !errors.plan) return { notice: otherNotice, step, focus: placed || null };
  return {
    notice:
      otherNotice ??
      (step === 1
        ? {
            tone: 'error',
            title: 'Some details need attention',
            text: errors.plan
              ? `${errors.plan.join(' ')} Continue to choose another plan.`
              : 'Fix the fields marked below, then continue.',
          }
        : null),
    step: 0,
    focus: firstAccount ?? 'heading',
  };
}
