import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { SubscriptionView } from '#shared/billing.ts';
import { Notice } from '../../components/Notice.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { FieldError, TextField } from '../../components/TextField.tsx';
import { applyCoupon, saveExtraBillingInformation, updateVatId } from './api.ts';
import { describeCoupon } from './coupon.ts';
import { formatBillingDate } from './format.ts';
import { useBillingAction, type BillingSectionProps } from './useBillingAction.ts';

/**
 * Billing details (spec 001 §3 User/Team billing fields, §7): the VAT id (`PUT
 * …/payment-method/vat-id`), a coupon (`POST …/payment-method/coupon`) with the discount in
 * force, and the extra billing information printed on invoices (`PUT
 * /settings/extra-billing-information`). Each saves on its own.
 */
export function BillingDetailsSection({ teamId, view, headingId, onChanged }: BillingSectionProps) {
  const ids = { vat: useId(), coupon: useId(), info: useId() };
  const [vatId, setVatId] = useState(view.vat_id ?? '');
  const [coupon, setCoupon] = useState('');
  const [information, setInformation] = useState(view.extra_billing_information ?? '');
  const [done, setDone] = useState<string | null>(null);
  const saved = (text: string) => (next: SubscriptionView) => {
    onChanged(next);
    setDone(text);
  };
  const vat = useBillingAction(teamId, ['vat_id'], saved('The VAT ID is saved.'));
  const couponAction = useBillingAction(teamId, ['coupon'], (next) => {
    saved('The coupon is applied.')(next);
    setCoupon('');
  });
  const info = useBillingAction(
    teamId,
    ['information'],
    saved('The extra billing information is saved.'),
  );
  const discount = view.discount ? describeCoupon(view.discount) : '';
  const discountEnds = formatBillingDate(view.discount?.ends_at);

  return (
    <section className="settings-section stack" aria-labelledby={headingId}>
      <h2 id={headingId} className="card__title">
        Billing details
      </h2>
      {done && <Notice tone="success">{done}</Notice>}

      <InlineForm
        pending={vat.pending !== null}
        message={vat.message}
        submitLabel="Save VAT ID"
        onSubmit={() => {
          setDone(null);
          void vat.run('vat', () => updateVatId(teamId, { vat_id: vatId.trim() || null }));
        }}
      >
        <TextField
          id={ids.vat}
          label="VAT ID"
          name="vat_id"
          autoComplete="off"
          required={false}
          maxLength={64}
          hint="For businesses in the EU or the UK, with its country prefix, e.g. DE123456789."
          value={vatId}
          errors={vat.errors.vat_id}
          onChange={(v) => setVatId(v.toUpperCase())}
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
            pending={couponAction.pending !== null}
            message={couponAction.message}
            submitLabel="Apply coupon"
            onSubmit={() => {
              setDone(null);
              void couponAction.run('coupon', () => applyCoupon(teamId, { coupon: coupon.trim() }));
            }}
          >
            <TextField
              id={ids.coupon}
              label="Coupon code"
              name="coupon"
              autoComplete="off"
              maxLength={128}
              value={coupon}
              errors={couponAction.errors.coupon}
              onChange={setCoupon}
            />
          </InlineForm>
        </div>
      )}

      <InlineForm
        pending={info.pending !== null}
        message={info.message}
        submitLabel="Save billing information"
        onSubmit={() => {
          setDone(null);
          void info.run('info', () =>
            saveExtraBillingInformation({
              information: information.trim() || null,
              team_id: view.team_id,
            }),
          );
        }}
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
            id={ids.info}
            name="information"
            className="input textarea"
            maxLength={2000}
            value={information}
            aria-describedby={`${ids.info}-hint${info.errors.information ? ` ${ids.info}-error` : ''}`}
            aria-invalid={info.errors.information ? true : undefined}
            onChange={(event) => setInformation(event.target.value)}
          />
          {info.errors.information && (
            <FieldError id={`${ids.info}-error`} errors={info.errors.information} />
          )}
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
  onSubmit: () => void;
  children: ReactNode;
}) {
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!pending) onSubmit();
  }
  return (
    <form className="stack" noValidate onSubmit={submit} aria-busy={pending}>
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
