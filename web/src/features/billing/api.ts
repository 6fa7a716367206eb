/**
 * The billing calls (docs/billing.md "Flows": "Registration and lookups", "Subscription and
 * payment") on the typed client: paths, bodies and answers are the routes' contracts
 * (shared/contract/billing.ts, re-exported by shared/billing.ts). Every answer is also parsed with
 * its contract's schema here: an answer of another shape is a failure the screen shows, never data
 * it half-reads.
 *
 * `teamId` picks the team paths (`/settings/companies/{id}/…`); without it the user paths act
 * on the caller's current team (shared/contract/billing.ts conventions).
 */
import type { z } from 'zod';
import {
  BILLING_CONTRACT,
  type ApplyCouponRequest,
  type CancelMetaDataRequest,
  type CancelRequest,
  type CouponLookupResponse,
  type ExtraBillingInformationRequest,
  type Invoice,
  type PaymentLookupResponse,
  type PaymentMethodRequest,
  type SubscribeRequest,
  type SubscriptionAnswer,
  type SubscriptionView,
  type SwapRequest,
  type TaxRateRequest,
  type TaxRateResponse,
  type VatIdRequest,
} from '#shared/billing.ts';
import type { AnswerOf } from '#shared/contract/index.ts';
import { ApiError, call, GENERIC_ERROR_MESSAGE, type CallInput } from '../../api/client.ts';

/** A billing route key. */
type BillingKey = keyof typeof BILLING_CONTRACT;

/**
 * Calls billing route `key` and parses the answer with the route's contract schema.
 * @throws {ApiError} as `call` does, or with status 200 and the generic message when the answer
 *   is not of the contract's shape (the mismatch is logged).
 */
async function billing<K extends BillingKey>(key: K, input: CallInput<K>): Promise<AnswerOf<K>> {
  const answer = await call(key, input);
  const parsed = (BILLING_CONTRACT[key].answer as z.ZodType).safeParse(answer);
  if (!parsed.success) {
    console.error(`${key} answered a shape its contract does not describe`, {
      answer,
      issues: parsed.error.issues,
    });
    throw new ApiError(200, GENERIC_ERROR_MESSAGE);
  }
  return parsed.data as AnswerOf<K>;
}

/** `GET /geocode/country`: the visitor's country code; `ZZ` means unknown (docs/billing.md "Flows"). */
export async function fetchVisitorCountry(signal?: AbortSignal): Promise<string> {
  const { country } = await call('GET /geocode/country', { signal });
  return country.toUpperCase();
}

/**
 * `GET /stripe/key` (public): the publishable key registration's card field needs.
 * @throws {ApiError} 422 'Invalid Stripe Key/Secret' offline.
 */
export const fetchPublishableKey = (signal?: AbortSignal) =>
  billing('GET /stripe/key', { signal }).then((a) => a.publishableKey);

/**
 * `GET /stripe/token[?team_id=]`: a SetupIntent for the team's card (docs/billing.md "Flows":
 * "Saving a card uses a setup-intent step").
 * @throws {ApiError} 422 with `errors.stripe_payment_method` offline.
 */
export const createSetupIntent = (teamId?: string, signal?: AbortSignal) =>
  billing('GET /stripe/token', { query: { team_id: teamId }, signal });

/** `GET /coupon/{code}`: always 200; `valid: false` is the spec's invalid flag (docs/accounts.md "Validation rules"). */
export const lookupCoupon = (code: string, signal?: AbortSignal): Promise<CouponLookupResponse> =>
  billing('GET /coupon/{code}', { params: { code }, signal });

/**
 * `POST /tax-rate`: the VAT rate (percent) and amount (cents, one interval of `plan`) for a
 * billing address (docs/billing.md "Flows", docs/accounts.md "Constants").
 * @throws {ApiError} 422 on `country` ('Invalid Stripe Key/Secret') offline for VAT countries.
 */
export const previewTax = (
  request: TaxRateRequest,
  signal?: AbortSignal,
): Promise<TaxRateResponse> => billing('POST /tax-rate', { body: request, signal });

/** `GET /settings/subscription` or the team variant: the team's billing. */
export const fetchSubscription = (
  teamId: string | undefined,
  signal?: AbortSignal,
): Promise<SubscriptionView> =>
  teamId
    ? billing('GET /settings/companies/{id}/subscription', { params: { id: teamId }, signal })
    : billing('GET /settings/subscription', { signal });

