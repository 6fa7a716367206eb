import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe, StripeElementsOptions } from '@stripe/stripe-js';
import { useEffect, useId, useState, type RefObject } from 'react';
import { GENERIC_ERROR_MESSAGE, isApiError } from '../../api/client.ts';
import { Spinner } from '../../components/Spinner.tsx';
import { FieldError } from '../../components/TextField.tsx';
import { createSetupIntent, fetchPublishableKey } from './api.ts';
import { stripeFor } from './stripe.ts';
import './billing.css';

/** What a form calls on submit to turn the card typed into a Stripe PaymentMethod id. */
export interface CardCollector {
  /**
   * @returns the PaymentMethod id (`pm_…`) to send as `stripe_payment_method`.
   * @throws CardNotReady when there is no card to take (offline, not loaded, or the card was
   *   refused); the field already shows why, under the card (docs/accounts.md "Error answers in the
   *   SPA").
   */
  collect: () => Promise<string>;
}

/** Thrown by {@link CardCollector.collect}; the card field shows the reason itself. */
export class CardNotReady extends Error {
  override readonly name = 'CardNotReady';
}

/**
 * The card typed into a {@link CardField}, as a PaymentMethod id.
 * @returns the `pm_…` id, or undefined when there is no card to take (the field shows why).
 */
export async function collectCard(
  collectorRef: RefObject<CardCollector | null>,
): Promise<string | undefined> {
  try {
    return await collectorRef.current?.collect();
  } catch (error) {
    if (!(error instanceof CardNotReady)) console.error(error);
    return undefined;
  }
}

/**
 * How the card is taken (docs/billing.md "Flows": "Saving a card uses a setup-intent step"):
 * - `setup-intent`: a signed-in owner; `GET /stripe/token` makes a SetupIntent for the team and
 *   the Payment Element confirms it with `stripe.confirmSetup({ redirect: 'if_required' })`;
 * - `registration`: no account yet, so no customer to set up for; the publishable key comes from
 *   `GET /stripe/key` and the Payment Element creates the PaymentMethod
 *   (`stripe.createPaymentMethod`), which the server attaches when it creates the customer.
 */
export type CardFieldMode = { kind: 'setup-intent'; teamId?: string } | { kind: 'registration' };

type Setup =
  | { state: 'loading' }
  | { state: 'error'; message: string }
  | { state: 'ready'; stripe: Stripe; options: StripeElementsOptions };

/**
 * The card field: Stripe's Payment Element in a labelled group, loaded only when the server has
 * a publishable key (offline it shows 'Invalid Stripe Key/Secret' and loads nothing from
 * Stripe). Provider messages show under the field (docs/accounts.md "Error answers in the SPA");
 * `errors` adds the server's (422 on `stripe_payment_method`).
 *
 * @param collectorRef set to a {@link CardCollector} once the field can take a card, null before.
 */
