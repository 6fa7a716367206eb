/**
 * Data hooks of the billing screens: the visitor's country, a coupon from the address bar, and
 * the VAT preview. Each is a cached query (queryKeys.billing) and never throws into the page: a
 * failure becomes a state the screen shows.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { isVatCountry, type CouponLookupResponse, type TaxRateResponse } from '#shared/billing.ts';
import { isApiError } from '../../api/client.ts';
import { queryKeys } from '../../state/queryKeys.ts';
import { fetchVisitorCountry, lookupCoupon, previewTax } from './api.ts';
import type { BillingDetails } from './billingDetails.ts';
import { billingRequest } from './billingDetails.ts';
import { defaultCountry } from './countries.ts';

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/**
 * The billing country to start with (`GET /geocode/country`, docs/billing.md "Flows"): undefined
 * while asking, then the visitor's country or US (docs/accounts.md "Constants") when unknown or the
 * call failed. Asked once a page load.
 */
export function useVisitorCountry(): string | undefined {
  const read = useQuery({
    queryKey: queryKeys.billing.country,
    queryFn: ({ signal }) =>
      fetchVisitorCountry(signal).then(
        (code) => defaultCountry(code),
        (error: unknown) => {
          if (isAbort(error)) throw error;
          console.warn('GET /geocode/country failed; the billing country starts as US.', error);
          return defaultCountry(undefined);
        },
      ),
    staleTime: Infinity,
  });
  return read.data;
}

export type CouponState =
  | { state: 'none' }
  | { state: 'checking'; code: string }
  | { state: 'valid'; code: string; coupon: CouponLookupResponse }
  /** docs/accounts.md "Validation rules": "Invalid coupon … sets an invalid flag". */
  | { state: 'invalid'; code: string }
  /** The lookup itself failed: the server decides when the code is sent. */
  | { state: 'unknown'; code: string; message: string };

/**
 * `GET /coupon/{code}` for the code in the address bar (docs/adr/0026-billing-in-the-spa.md
 * "Billing in the SPA", docs/billing.md "Flows"), cached per code: a new code reads as `checking`
 * at once.
 */
export function useCouponLookup(code: string | undefined): CouponState {
  const read = useQuery({
    queryKey: queryKeys.billing.coupon(code ?? ''),
    queryFn: ({ signal }) => lookupCoupon(code ?? '', signal),
    enabled: Boolean(code),
  });
  if (!code) return { state: 'none' };
  if (read.isError) {
    const error = read.error;
    const message = isApiError(error) ? error.message : 'The coupon could not be checked.';
    return { state: 'unknown', code, message };
  }
  if (!read.data) return { state: 'checking', code };
  return read.data.valid ? { state: 'valid', code, coupon: read.data } : { state: 'invalid', code };
}

export type TaxPreviewState =
  | { state: 'none' }
  | { state: 'loading' }
  | { state: 'ready'; tax: TaxRateResponse }
  | { state: 'error'; message: string };

/** Wait after the last keystroke before asking for a tax preview (ms). */
export const TAX_PREVIEW_DELAY_MS = 600;

/**
 * `POST /tax-rate` for the billing details and plan (docs/billing.md "Flows": "used for VAT for EU
 * countries and GB"): asked only for a VAT country (docs/accounts.md "Constants"), {@link
 * TAX_PREVIEW_DELAY_MS} after the last change; `none` elsewhere.
 *
 * @param values   the billing form.
 * @param fallbackCountry the country when the form has none yet.
 * @param planId   the plan priced, or undefined (the rate alone).
 * @param enabled  false while no paid plan is chosen: nothing is asked.
 */
export function useTaxPreview(
  values: BillingDetails,
  fallbackCountry: string,
  planId: string | undefined,
  enabled = true,
): TaxPreviewState {
  const request = billingRequest(values, fallbackCountry);
  const key = JSON.stringify([request.country, request.zip, request.vat_id, planId]);
  const vat = enabled && isVatCountry(request.country);
  // The request asked for: the key once it has stayed unchanged for the delay.
  const [settled, setSettled] = useState<string>();
  useEffect(() => {
    if (!vat) return;
    const timer = window.setTimeout(() => setSettled(key), TAX_PREVIEW_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [key, vat]);
  const read = useQuery({
    queryKey: queryKeys.billing.tax(key),
    queryFn: ({ signal }) => {
      // The request again, from the key (JSON writes undefined as null).
      const [country, zip, vatId, plan] = JSON.parse(key) as (string | null)[];
      return previewTax({ country: country ?? undefined, zip, vat_id: vatId, plan }, signal);
    },
    enabled: vat && settled === key,
    // One request, one answer: asked again only for another request.
    staleTime: Infinity,
  });
  if (!vat) return { state: 'none' };
  if (read.isError) {
    const error = read.error;
    const message = isApiError(error)
      ? (Object.values(error.errors ?? {}).flat()[0] ?? error.message)
      : 'The VAT could not be worked out.';
    return { state: 'error', message };
  }
  return read.data ? { state: 'ready', tax: read.data } : { state: 'loading' };
}
