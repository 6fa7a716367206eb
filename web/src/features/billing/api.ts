/**
 * The billing calls (spec 001 §7 "Registration and lookups", "Subscription and payment"), typed
 * and checked against the contract in `shared/billing.ts`. Every answer is parsed with its zod
 * schema: an answer of another shape is a failure the screen shows, never data it half-reads.
 *
 * `teamId` picks the team paths (`/settings/companies/{id}/…`); without it the user paths act
 * on the caller's current team (shared/billing.ts conventions).
 */
import type { z } from 'zod';
import {
  CouponLookupResponseSchema,
  InvoicesResponseSchema,
  PaymentLookupResponseSchema,
  StripeKeyResponseSchema,
  StripeTokenResponseSchema,
  SubscriptionAnswerSchema,
  SubscriptionViewSchema,
  SuccessAnswerSchema,
  TaxRateResponseSchema,
  billingPaths,
  paymentConfirmationPath,
  type ApplyCouponRequest,
  type CancelMetaDataRequest,
  type CancelRequest,
  type CouponLookupResponse,
  type ExtraBillingInformationRequest,
  type Invoice,
  type PaymentLookupResponse,
  type PaymentMethodRequest,
  type SubscribeRequest,
  type SubscriptionView,
  type SwapRequest,
  type TaxRateRequest,
  type TaxRateResponse,
  type VatIdRequest,
} from '#shared/billing.ts';
import { api, ApiError, GENERIC_ERROR_MESSAGE, type HttpMethod } from '../../api/client.ts';

/**
 * Calls `path` and parses the answer with `schema`.
 * @throws {ApiError} as {@link api} does, or with the answer's status 200 and the generic
 *   message when the answer is not of the contract's shape (the mismatch is logged).
 */