/** `GET /settings/invoices` or the team variant: paid invoices, newest first. */
export const fetchInvoices = (
  teamId: string | undefined,
  signal?: AbortSignal,
): Promise<Invoice[]> =>
  teamId
    ? billing('GET /settings/companies/{id}/invoices', { params: { id: teamId }, signal })
    : billing('GET /settings/invoices', { signal });

/** The team's billing after a change. */
const changed = async (answer: Promise<SubscriptionAnswer>) => (await answer).subscription;

/**
 * `POST …/subscription`: subscribe to a paid plan.
 * @returns the team's billing afterwards.
 * @throws {ApiError} 400 with `paymentId` (3-D Secure), 422 field errors, or another failure.
 */
export const subscribe = (teamId: string | undefined, request: SubscribeRequest) =>
  changed(
    teamId
      ? billing('POST /settings/companies/{id}/subscription', {
          params: { id: teamId },
          body: request,
        })
      : billing('POST /settings/subscription', { body: request }),
  );

/**
 * `PUT …/subscription`: switch plan, resume (same plan on a grace period) or freeze
 * (`plan-freeze`).
 * @throws {ApiError} as {@link subscribe}.
 */
export const swapPlan = (teamId: string | undefined, request: SwapRequest) =>
  changed(
    teamId
      ? billing('PUT /settings/companies/{id}/subscription', {
          params: { id: teamId },
          body: request,
        })
      : billing('PUT /settings/subscription', { body: request }),
  );

/** `DELETE …/subscription`: cancel at the end of the period (grace period). */
export const cancelSubscription = (teamId: string | undefined, request: CancelRequest) =>
  changed(
    teamId
      ? billing('DELETE /settings/companies/{id}/subscription', {
          params: { id: teamId },
          body: request,
        })
      : billing('DELETE /settings/subscription', { body: request }),
  );

/**
 * `PUT /settings/companies/{id}/metaData`: the cancel flow's answers (docs/billing.md "Flows"). A
 * team path only: the caller passes the team's id.
 */
export const saveCancelMetaData = (teamId: string, request: CancelMetaDataRequest) =>
  billing('PUT /settings/companies/{id}/metaData', { params: { id: teamId }, body: request });

/** `PUT …/payment-method`: make the card from the SetupIntent the team's default. */
export const updatePaymentMethod = (teamId: string | undefined, request: PaymentMethodRequest) =>
  changed(
    teamId
      ? billing('PUT /settings/companies/{id}/payment-method', {
          params: { id: teamId },
          body: request,
        })
      : billing('PUT /settings/payment-method', { body: request }),
  );

/**
 * `PUT /settings/companies/{id}/update-payment-method` (docs/adr/0026-billing-in-the-spa.md
 * "Billing in the SPA" card-update page, docs/billing.md "Flows"): the card for a team whose
 * subscription is being cancelled for a failed payment.
 */
export const updateCardOfTeam = (teamId: string, request: PaymentMethodRequest) =>
  changed(
    billing('PUT /settings/companies/{id}/update-payment-method', {
      params: { id: teamId },
      body: request,
    }),
  );

/** `PUT …/payment-method/vat-id`: set or clear (null) the VAT id. */
export const updateVatId = (teamId: string | undefined, request: VatIdRequest) =>
  changed(
    teamId
      ? billing('PUT /settings/companies/{id}/payment-method/vat-id', {
          params: { id: teamId },
          body: request,
        })
      : billing('PUT /settings/payment-method/vat-id', { body: request }),
  );

/** `POST …/payment-method/coupon`: apply a coupon or promotion code. */
export const applyCoupon = (teamId: string | undefined, request: ApplyCouponRequest) =>
  changed(
    teamId
      ? billing('POST /settings/companies/{id}/payment-method/coupon', {
          params: { id: teamId },
          body: request,
        })
      : billing('POST /settings/payment-method/coupon', { body: request }),
  );

/** `PUT /settings/extra-billing-information`: text printed on invoices. */
export const saveExtraBillingInformation = (request: ExtraBillingInformationRequest) =>
  changed(billing('PUT /settings/extra-billing-information', { body: request }));

/**
 * `GET /{cashierPath}/payment/{paymentId}` as XHR: the PaymentIntent to confirm
 * (docs/adr/0026-billing-in-the-spa.md "Billing in the SPA").
 * @throws {ApiError} 404 for an unknown payment, 422 offline.
 */
export const lookupPayment = (
  paymentId: string,
  signal?: AbortSignal,
): Promise<PaymentLookupResponse> =>
  billing('GET /stripe/payment/{id}', { params: { id: paymentId }, signal });
