import { useState } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { paymentConfirmationPath, type SubscriptionView } from '#shared/billing.ts';
import type { FieldErrors } from '../../api/client.ts';
import { applyServerErrors } from '../../lib/forms.ts';
import { subscriptionFailure } from './failure.ts';

/** What each section of the subscription tab is given. */
export interface BillingSectionProps {
  /** The team path's id, or undefined for the user paths (the current team). */
  teamId: string | undefined;
  view: SubscriptionView;
  headingId: string;
  /** Told the team's billing after a change. */
  onChanged: (view: SubscriptionView) => void;
}

/** Where the payment-confirmation page returns to: the tab that started the payment. */
export const subscriptionTabPath = (teamId: string | undefined): string =>
  teamId
    ? `/settings/companies/${encodeURIComponent(teamId)}#/subscription`
    : '/settings#/subscription';

/**
 * Runs one billing change at a time for a form and shows its outcome the spec's way
 * (docs/accounts.md "Error answers in the SPA"): a 400 with `paymentId` goes to the
 * payment-confirmation page (docs/adr/0026-billing-in-the-spa.md "Billing in the SPA", returning to
 * this tab), a 422 puts errors on `formFields`, anything else sets one message.
 *
 * @param teamId     the team path's id, or undefined for the user paths.
 * @param formFields the fields the form shows, in display order.
 * @param onDone     told the team's billing after a success.
 * @param setError   a react-hook-form form's `setError`: a 422's errors of `formFields` go on
 *   the form's fields (`applyServerErrors`, which focuses the first) instead of `errors`.
 * @returns `run(name, call)`, which resolves true on success; `pending` names the call under
 *   way (for "Switching…", "Resuming…" labels, docs/billing.md "Flows"); `errors` and `message` the
 *   outcome.
 */
export function useBillingAction<T extends FieldValues = FieldValues>(
  teamId: string | undefined,
  formFields: readonly string[],
  onDone: (view: SubscriptionView) => void,
  setError?: UseFormSetError<T>,
) {
  const navigate = useNavigate();
  const [pending, setPending] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);

  async function run(name: string, call: () => Promise<SubscriptionView>): Promise<boolean> {
    if (pending) return false;
    setPending(name);
    setErrors({});
    setMessage(null);
    try {
      onDone(await call());
      return true;
    } catch (error) {
      const failure = subscriptionFailure(error, formFields);
      if (failure.kind === 'payment') {
        navigate(paymentConfirmationPath(failure.paymentId, subscriptionTabPath(teamId)));
      } else if (failure.kind === 'fields' && setError) {
        const fields = formFields as readonly Path<T>[];
        setMessage(applyServerErrors(setError, error, fields, { formLevel: false }).message);
      } else if (failure.kind === 'fields') {
        setErrors(failure.errors);
        setMessage(failure.message);
      } else {
        setMessage(failure.message || null);
      }
      return false;
    } finally {
      setPending(null);
    }
  }

  /** Forgets the outcome (a form closed or changed). */
  function reset() {
    setErrors({});
    setMessage(null);
  }

  return { run, pending, errors, message, reset };
}
