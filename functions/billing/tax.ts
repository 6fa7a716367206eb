/**
 * `POST /tax-rate` (docs/billing.md "Flows"; docs/accounts.md "Constants" EU VAT list): the VAT a
 * billing address (and VAT id) would pay on a plan, previewed with Stripe Tax
 * (`invoices.createPreview` with `automatic_tax.enabled` and the customer details). Countries
 * outside the list answer 0 without a Stripe call.
 */
import {
  BILLING_MESSAGES,
  isVatCountry,
  type TaxRateRequest,
  type TaxRateResponse,
} from '#shared/billing.ts';
import { billingOnline } from '#lib/config.ts';
import { validationFailed } from '#lib/errors.ts';
import { stripe } from '#lib/stripe.ts';
import { taxIdType } from './customers.ts';
import { planById, priceIdOf } from './plans.ts';

const ZERO = (vatCountry: boolean): TaxRateResponse => ({
  rate: 0,
  amount: 0,
  currency: null,
  vat_country: vatCountry,
  reverse_charge: false,
});

/**
 * The tax preview for an address.
 * @param request country (ISO alpha-2, required), optional address fields, VAT id and plan.
 * @returns `rate` in percent and `amount` in cents on one interval of the plan (one seat).
 * @throws AppError 422 on `country` offline for a VAT country ('Invalid Stripe Key/Secret'),
 *   on `vat_id` for an id Stripe refuses; Stripe errors (mapped by the caller).
 */
export async function previewTaxRate(
  request: Omit<TaxRateRequest, 'country'> & { country: string },
): Promise<TaxRateResponse> {
  const vatCountry = isVatCountry(request.country);
  if (!vatCountry) return ZERO(false);
  if (!billingOnline()) throw validationFailed({ country: [BILLING_MESSAGES.invalidStripeKey] });
  const plan = request.plan ? planById(request.plan) : undefined;
  const priceId =
    (plan && plan.price > 0 ? priceIdOf(plan.planId) : undefined) ??
    // Without a plan the rate is still wanted: the cheapest paid plan stands in.
    priceIdOf('starter-monthly') ??
    priceIdOf('pro-monthly');
  if (!priceId) return ZERO(true);
  const vatType = taxIdType(request.country);
  const vatId = request.vat_id?.trim();
  const preview = await stripe().invoices.createPreview({
    automatic_tax: { enabled: true },
    customer_details: {
      address: {
        country: request.country,
        ...(request.zip ? { postal_code: request.zip } : {}),
        ...(request.state ? { state: request.state } : {}),
        ...(request.city ? { city: request.city } : {}),
        ...(request.address ? { line1: request.address } : {}),
      },
      ...(vatId && vatType ? { tax_ids: [{ type: vatType, value: vatId }] } : {}),
    },
    subscription_details: { items: [{ price: priceId, quantity: 1 }] },
  });
  const taxes = preview.total_taxes ?? [];
  const amount = taxes.reduce((sum, t) => sum + t.amount, 0);
  const reverseCharge = taxes.some((t) => t.taxability_reason === 'reverse_charge');
  // The rate is the tax over what it was charged on (one tax line for VAT).
  const taxable = Math.max(0, ...taxes.map((t) => t.taxable_amount ?? 0));
  const rate = taxable > 0 ? Math.round((amount / taxable) * 10000) / 100 : 0;
  return {
    rate,
    amount: plan && plan.price > 0 ? amount : 0,
    currency: preview.currency,
    vat_country: true,
    reverse_charge: reverseCharge,
  };
}