async function call<S extends z.ZodType>(
  schema: S,
  method: HttpMethod,
  path: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<z.infer<S>> {
  const answer = await api<unknown>(method, path, body, { signal });
  const parsed = schema.safeParse(answer);
  if (!parsed.success) {
    console.error(`${method} ${path} answered a shape shared/billing.ts does not describe`, {
      answer,
      issues: parsed.error.issues,
    });
    throw new ApiError(200, GENERIC_ERROR_MESSAGE);
  }
  return parsed.data;
}

const enc = encodeURIComponent;

/** `GET /geocode/country`: the visitor's country code; `ZZ` means unknown (spec 001 §7). */
export async function fetchVisitorCountry(signal?: AbortSignal): Promise<string> {
  const body = await api<{ country?: unknown }>('GET', '/geocode/country', undefined, { signal });
  return typeof body?.country === 'string' ? body.country.toUpperCase() : 'ZZ';
}

/**
 * `GET /stripe/key` (public): the publishable key registration's card field needs.
 * @throws {ApiError} 422 'Invalid Stripe Key/Secret' offline.
 */
export const fetchPublishableKey = (signal?: AbortSignal) =>
  call(StripeKeyResponseSchema, 'GET', '/stripe/key', undefined, signal).then(
    (a) => a.publishableKey,
  );

/**
 * `GET /stripe/token[?team_id=]`: a SetupIntent for the team's card (spec 001 §4 "Saving a card
 * uses a setup-intent step").
 * @throws {ApiError} 422 with `errors.stripe_payment_method` offline.
 */
export const createSetupIntent = (teamId?: string, signal?: AbortSignal) =>
  call(
    StripeTokenResponseSchema,
    'GET',
    teamId ? `/stripe/token?team_id=${enc(teamId)}` : '/stripe/token',
    undefined,
    signal,
  );

/** `GET /coupon/{code}`: always 200; `valid: false` is the spec's invalid flag (§5). */
export const lookupCoupon = (code: string, signal?: AbortSignal): Promise<CouponLookupResponse> =>
  call(CouponLookupResponseSchema, 'GET', `/coupon/${enc(code)}`, undefined, signal);

/**
 * `POST /tax-rate`: the VAT rate (percent) and amount (cents, one interval of `plan`) for a
 * billing address (spec 001 §7, §9).
 * @throws {ApiError} 422 on `country` ('Invalid Stripe Key/Secret') offline for VAT countries.
 */
export const previewTax = (
  request: TaxRateRequest,
  signal?: AbortSignal,
): Promise<TaxRateResponse> => call(TaxRateResponseSchema, 'POST', '/tax-rate', request, signal);

/** `GET /settings/subscription` or the team variant: the team's billing. */
export const fetchSubscription = (
  teamId: string | undefined,
  signal?: AbortSignal,
): Promise<SubscriptionView> =>
  call(SubscriptionViewSchema, 'GET', billingPaths(teamId).subscription, undefined, signal);

/** `GET /settings/invoices` or the team variant: paid invoices, newest first. */
export const fetchInvoices = (
  teamId: string | undefined,
  signal?: AbortSignal,
): Promise<Invoice[]> =>
  call(InvoicesResponseSchema, 'GET', billingPaths(teamId).invoices, undefined, signal);

const changed = (method: HttpMethod, path: string, body: unknown) =>
  call(SubscriptionAnswerSchema, method, path, body).then((a) => a.subscription);

/**
 * `POST …/subscription`: subscribe to a paid plan.
 * @returns the team's billing afterwards.
 * @throws {ApiError} 400 with `paymentId` (3-D Secure), 422 field errors, or another failure.
 */
export const subscribe = (teamId: string | undefined, request: SubscribeRequest) =>
  changed('POST', billingPaths(teamId).subscription, request);

/**
 * `PUT …/subscription`: switch plan, resume (same plan on a grace period) or freeze
 * (`plan-freeze`).
 * @throws {ApiError} as {@link subscribe}.
 */
export const swapPlan = (teamId: string | undefined, request: SwapRequest) =>
  changed('PUT', billingPaths(teamId).subscription, request);

/** `DELETE …/subscription`: cancel at the end of the period (grace period). */
export const cancelSubscription = (teamId: string | undefined, request: CancelRequest) =>
  changed('DELETE', billingPaths(teamId).subscription, request);

/**
 * `PUT /settings/companies/{id}/metaData`: the cancel flow's answers (spec 001 §7). A team path
 * only: the caller passes the team's id.
 */
export const saveCancelMetaData = (teamId: string, request: CancelMetaDataRequest) =>
  call(SuccessAnswerSchema, 'PUT', `/settings/companies/${enc(teamId)}/metaData`, request);

/** `PUT …/payment-method`: make the card from the SetupIntent the team's default. */
export const updatePaymentMethod = (teamId: string | undefined, request: PaymentMethodRequest) =>
  changed('PUT', billingPaths(teamId).paymentMethod, request);

/**
 * `PUT /settings/companies/{id}/update-payment-method` (spec 001 §2 card-update page, §7): the
 * card for a team whose subscription is being cancelled for a failed payment.
 */
export const updateCardOfTeam = (teamId: string, request: PaymentMethodRequest) =>
  changed('PUT', `/settings/companies/${enc(teamId)}/update-payment-method`, request);

/** `PUT …/payment-method/vat-id`: set or clear (null) the VAT id. */
export const updateVatId = (teamId: string | undefined, request: VatIdRequest) =>
  changed('PUT', billingPaths(teamId).vatId, request);

/** `POST …/payment-method/coupon`: apply a coupon or promotion code. */
export const applyCoupon = (teamId: string | undefined, request: ApplyCouponRequest) =>
  changed('POST', billingPaths(teamId).coupon, request);

/** `PUT /settings/extra-billing-information`: text printed on invoices. */
export const saveExtraBillingInformation = (request: ExtraBillingInformationRequest) =>
  changed('PUT', '/settings/extra-billing-information', request);

/**
 * `GET /{cashierPath}/payment/{paymentId}` as XHR: the PaymentIntent to confirm (spec 001 §2).
 * @throws {ApiError} 404 for an unknown payment, 422 offline.
 */
export const lookupPayment = (
  paymentId: string,
  signal?: AbortSignal,
): Promise<PaymentLookupResponse> =>
  call(PaymentLookupResponseSchema, 'GET', paymentConfirmationPath(paymentId), undefined, signal);
