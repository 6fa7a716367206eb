/**
 * Loading Stripe.js (docs/billing.md"Offline mode"). `@stripe/stripe-js`'s main entry injects
 * `https://js.stripe.com` as soon as it is imported; the `pure` entry loads it only when
 * {@link loadStripe} is called, and this module calls it only with a publishable key. So a
 * server without Stripe keys never makes the browser contact Stripe.
 */
import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { BILLING_MESSAGES } from '#shared/billing.ts';

/** docs/accounts.md "Error answers in the SPA": "Missing payment provider key: 'Invalid Stripe Key/Secret'". */
export const MISSING_STRIPE_KEY_MESSAGE = BILLING_MESSAGES.invalidStripeKey;

/** Shown when Stripe.js does not load (blocked by an extension, no connection). */
export const STRIPE_LOAD_FAILED_MESSAGE =
  'The secure card form could not be loaded. Check your connection, turn off blockers for this site, and try again.';

let loaded: { key: string; promise: Promise<Stripe> } | undefined;

/**
 * Stripe.js for a publishable key, loaded once per page (later calls with the same key share
 * the promise; a failed load is forgotten so the next call tries again).
 *
 * @param publishableKey the server's `pk_…` key, or null/'' in offline mode.
 * @returns the Stripe object.
 * @throws Error({@link MISSING_STRIPE_KEY_MESSAGE}) without a key (nothing is loaded), or
 *   Error({@link STRIPE_LOAD_FAILED_MESSAGE}) when the script cannot be loaded.
 */
export function stripeFor(publishableKey: string | null | undefined): Promise<Stripe> {
  if (!publishableKey) return Promise.reject(new Error(MISSING_STRIPE_KEY_MESSAGE));
  if (loaded?.key === publishableKey) return loaded.promise;
  const promise = loadStripe(publishableKey).then(
    (stripe) => {
      if (!stripe) throw new Error(STRIPE_LOAD_FAILED_MESSAGE);
      return stripe;
    },
    (error: unknown) => {
      console.error('Stripe.js did not load', error);
      throw new Error(STRIPE_LOAD_FAILED_MESSAGE);
    },
  );
  loaded = { key: publishableKey, promise };
  promise.catch(() => {
    if (loaded?.promise === promise) loaded = undefined;
  });
  return promise;
}
