import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe } from '@stripe/stripe-js';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import type { PaymentLookupResponse } from '#shared/billing.ts';
import { ApiError, GENERIC_ERROR_MESSAGE, isApiError } from '../api/client.ts';
import { Notice } from '../components/Notice.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { lookupPayment } from '../features/billing/api.ts';
import { formatMoney } from '../lib/format.ts';
import { safeRedirect } from '../features/billing/redirect.ts';
import { stripeFor } from '../features/billing/stripe.ts';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { loadFailure } from '../state/queryClient.ts';
import { queryKeys } from '../state/queryKeys.ts';
import { SignedInOnly } from '../components/SignedInOnly.tsx';
import '../features/billing/billing.css';

/**
 * The payment-confirmation page at `/{cashierPath}/payment/{paymentId}?redirect=…`
 * (docs/accounts.md "Screens"; docs/billing.md "Flows": "A 400 on subscribing or plan change
 * redirects to the payment-confirmation page"). It reads the PaymentIntent (`GET` the same path as
 * XHR), lets the user confirm it with Stripe (3-D Secure through `confirmCardPayment`, or a new
 * card through the Payment Element when the first one was refused), then returns to `redirect` when
 * it is a path on this site (else the subscription settings).
 */
export function PaymentConfirmationPage() {
  useDocumentTitle('Confirm your payment');
  return (
    <SignedInOnly>
      <PaymentConfirmation />
    </SignedInOnly>
  );
}

/**
 * The payment to confirm; a 422's field message (offline: 'Invalid Stripe Key/Secret') becomes
 * the error shown, as it says more than the answer's general message.
 * @throws ApiError as `lookupPayment` does.
 */
async function loadPayment(paymentId: string, signal: AbortSignal) {
  try {
    return await lookupPayment(paymentId, signal);
  } catch (error) {
    const first = isApiError(error) ? Object.values(error.errors ?? {}).flat()[0] : undefined;
    if (isApiError(error) && first) throw new ApiError(error.status, first);
    throw error;
  }
}

function PaymentConfirmation() {
  const { paymentId = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const back = safeRedirect(params.get('redirect'), window.location.origin);
  const payment = useQuery({
    queryKey: queryKeys.billing.payment(paymentId),
    queryFn: ({ signal }) => loadPayment(paymentId, signal),
  });
  const [done, setDone] = useState(false);

  return (
    <div className="container container--narrow stack">
      <section className="card auth-card stack" aria-labelledby="payment-title">
        <h1 id="payment-title" className="page-title">
          Confirm your payment
        </h1>
        {payment.isPending && (
          <p className="muted" role="status">
            <Spinner /> Loading the payment…
          </p>
        )}
        {payment.isError && (
          <Notice tone="error" title="This payment cannot be confirmed here">
            {loadFailure(payment.error)}
          </Notice>
        )}
        {payment.data && (
          <>
            <p className="payment-amount">
              {formatMoney(payment.data.amount, payment.data.currency)}
            </p>
            {payment.data.description && <p className="muted">{payment.data.description}</p>}
            {payment.data.completed || done ? (
              <Notice tone="success" title="Payment confirmed">
                Thank you. Your subscription is up to date.
              </Notice>
            ) : (
              <ConfirmPayment payment={payment.data} onConfirmed={() => setDone(true)} />
            )}
          </>
        )}
        <div className="form-actions">
          {payment.data && (payment.data.completed || done) ? (
            <button type="button" className="button" onClick={() => navigate(back)}>
              Continue
            </button>
          ) : (
            <Link to={back}>Back to the settings</Link>
          )}
        </div>
      </section>
    </div>
  );
}

/**
 * The confirm step: loads Stripe.js with the payment's publishable key (never without one),
 * then confirms. While the PaymentIntent needs a new payment method, a Payment Element takes it.
 */
function ConfirmPayment({
  payment,
  onConfirmed,
}: {
  payment: PaymentLookupResponse;
  onConfirmed: () => void;
}) {
  const stripe = useQuery({
    queryKey: queryKeys.billing.stripe(payment.publishableKey),
    queryFn: () => stripeFor(payment.publishableKey),
    // Loaded once per page (stripeFor keeps it); the object is Stripe's, not data to compare.
    staleTime: Infinity,
    structuralSharing: false,
  });
  if (stripe.isPending) {
    return (
      <p className="muted" role="status">
        <Spinner /> Loading the secure payment form…
      </p>
    );
  }
  if (stripe.isError) return <Notice tone="error">{loadFailure(stripe.error)}</Notice>;
  if (payment.status === 'requires_payment_method') {
    return (
      <Elements stripe={stripe.data} options={{ clientSecret: payment.clientSecret }}>
        <NewPaymentMethod onConfirmed={onConfirmed} />
      </Elements>
    );
  }
  return <ConfirmButton stripe={stripe.data} payment={payment} onConfirmed={onConfirmed} />;
}

/** docs/accounts.md "Error answers in the SPA": "Card setup errors: provider message" shown where the user acted. */
function useConfirmation(onConfirmed: () => void) {
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<string>();
  async function confirm(
    run: () => Promise<{ error?: { message?: string }; paymentIntent?: { status: string } }>,
  ) {
    if (pending) return;
    setPending(true);
    setMessage(undefined);
    try {
      const result = await run();
      if (result.error) setMessage(result.error.message ?? GENERIC_ERROR_MESSAGE);
      else if (
        result.paymentIntent?.status === 'succeeded' ||
        result.paymentIntent?.status === 'processing'
      ) {
        onConfirmed();
      } else setMessage('The payment was not confirmed. Please try again.');
    } catch (error) {
      console.error(error);
      setMessage(GENERIC_ERROR_MESSAGE);
    } finally {
      setPending(false);
    }
  }
  return { pending, message, confirm };
}

function ConfirmButton({
  stripe,
  payment,
  onConfirmed,
}: {
  stripe: Stripe;
  payment: PaymentLookupResponse;
  onConfirmed: () => void;
}) {
  const { pending, message, confirm } = useConfirmation(onConfirmed);
  return (
    <div className="stack">
      <p>Your bank asks you to confirm this payment. Stripe opens its check when you continue.</p>
      {message && <Notice tone="error">{message}</Notice>}
      <button
        type="button"
        className="button"
        aria-disabled={pending}
        onClick={() => void confirm(() => stripe.confirmCardPayment(payment.clientSecret))}
      >
        {pending ? (
          <>
            <Spinner /> Confirming…
          </>
        ) : (
          'Confirm payment'
        )}
      </button>
    </div>
  );
}

function NewPaymentMethod({ onConfirmed }: { onConfirmed: () => void }) {
  const stripe = useStripe();
  const elements = useElements();
  const { pending, message, confirm } = useConfirmation(onConfirmed);
  return (
    <div className="stack">
      <p>The card on file was declined. Enter another card to pay.</p>
      <div className="card-field__element">
        <PaymentElement />
      </div>
      {message && <Notice tone="error">{message}</Notice>}
      <button
        type="button"
        className="button"
        aria-disabled={pending || !stripe || !elements}
        onClick={() => {
          if (!stripe || !elements) return;
          void confirm(() =>
            stripe.confirmPayment({
              elements,
              redirect: 'if_required',
              confirmParams: { return_url: window.location.href },
            }),
          );
        }}
      >
        {pending ? (
          <>
            <Spinner /> Paying…
          </>
        ) : (
          'Pay'
        )}
      </button>
    </div>
  );
}
