import { isVatCountry } from '#shared/billing.ts';
import { Spinner } from '../../components/Spinner.tsx';
import { FieldError, TextField } from '../../components/TextField.tsx';
import type { BillingDetails, BillingField } from './billingDetails.ts';
import { countryOptions } from './countries.ts';
import { formatMoney, perInterval } from './format.ts';
import type { TaxPreviewState } from './hooks.ts';
import './billing.css';

/** Element ids of the billing fields, so a page can move focus to one with an error. */
export type BillingFieldIds = Record<BillingField, string>;

/** Ids for the billing fields under `base` (a `useId()` value). */
export const billingFieldIds = (base: string): BillingFieldIds => ({
  address: `${base}-address`,
  address_line_2: `${base}-address-line-2`,
  city: `${base}-city`,
  state: `${base}-state`,
  zip: `${base}-zip`,
  country: `${base}-country`,
  vat_id: `${base}-vat-id`,
});

type AddressTextField = Exclude<BillingField, 'country' | 'vat_id'>;

/** The address's text fields: label, autocomplete token (after `billing`), optional or not. */
const ADDRESS_TEXT_FIELDS: Record<
  AddressTextField,
  { label: string; autoComplete: string; optional?: true }
> = {
  address: { label: 'Address', autoComplete: 'address-line1' },
  address_line_2: { label: 'Address line 2', autoComplete: 'address-line2', optional: true },
  city: { label: 'City', autoComplete: 'address-level2' },
  state: { label: 'State', autoComplete: 'address-level1', optional: true },
  zip: { label: 'ZIP or postal code', autoComplete: 'postal-code' },
};

/**
 * The billing address (spec 001 §3: address, address_line_2, city, state, zip, country default
 * US) and, for a country where VAT applies (§9, EU and GB), the VAT id. Shows the errors it is
 * given.
 *
 * @param country the country shown when the form has none (the geocoded default), or
 *   undefined while it is being found.
 */
export function BillingAddressFields({
  ids,
  values,
  country,
  errors,
  onChange,
}: {
  ids: BillingFieldIds;
  values: BillingDetails;
  country: string | undefined;
  errors: Partial<Record<BillingField, readonly string[]>>;
  onChange: (field: BillingField, value: string) => void;
}) {
  const chosen = values.country || country || '';
  const countryErrors = errors.country;
  const text = (field: AddressTextField) => {
    const spec = ADDRESS_TEXT_FIELDS[field];
    return (
      <TextField
        id={ids[field]}
        label={spec.label}
        name={field}
        autoComplete={`billing ${spec.autoComplete}`}
        autoCapitalize={field === 'zip' ? 'characters' : 'words'}
        required={!spec.optional}
        maxLength={field === 'zip' ? 32 : 255}
        value={values[field]}
        errors={errors[field]}
        onChange={(v) => onChange(field, v)}
      />
    );
  };
  return (
    <fieldset className="fieldset billing-address">
      <legend className="field__label billing-address__legend">Billing address</legend>
      {text('address')}
      {text('address_line_2')}
      <div className="billing-address__row">
        {text('city')}
        {text('state')}
      </div>
      <div className="billing-address__row">
        {text('zip')}
        <div className="field">
          <label htmlFor={ids.country} className="field__label">
            Country
          </label>
          <select
            id={ids.country}
            name="country"
            className="input input--select"
            autoComplete="billing country"
            value={chosen}
            disabled={chosen === ''}
            aria-invalid={countryErrors ? true : undefined}
            aria-describedby={countryErrors ? `${ids.country}-error` : undefined}
            onChange={(event) => onChange('country', event.target.value)}
          >
            {chosen === '' && <option value="">Finding your country…</option>}
            {countryOptions().map((option) => (
              <option key={option.code} value={option.code}>
                {option.name}
              </option>
            ))}
          </select>
          {countryErrors && <FieldError id={`${ids.country}-error`} errors={countryErrors} />}
        </div>
      </div>
      {isVatCountry(chosen) && (
        <TextField
          id={ids.vat_id}
          label="VAT ID"
          name="vat_id"
          autoComplete="off"
          required={false}
          maxLength={64}
          hint="For businesses: your VAT number with its country prefix, e.g. DE123456789."
          value={values.vat_id}
          errors={errors.vat_id}
          onChange={(v) => onChange('vat_id', v.toUpperCase())}
        />
      )}
    </fieldset>
  );
}

/**
 * The VAT line under the billing address (spec 001 §7 `POST /tax-rate`, §9): the rate and the
 * amount added per interval, the reverse charge for a valid VAT id, or why it is unknown.
 * Nothing for countries without VAT.
 */
export function TaxPreview({
  preview,
  interval,
}: {
  preview: TaxPreviewState;
  interval: 'monthly' | 'yearly' | undefined;
}) {
  if (preview.state === 'none') return null;
  return (
    <p className="tax-preview" role="status">
      {preview.state === 'loading' && (
        <>
          <Spinner /> Working out the VAT…
        </>
      )}
      {preview.state === 'error' && (
        <span className="tax-preview__error">VAT cannot be worked out: {preview.message}</span>
      )}
      {preview.state === 'ready' &&
        (preview.tax.reverse_charge ? (
          'Reverse charge: no VAT is added; your VAT ID is valid.'
        ) : (
          <>
            VAT {preview.tax.rate}%
            {preview.tax.amount > 0 &&
              `: ${formatMoney(preview.tax.amount, preview.tax.currency ?? 'usd')}${
                interval ? ` per ${perInterval(interval)}` : ''
              }`}
            , added to the price.
          </>
        ))}
    </p>
  );
}
