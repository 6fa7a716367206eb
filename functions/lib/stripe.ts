/**
 * The Stripe SDK client (docs/billing.md; docs/billing.md "Offline mode": "Stripe: the official
 * SDK"), created once per process (cold start) from configuration:
 * - `apiVersion` is the version this SDK release pins (`Stripe.API_VERSION`), so the SDK's
 *   types describe exactly what the API answers;
 * - `maxNetworkRetries` 2 with our own idempotency keys on every create (`idempotencyKey`);
 * - a 20 s timeout per request (Lambda's API timeout is 29 s);
 * - an injectable `Stripe.HttpClient`: tests answer from recorded fixtures through it
 *   (`test/support/stripe.ts`), nothing else is faked.
 *
 * Without `STRIPE_SECRET_KEY` billing is offline (docs/billing.md "Offline mode"): {@link stripe}
 * throws {@link BillingOfflineError}, which routes turn into the spec's 'Invalid Stripe Key/Secret'
 * (docs/accounts.md "Error answers in the SPA") or a free-plan-only answer.
 */
import { createHash } from 'node:crypto';
import Stripe from 'stripe';
import { BILLING_MESSAGES } from '#shared/billing.ts';
import { config, type Config } from './config.ts';

/** Request timeout, ms. */
export const STRIPE_TIMEOUT_MS = 20_000;
/** Automatic retries of failed network calls (with idempotency keys, safe for creates). */
export const STRIPE_MAX_NETWORK_RETRIES = 2;

/** Thrown when a Stripe call is needed while billing is offline (no secret key). */
export class BillingOfflineError extends Error {
  constructor() {
    super(BILLING_MESSAGES.invalidStripeKey);
    this.name = 'BillingOfflineError';
  }
}

let client: Stripe | undefined;
let clientKey: string | undefined;
let injectedHttpClient: Stripe.HttpClient | undefined;

/** Builds a client for a secret key (no caching). */
export function createStripe(secretKey: string, httpClient?: Stripe.HttpClient): Stripe {
  return new Stripe(secretKey, {
    apiVersion: Stripe.API_VERSION,
    maxNetworkRetries: STRIPE_MAX_NETWORK_RETRIES,
    timeout: STRIPE_TIMEOUT_MS,
    telemetry: false,
    appInfo: { name: 'PicSnippets' },
    ...(httpClient ? { httpClient } : {}),
  });
}

/**
 * The process's Stripe client, created on first use from `STRIPE_SECRET_KEY`.
 * @throws BillingOfflineError when no secret key is configured.
 */
export function stripe(c: Config = config()): Stripe {
  const key = c.STRIPE_SECRET_KEY;
  if (key === undefined) throw new BillingOfflineError();
  if (!client || clientKey !== key) {
    client = createStripe(key, injectedHttpClient);
    clientKey = key;
  }
  return client;
}

/** The publishable key for Stripe.js, or undefined offline. */
export const stripePublishableKey = (c: Config = config()): string | undefined =>
  c.STRIPE_SECRET_KEY === undefined ? undefined : c.STRIPE_PUBLISHABLE_KEY;

/**
 * Tests only: route every SDK request through `httpClient` (a `Stripe.HttpClient` subclass that
 * answers from fixtures), or back to the network with undefined. Drops the cached client.
 */
export function setStripeHttpClient(httpClient: Stripe.HttpClient | undefined): void {
  injectedHttpClient = httpClient;
  client = undefined;
  clientKey = undefined;
}

/**
 * An idempotency key for a create or update (Stripe keeps keys 24 h): the operation and its
 * inputs hashed, so a retried request (same inputs, same request id) is not applied twice and a
 * new request with other inputs is never refused as a replay.
 * @param operation e.g. `subscribe`, `customer`.
 * @param parts the inputs that make the call unique (team id, plan, request id, …).
 */
export function idempotencyKey(operation: string, ...parts: Array<string | number | undefined>) {
  const digest = createHash('sha256')
    .update(parts.map((p) => String(p ?? '')).join('\u0000'))
    .digest('base64url')
    .slice(0, 32);
  return `picsnippets-${operation}-${digest}`;
}

export { Stripe };
