/**
 * Data hooks of the billing screens: the visitor's country, a coupon from the address bar, and
 * the VAT preview. Each loads on its own and never throws into the page: a failure becomes a
 * state the screen shows.
 */
import { useEffect, useState } from 'react';
import { isVatCountry, type CouponLookupResponse, type TaxRateResponse } from '#shared/billing.ts';
import { isApiError } from '../../api/client.ts';
import { fetchVisitorCountry, lookupCoupon, previewTax } from './api.ts';
import type { BillingDetails } from './billingDetails.ts';
import { billingRequest } from './billingDetails.ts';
import { defaultCountry } from './countries.ts';

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/**
 * The billing country to start with (`GET /geocode/country`, spec 001 §7): undefined while
 * asking, then the visitor's country or US (spec 001 §9) when unknown or the call failed.
 */
export function useVisitorCountry(): string | undefined {
  const [country, setCountry] = useState<string>();
  useEffect(() => {
    const controller = new AbortController();
    fetchVisitorCountry(controller.signal).then(
      (code) => setCountry(defaultCountry(code)),
      (error: unknown) => {
        if (isAbort(error)) return;
        console.warn('GET /geocode/country failed; the billing country starts as US.', error);
        setCountry(defaultCountry(undefined));
      },
    );
    return () => controller.abort();
  }, []);
  return country;
}

export type CouponState =
  | { state: 'none' }
  | { state: 'checking'; code: string }
  | { state: 'valid'; code: string; coupon: CouponLookupResponse }
  /** Spec 001 §5 "Invalid coupon … sets an invalid flag". */
  | { state: 'invalid'; code: string }
  /** The lookup itself failed: the server decides when the code is sent. */
  | { state: 'unknown'; code: string; message: string };

/** `GET /coupon/{code}` for the code in the address bar (spec 001 §2, §7). */
export function useCouponLookup(code: string | undefined): CouponState {
  // The answer is kept with the code it is for, so a new code reads as `checking` at once.
  const [answer, setAnswer] = useState<{ code: string; result: CouponState }>();
  useEffect(() => {
    if (!code) return;
    const controller = new AbortController();
    lookupCoupon(code, controller.signal).then(
      (coupon) =>
        setAnswer({
          code,
          result: coupon.valid ? { state: 'valid', code, coupon } : { state: 'invalid', code },
        }),
      (error: unknown) => {
        if (isAbort(error)) return;
        console.warn(`GET /coupon/${code} failed`, error);
        const message = isApiError(error) ? error.message : 'The coupon could not be checked.';
        setAnswer({ code, result: { state: 'unknown', code, message } });
      },
    );
    return () => controller.abort();
  }, [code]);
  if (!code) return { state: 'none' };
  return answer?.code === code ? answer.result : { state: 'checking', code };
}

export type TaxPreviewState =
  | { state: 'none' }
  | { state: 'loading' }
  | { state: 'ready'; tax: TaxRateResponse }
  | { state: 'error'; message: string };

/** Wait after the last keystroke before asking for a tax preview (ms). */
export const TAX_PREVIEW_DELAY_MS = 600;

/**
 * `POST /tax-rate` for the billing details and plan (spec 001 §7 "used for VAT for EU
 * countries and GB"): asked only for a VAT country (§9), {@link TAX_PREVIEW_DELAY_MS} after
 * the last change; `none` elsewhere.
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
  // The answer is kept with the request it is for: a changed request reads as `loading` at once.
  const [answer, setAnswer] = useState<{ key: string; result: TaxPreviewState }>();
  useEffect(() => {
    if (!vat) return;
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      // The request again, from the key the effect depends on (JSON writes undefined as null).
      const [country, zip, vatId, plan] = JSON.parse(key) as (string | null)[];
      previewTax(
        { country: country ?? undefined, zip, vat_id: vatId, plan },
        controller.signal,
      ).then(
        (tax) => setAnswer({ key, result: { state: 'ready', tax } }),
        (error: unknown) => {
          if (isAbort(error)) return;
          const message = isApiError(error)
            ? (Object.values(error.errors ?? {}).flat()[0] ?? error.message)
            : 'The VAT could not be worked out.';
          setAnswer({ key, result: { state: 'error', message } });
        },
      );
    }, TAX_PREVIEW_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [key, vat]);
  if (!vat) return { state: 'none' };
  return answer?.key === key ? answer.result : { state: 'loading' };
}
