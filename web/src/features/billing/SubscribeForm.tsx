import { useId, useRef, useState, type FormEvent } from 'react';
import { DEFAULT_COUNTRY, type SubscriptionView } from '#shared/billing.ts';
import type { Plan, PlanInterval } from '../../api/plans.ts';
import { Notice } from '../../components/Notice.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { TextField } from '../../components/TextField.tsx';
import { defaultPlanChoice } from '../registration/plans.ts';
import { subscribe } from './api.ts';
import { BillingAddressFields, TaxPreview, billingFieldIds } from './BillingAddressFields.tsx';
import {
  BILLING_FIELDS,
  billingDetailsFrom,
  billingRequest,
  checkBillingDetails,
  type BillingDetails,
  type BillingField,
} from './billingDetails.ts';
import { CardField, collectCard, type CardCollector } from './CardField.tsx';
import { useTaxPreview, useVisitorCountry } from './hooks.ts';
import { MaskedCard } from './MaskedCard.tsx';
import { PlanPicker } from './PlanPicker.tsx';
import { useBillingAction } from './useBillingAction.ts';

const FORM_FIELDS = [...BILLING_FIELDS, 'plan', 'stripe_payment_method', 'coupon'] as const;

/**
 * Subscribe a team that has no subscription (spec 001 §2 plan settings; §7 `POST
 * …/subscription`): a paid plan with the monthly/yearly toggle, the card on file or a new one
 * through a SetupIntent (spec 001 §4 "If a stored card exists, subscribing can use it
 * directly"), the billing address with VAT id and preview, and an optional coupon. A 400 goes
 * to the payment confirmation (3-D Secure), 422s go on the fields (spec 001 §8).
 */
export function SubscribeForm({
  teamId,
  view,
  plans,
  onSubscribed,
  onCancel,
}: {
  teamId: string | undefined;
  view: SubscriptionView;
  /** Paid plans that can be bought. */
  plans: readonly Plan[];
  onSubscribed: (view: SubscriptionView) => void;
  /** Closes the form without subscribing. */
  onCancel: () => void;
}) {
  const base = useId();
  const ids = billingFieldIds(`${base}-billing`);
  const defaults = defaultPlanChoice(plans, null, false);
  const [interval, setPickedInterval] = useState<PlanInterval>(defaults.interval);
  const [planId, setPlanId] = useState(defaults.planId);
  const [useCardOnFile, setUseCardOnFile] = useState(view.card !== null);
  const [values, setValues] = useState<BillingDetails>(() =>
    billingDetailsFrom(view.billing_address, view.vat_id),
  );
  const [coupon, setCoupon] = useState('');
  const [tried, setTried] = useState(false);
  const cardRef = useRef<CardCollector | null>(null);
  const visitorCountry = useVisitorCountry();
  const fallbackCountry = visitorCountry ?? DEFAULT_COUNTRY;
  const plan = plans.find((p) => p.id === planId);
  const tax = useTaxPreview(values, fallbackCountry, planId);
  const action = useBillingAction(teamId, FORM_FIELDS, onSubscribed);

  const clientErrors = tried ? checkBillingDetails(values) : {};
  const errors: Partial<Record<BillingField, readonly string[]>> = {};
  for (const field of BILLING_FIELDS) {
    const message =
      action.errors[field] ?? (clientErrors[field] ? [clientErrors[field]] : undefined);
    if (message) errors[field] = message;
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (action.pending || !planId) return;
    setTried(true);
    const missing = BILLING_FIELDS.find((f) => checkBillingDetails(values)[f]);
    if (missing) {
      document.getElementById(ids[missing])?.focus();
      return;
    }
    const paymentMethod = useCardOnFile ? undefined : await collectCard(cardRef);
    if (!useCardOnFile && !paymentMethod) return;
    await action.run('subscribe', () =>
      subscribe(teamId, {
        ...billingRequest(values, fallbackCountry),
        plan: planId,
        ...(coupon.trim() ? { coupon: coupon.trim() } : {}),
        ...(paymentMethod
          ? { stripe_payment_method: paymentMethod }
          : { use_existing_payment_method: true }),
      }),
    );
  }

  return (
    <form
      className="stack"
      noValidate
      onSubmit={(e) => void submit(e)}
      aria-busy={action.pending !== null}
    >
      <h3 className="settings-subtitle">Choose a plan</h3>
      <PlanPicker
        plans={plans}
        interval={interval}
        selectedPlanId={planId}
        onInterval={(next) => {
          setPickedInterval(next);
          const same = plans.find((p) => p.interval === next && p.available);
          if (plan?.interval !== next) setPlanId(same?.id);
        }}
        onSelect={setPlanId}
        legend="Plan"
        errors={action.errors.plan}
      />
      {view.card && (
        <div className="checkbox">
          <input
            id={`${base}-existing`}
            type="checkbox"
            checked={useCardOnFile}
            onChange={(event) => setUseCardOnFile(event.target.checked)}
          />
          <label htmlFor={`${base}-existing`}>Pay with the card on file</label>
        </div>
      )}
      {useCardOnFile && view.card ? (
        <MaskedCard card={view.card} />
      ) : (
        <CardField
          mode={{ kind: 'setup-intent', teamId }}
          collectorRef={cardRef}
          errors={action.errors.stripe_payment_method}
        />
      )}
      <BillingAddressFields
        ids={ids}
        values={values}
        country={fallbackCountry}
        errors={errors}
        onChange={(field, value) => setValues((v) => ({ ...v, [field]: value }))}
      />
      <TaxPreview preview={tax} interval={plan?.interval} />
      <TextField
        id={`${base}-coupon`}
        label="Coupon code"
        name="coupon"
        autoComplete="off"
        required={false}
        maxLength={128}
        value={coupon}
        errors={action.errors.coupon}
        onChange={setCoupon}
      />
      {action.message && <Notice tone="error">{action.message}</Notice>}
      <div className="subscription__actions">
        <button type="button" className="button button--secondary" onClick={onCancel}>
          Not now
        </button>
        <button type="submit" className="button" aria-disabled={action.pending !== null || !planId}>
          {action.pending ? (
            <>
              <Spinner /> Subscribing…
            </>
          ) : (
            `Subscribe${plan ? ` to ${plan.name}` : ''}`
          )}
        </button>
      </div>
    </form>
  );
}
