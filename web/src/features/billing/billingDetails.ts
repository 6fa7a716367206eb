/**
 * The billing details a paid plan needs (spec 001 §3 Registration form: address,
 * address_line_2, city, state, zip, country (default US), vat_id), as the forms hold them and
 * as the API takes them (`BillingAddressSchema` and `vat_id` in shared/billing.ts).
 */
import { isVatCountry, type BillingAddress, type BillingAddressView } from '#shared/billing.ts';

/** The fields in display order (also the order focus looks for the first invalid one). */
export const BILLING_FIELDS = [
  'address',
  'address_line_2',
  'city',
  'state',
  'zip',
  'country',
  'vat_id',
] as const;
export type BillingField = (typeof BILLING_FIELDS)[number];
export type BillingDetails = Record<BillingField, string>;

export const isBillingField = (field: string): field is BillingField =>
  (BILLING_FIELDS as readonly string[]).includes(field);

/** Fields a paid plan cannot go without (Stripe Tax needs an address it can place). */
export const REQUIRED_BILLING_FIELDS: readonly BillingField[] = ['address', 'city', 'zip'];

/** Spec 001 §5: an empty required input when moving forward. */
export const EMPTY_FIELD_MESSAGE = 'Please enter a value.';

export const EMPTY_BILLING: BillingDetails = {
  address: '',
  address_line_2: '',
  city: '',
  state: '',
  zip: '',
  country: '',
  vat_id: '',
};

/** The form's values from a stored address (`SubscriptionView.billing_address`) and VAT id. */
export function billingDetailsFrom(
  address: BillingAddressView | null,
  vatId: string | null,
): BillingDetails {
  return {
    address: address?.address ?? '',
    address_line_2: address?.address_line_2 ?? '',
    city: address?.city ?? '',
    state: address?.state ?? '',
    zip: address?.zip ?? '',
    country: address?.country ?? '',
    vat_id: vatId ?? '',
  };
}

/**
 * Checks the required fields.
 * @returns {@link EMPTY_FIELD_MESSAGE} for each required field left blank; {} when all is set.
 */
export function checkBillingDetails(values: BillingDetails): Partial<Record<BillingField, string>> {
  const errors: Partial<Record<BillingField, string>> = {};
  for (const field of REQUIRED_BILLING_FIELDS) {
    if (values[field].trim() === '') errors[field] = EMPTY_FIELD_MESSAGE;
  }
  return errors;
}

/**
 * The request fields for the values: trimmed, blanks left out, and the VAT id only for a
 * country where VAT applies (spec 001 §9), so a VAT id typed before switching to a non-VAT
 * country is not sent.
 *
 * @param fallbackCountry the country when none is chosen yet (the geocoded default).
 */
export function billingRequest(
  values: BillingDetails,
  fallbackCountry: string,
): BillingAddress & { vat_id?: string } {
  const text = (v: string) => (v.trim() === '' ? undefined : v.trim());
  const country = (text(values.country) ?? fallbackCountry).toUpperCase();
  const vatId = isVatCountry(country) ? text(values.vat_id) : undefined;
  const request: BillingAddress & { vat_id?: string } = { country };
  for (const field of ['address', 'address_line_2', 'city', 'state', 'zip'] as const) {
    const value = text(values[field]);
    if (value !== undefined) request[field] = value;
  }
  if (vatId !== undefined) request.vat_id = vatId;
  return request;
}