export function CardField({
  mode,
  label = 'Card',
  collectorRef,
  errors,
}: {
  mode: CardFieldMode;
  label?: string;
  collectorRef: RefObject<CardCollector | null>;
  errors?: readonly string[];
}) {
  const ids = { label: useId(), error: useId() };
  const [attempt, setAttempt] = useState(0);
  const teamId = mode.kind === 'setup-intent' ? mode.teamId : undefined;
  // The setup is kept with what it was made for: a new team or a retry reads as loading at once.
  const setupKey = `${mode.kind}/${teamId ?? ''}/${attempt}`;
  const [answer, setAnswer] = useState<{ key: string; setup: Setup }>();
  const setup: Setup = answer?.key === setupKey ? answer.setup : { state: 'loading' };

  useEffect(() => {
    const controller = new AbortController();
    const kind = setupKey.split('/')[0];
    (async (): Promise<Setup> => {
      if (kind === 'registration') {
        const key = await fetchPublishableKey(controller.signal);
        const options: StripeElementsOptions = {
          mode: 'setup',
          currency: 'usd',
          paymentMethodCreation: 'manual',
          appearance: APPEARANCE,
        };
        return { state: 'ready', stripe: await stripeFor(key), options };
      }
      const intent = await createSetupIntent(teamId, controller.signal);
      const options: StripeElementsOptions = {
        clientSecret: intent.clientSecret,
        appearance: APPEARANCE,
      };
      return { state: 'ready', stripe: await stripeFor(intent.publishableKey), options };
    })().then(
      (next) => {
        if (!controller.signal.aborted) setAnswer({ key: setupKey, setup: next });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setAnswer({ key: setupKey, setup: { state: 'error', message: setupMessage(error) } });
      },
    );
    return () => controller.abort();
  }, [setupKey, teamId]);

  const shownErrors = errors && errors.length > 0 ? errors : undefined;
  return (
    <div
      className="field card-field"
      role="group"
      aria-labelledby={ids.label}
      aria-describedby={shownErrors ? ids.error : undefined}
    >
      <span id={ids.label} className="field__label">
        {label}
      </span>
      {setup.state === 'loading' && (
        <p className="card-field__box card-field__box--status muted" role="status">
          <Spinner /> Loading the secure card form…
        </p>
      )}
      {setup.state === 'error' && (
        <div className="card-field__box card-field__box--error">
          <FieldError id={`${ids.error}-setup`} errors={[setup.message]} />
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={() => setAttempt((a) => a + 1)}
          >
            Try again
          </button>
        </div>
      )}
      {setup.state === 'ready' && (
        <Elements stripe={setup.stripe} options={setup.options}>
          <PaymentElementBody mode={mode} collectorRef={collectorRef} />
        </Elements>
      )}
      {shownErrors && <FieldError id={ids.error} errors={shownErrors} />}
    </div>
  );
}

/** The Payment Element's look: this app's brand colour and radius (styles.css tokens). */
const APPEARANCE: StripeElementsOptions['appearance'] = {
  theme: 'stripe',
  variables: { colorPrimary: '#4338ca', borderRadius: '6px' },
};

/** The message for a failed setup: the server's field error or message ('Invalid Stripe Key/Secret' offline). */
function setupMessage(error: unknown): string {
  if (isApiError(error)) return Object.values(error.errors ?? {}).flat()[0] ?? error.message;
  if (error instanceof Error && error.message) return error.message;
  console.error(error);
  return GENERIC_ERROR_MESSAGE;
}

function PaymentElementBody({
  mode,
  collectorRef,
}: {
  mode: CardFieldMode;
  collectorRef: RefObject<CardCollector | null>;
}) {
  const stripe = useStripe();
  const elements = useElements();
  const [message, setMessage] = useState<string>();
  const errorId = useId();

  useEffect(() => {
    if (!stripe || !elements) return;
    const fail = (text: string | undefined): never => {
      setMessage(text || GENERIC_ERROR_MESSAGE);
      throw new CardNotReady(text || GENERIC_ERROR_MESSAGE);
    };
    collectorRef.current = {
      collect: async () => {
        setMessage(undefined);
        if (mode.kind === 'registration') {
          const submitted = await elements.submit();
          if (submitted.error) return fail(submitted.error.message);
          const created = await stripe.createPaymentMethod({ elements });
          if (created.error) return fail(created.error.message);
          return created.paymentMethod.id;
        }
        const confirmed = await stripe.confirmSetup({
          elements,
          redirect: 'if_required',
          // Only redirect-based methods come back here; cards finish in place.
          confirmParams: { return_url: window.location.href },
        });
        if (confirmed.error) return fail(confirmed.error.message);
        const method = confirmed.setupIntent.payment_method;
        if (!method) return fail(undefined);
        return typeof method === 'string' ? method : method.id;
      },
    };
    return () => {
      collectorRef.current = null;
    };
  }, [stripe, elements, mode.kind, collectorRef]);

  return (
    <div className="card-field__element">
      <PaymentElement
        options={{ layout: 'tabs' }}
        onChange={() => setMessage(undefined)}
        onLoadError={(event) => setMessage(event.error.message ?? GENERIC_ERROR_MESSAGE)}
      />
      {message && (
        <div role="alert">
          <FieldError id={errorId} errors={[message]} />
        </div>
      )}
    </div>
  );
}
