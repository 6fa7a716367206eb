import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';
import { isVatCountry } from '#shared/billing.ts';
import { FormTextField } from '../../components/FormFields.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { FieldError, TextField } from '../../components/TextField.tsx';
import type { BillingDetails, BillingField } from './billingDetails.ts';
import { countryOptions } from './countries.ts';
import { perInterval } from './format.ts';
import { formatMoney } from '../../lib/format.ts';
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
 * The billing address (docs/billing.md: address, address_line_2, city, state, zip, country
 * default US) and, for a country where VAT applies (EU and GB), the VAT id, bound to a
 * react-hook-form form whose values include {@link BillingDetails} (checked by
 * `BillingDetailsSchema`). Shows the form's errors of these fields, from its checks or the
 * server's 422.
 *
 * @param country the country shown when the form has none (the geocoded default), or
 *   undefined while it is being found.
 */
export function BillingAddressFields<T extends BillingDetails, C, O extends FieldValues>({
  ids,
  control,
  country,
}: {
  ids: BillingFieldIds;
  control: Control<T, C, O>;
  country: string | undefined;
}) {
  const {
    field: { ref: countryRef, value: countryValue, onChange: onCountry, onBlur: onCountryBlur },
    fieldState: countryState,
  } = useController<T, Path<T>, O>({ control, name: 'country' as Path<T> });
  const chosen = (countryValue as string) || country || '';
  const countryError = countryState.error?.message;
  const text = (field: AddressTextField) => {
    const spec = ADDRESS_TEXT_FIELDS[field];
    return (
      <FormTextField
        control={control}
        field={field as Path<T>}
        id={ids[field]}
        label={spec.label}
        autoComplete={`billing ${spec.autoComplete}`}
        autoCapitalize={field === 'zip' ? 'characters' : 'words'}
        required={!spec.optional}
        maxLength={field === 'zip' ? 32 : 255}
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
            ref={countryRef}
            id={ids.country}
            name="country"
            className="input input--select"
            autoComplete="billing country"
            value={chosen}
            disabled={chosen === ''}
            aria-invalid={countryError ? true : undefined}
            aria-describedby={countryError ? `${ids.country}-error` : undefined}
            onChange={(event) => onCountry(event.target.value)}
            onBlur={onCountryBlur}
          >
            {chosen === '' && <option value="">Finding your country…</option>}
            {countryOptions().map((option) => (
              <option key={option.code} value={option.code}>
                {option.name}
              </option>
            ))}
          </select>
          {countryError && <FieldError id={`${ids.country}-error`} errors={[countryError]} />}
        </div>
      </div>
      {isVatCountry(chosen) && (
        <VatIdField
          control={control}
          field={'vat_id' as Path<T>}
          id={ids.vat_id}
          hint="For businesses: your VAT number with its country prefix, e.g. DE123456789."
        />
      )}
    </fieldset>
  );
}

/**
 * The optional VAT id input bound to a react-hook-form string field: upper-cased as it is
 * typed (VAT ids carry an upper-case country prefix), its error from the form.
 */
export function VatIdField<T extends FieldValues, C, O extends FieldValues>({
  control,
  field: fieldName,
  id,
  hint,
}: {
  control: Control<T, C, O>;
  field: Path<T>;
  id: string;
  hint: string;
}) {
  const {
    field: { ref, value, onChange, onBlur },
    fieldState,
  } = useController<T, Path<T>, O>({ control, name: fieldName });
  const message = fieldState.error?.message;
  return (
    <TextField
      id={id}
      inputRef={ref}
      label="VAT ID"
      name="vat_id"
      autoComplete="off"
      required={false}
      maxLength={64}
      hint={hint}
      value={(value as string | undefined) ?? ''}
      errors={message ? [message] : undefined}
      onChange={(v) => onChange(v.toUpperCase())}
      onBlur={onBlur}
    />
  );
}

/**
 * The VAT line under the billing address (docs/billing.md "Flows" `POST /tax-rate`,
 * docs/accounts.md "Constants"): the rate and the amount added per interval, the reverse charge for
 * a valid VAT id, or why it is unknown. Nothing for countries without VAT.
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
