import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useController, useForm } from 'react-hook-form';
import { z } from 'zod';
import {
  ApplyCouponRequestSchema,
  ExtraBillingInformationRequestSchema,
  VatIdRequestSchema,
  type SubscriptionView,
} from '#shared/billing.ts';
import { FormTextField } from '../../components/FormFields.tsx';
import { Notice } from '../../components/Notice.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { FieldError } from '../../components/TextField.tsx';
import { submitWith } from '../../lib/forms.ts';
import { applyCoupon, saveExtraBillingInformation, updateVatId } from './api.ts';
import { VatIdField } from './BillingAddressFields.tsx';
import { describeCoupon } from './coupon.ts';
import { formatBillingDate } from './format.ts';
import { useBillingAction, type BillingSectionProps } from './useBillingAction.ts';

/** The VAT id form: the route's rule (trimmed, at most 64); '' clears it. */
const VatForm = z.object({ vat_id: VatIdRequestSchema.shape.vat_id.unwrap().unwrap() });
/** The extra billing information form: the route's rule (trimmed, at most 2,000); '' clears it. */
const InformationForm = z.object({
  information: ExtraBillingInformationRequestSchema.shape.information.unwrap().unwrap(),
});

/**
 * Billing details (docs/billing.md): the VAT id (`PUT …/payment-method/vat-id`), a coupon
 * (`POST …/payment-method/coupon`) with the discount in force, and the extra billing
 * information printed on invoices (`PUT /settings/extra-billing-information`). Each is its own
 * react-hook-form form checked by its route's body schema and saves on its own; a refusal goes
 * on its field (docs/adr/0047-forms.md "Forms").
 */
export function BillingDetailsSection({ teamId, view, headingId, onChanged }: BillingSectionProps) {
  const ids = { vat: useId(), coupon: useId(), info: useId() };
  const vatForm = useForm<z.infer<typeof VatForm>>({
    resolver: zodResolver(VatForm),
    defaultValues: { vat_id: view.vat_id ?? '' },
  });
  const couponForm = useForm<z.infer<typeof ApplyCouponRequestSchema>>({
    resolver: zodResolver(ApplyCouponRequestSchema),
    defaultValues: { coupon: '' },
  });
  const infoForm = useForm<z.infer<typeof InformationForm>>({
    resolver: zodResolver(InformationForm),
    defaultValues: { information: view.extra_billing_information ?? '' },
  });
  const [done, setDone] = useState<string | null>(null);
  const saved = (text: string) => (next: SubscriptionView) => {
    onChanged(next);
    setDone(text);
  };
  const vat = useBillingAction(teamId, ['vat_id'], saved('The VAT ID is saved.'), vatForm.setError);
  const couponAction = useBillingAction(
    teamId,
    ['coupon'],
    (next) => {
      saved('The coupon is applied.')(next);
      couponForm.reset();
    },
    couponForm.setError,
  );
  const info = useBillingAction(
    teamId,
    ['information'],
    saved('The extra billing information is saved.'),
    infoForm.setError,
  );
  const {
    field: { ref: infoRef, value: information, onChange: onInformation, onBlur: onInfoBlur },
    fieldState: infoState,
  } = useController({ control: infoForm.control, name: 'information' });
  const infoError = infoState.error?.message;
  const discount = view.discount ? describeCoupon(view.discount) : '';
  const discountEnds = formatBillingDate(view.discount?.ends_at);

  return (
    <section className="settings-section stack" aria-labelledby={headingId}>
      <h2 id={headingId} className="card__title">
        Billing details
      </h2>
      {done && <Notice tone="success">{done}</Notice>}

      <InlineForm
        pending={vat.pending !== null || vatForm.formState.isSubmitting}
        message={vat.message}
        submitLabel="Save VAT ID"
        onSubmit={submitWith(vatForm, async ({ vat_id }) => {
          setDone(null);
          await vat.run('vat', () => updateVatId(teamId, { vat_id: vat_id || null }));
        })}
      >
        <VatIdField
          control={vatForm.control}
          field="vat_id"
          id={ids.vat}
          hint="For businesses in the EU or the UK, with its country prefix, e.g. DE123456789."
        />
      </InlineForm>

      {/* A coupon applies to a subscription; without one, the subscribe form takes it. */}
      {view.subscription_id !== null && (
        <div className="stack">
          {view.discount && (
            <p data-testid="discount">
              Discount in force: <strong>{view.discount.name ?? view.discount.coupon_id}</strong>
              {discount && `, ${discount}`}
              {discountEnds && ` (until ${discountEnds})`}.
            </p>
          )}
          <InlineForm
            pending={couponAction.pending !== null || couponForm.formState.isSubmitting}
            message={couponAction.message}
            submitLabel="Apply coupon"
            onSubmit={submitWith(couponForm, async ({ coupon }) => {
              setDone(null);
              await couponAction.run('coupon', () => applyCoupon(teamId, { coupon }));
            })}
          >
            <FormTextField
              control={couponForm.control}
              field="coupon"
              id={ids.coupon}
              label="Coupon code"
              autoComplete="off"
              maxLength={128}
            />
          </InlineForm>
        </div>
      )}

      <InlineForm
        pending={info.pending !== null || infoForm.formState.isSubmitting}
        message={info.message}
        submitLabel="Save billing information"
        onSubmit={submitWith(infoForm, async (values) => {
          setDone(null);
          await info.run('info', () =>
            saveExtraBillingInformation({
              information: values.information || null,
              team_id: view.team_id,
            }),
          );
        })}
      >
        <div className="field">
          <label htmlFor={ids.info} className="field__label">
            Extra billing information
            <span className="field__optional"> (optional)</span>
          </label>
          <p id={`${ids.info}-hint`} className="field__hint">
            Printed on your invoices: a purchase order number, your company&apos;s registration
            number or a second address.
          </p>
          <textarea
            ref={infoRef}
            id={ids.info}
            name="information"
            className="input textarea"
            maxLength={2000}
            value={information}
            aria-describedby={`${ids.info}-hint${infoError ? ` ${ids.info}-error` : ''}`}
            aria-invalid={infoError ? true : undefined}
            onChange={(event) => onInformation(event.target.value)}
            onBlur={onInfoBlur}
          />
          {infoError && <FieldError id={`${ids.info}-error`} errors={[infoError]} />}
        </div>
      </InlineForm>
    </section>
  );
}

/** A one-field form with its submit button beside it and its failure message under it. */
function InlineForm({
  pending,
  message,
  submitLabel,
  onSubmit,
  children,
}: {
  pending: boolean;
  message: string | null;
  submitLabel: string;
  /** The form's `onSubmit` (`submitWith`). */
  onSubmit: (event: FormEvent) => void;
  children: ReactNode;
}) {
  return (
    <form className="stack" noValidate onSubmit={onSubmit} aria-busy={pending}>
      <div className="inline-form">
        {children}
        <button type="submit" className="button button--secondary" aria-disabled={pending}>
          {pending ? (
            <>
              <Spinner /> Saving…
            </>
          ) : (
            submitLabel
          )}
        </button>
      </div>
      {message && <Notice tone="error">{message}</Notice>}
    </form>
  );
}
