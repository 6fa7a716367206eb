/**
 * The billing details a paid plan needs (docs/billing.md; address, address_line_2, city,
 * state, zip, country (default US), vat_id), as the forms hold them and as the API takes them
 * (`BillingAddressSchema` and `vat_id` in shared/contract/billing.ts).
 */
import { z } from 'zod';
import {
  BillingAddressSchema,
  TaxRateRequestSchema,
  isVatCountry,
  type BillingAddress,
  type BillingAddressView,
} from '#shared/billing.ts';

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

/** docs/accounts.md "Validation rules": an empty required input when moving forward. */
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

/** A text field's server rule (trimmed, its length limit) from the route's body schema. */
const serverText = (field: 'address' | 'address_line_2' | 'city' | 'state' | 'zip') =>
  BillingAddressSchema.shape[field].unwrap().unwrap();

/** A required field: {@link EMPTY_FIELD_MESSAGE} when blank, then the server's rule. */
const requiredText = (field: 'address' | 'city' | 'zip') =>
  z.string().trim().min(1, EMPTY_FIELD_MESSAGE).pipe(serverText(field));

/**
 * The billing fields of a react-hook-form form (docs/adr/0047-forms.md "Forms"): the server's rules
 * of `BillingAddressSchema` and `vat_id` (trimmed strings, their length limits), with
 * address, city and zip needing a value ({@link EMPTY_FIELD_MESSAGE}: a paid plan cannot go
 * without them, as Stripe Tax needs an address it can place). `country` may be
 * '' (not chosen: the request takes the geocoded default, see {@link billingRequest}).
 */
export const BillingDetailsSchema = z.object({
  address: requiredText('address'),
  address_line_2: serverText('address_line_2'),
  city: requiredText('city'),
  state: serverText('state'),
  zip: requiredText('zip'),
  country: z.string(),
  vat_id: TaxRateRequestSchema.shape.vat_id.unwrap().unwrap(),
}) satisfies z.ZodType<BillingDetails>;

/**
 * The request fields for the values: trimmed, blanks left out, and the VAT id only for a
 * country where VAT applies (docs/accounts.md "Constants"), so a VAT id typed before switching to a
 * non-VAT country is not sent.
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
