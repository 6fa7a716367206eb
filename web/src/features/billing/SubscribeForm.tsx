import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useRef, useState } from 'react';
import { useController, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { DEFAULT_COUNTRY, SubscribeRequestSchema, type SubscriptionView } from '#shared/billing.ts';
import type { Plan, PlanInterval } from '../../api/plans.ts';
import { FormCheckbox, FormTextField } from '../../components/FormFields.tsx';
import { Notice } from '../../components/Notice.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { submitWith } from '../../lib/forms.ts';
import { defaultPlanChoice } from './plans.ts';
import { subscribe } from './api.ts';
import { BillingAddressFields, TaxPreview, billingFieldIds } from './BillingAddressFields.tsx';
import {
  BILLING_FIELDS,
  BillingDetailsSchema,
  EMPTY_BILLING,
  billingDetailsFrom,
  billingRequest,
} from './billingDetails.ts';
import { CardField, collectCard, type CardCollector } from './CardField.tsx';
import { useTaxPreview, useVisitorCountry } from './hooks.ts';
import { MaskedCard } from './MaskedCard.tsx';
import { PlanPicker } from './PlanPicker.tsx';
import { useBillingAction } from './useBillingAction.ts';

const FORM_FIELDS = [...BILLING_FIELDS, 'plan', 'stripe_payment_method', 'coupon'] as const;

/**
 * The subscribe form: the billing fields (`BillingDetailsSchema`), the plan and coupon with the
 * rules of the route's body (`SubscribeRequestSchema`), whether to pay with the card on file,
 * and `stripe_payment_method`, which no input edits: it only holds the card field's errors.
 */
const SubscribeFormSchema = BillingDetailsSchema.extend({
  plan: SubscribeRequestSchema.shape.plan,
  coupon: SubscribeRequestSchema.shape.coupon.unwrap().unwrap(),
  use_existing_payment_method: z.boolean(),
  stripe_payment_method: z.string(),
});
type SubscribeFormValues = z.infer<typeof SubscribeFormSchema>;

/**
 * Subscribe a team that has no subscription (docs/billing.md; `POST …/subscription`): a paid
 * plan with the monthly/yearly toggle, the card on file or a new one through a SetupIntent
 * ("If a stored card exists, subscribing can use it directly"), the billing address with VAT
 * id and preview, and an optional coupon. A react-hook-form form checked by
 * {@link SubscribeFormSchema} (docs/adr/0047-forms.md "Forms"); a 400 goes to the payment
 * confirmation (3-D Secure), a 422's errors go on the fields.
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
  const form = useForm<SubscribeFormValues>({
    resolver: zodResolver(SubscribeFormSchema),
    defaultValues: {
      ...billingDetailsFrom(view.billing_address, view.vat_id),
      plan: defaults.planId ?? '',
      coupon: '',
      use_existing_payment_method: view.card !== null,
      stripe_payment_method: '',
    },
  });
  const { control } = form;
  const {
    field: { value: planId, onChange: setPlanId },
    fieldState: planState,
  } = useController({ control, name: 'plan' });
  const values = useWatch({ control });
  const useCardOnFile = values.use_existing_payment_method === true;
  const cardError = form.formState.errors.stripe_payment_method?.message;
  const cardRef = useRef<CardCollector | null>(null);
  const visitorCountry = useVisitorCountry();
  const fallbackCountry = visitorCountry ?? DEFAULT_COUNTRY;
  const plan = plans.find((p) => p.id === planId);
  const tax = useTaxPreview({ ...EMPTY_BILLING, ...values }, fallbackCountry, planId);
  const action = useBillingAction(teamId, FORM_FIELDS, onSubscribed, form.setError);
  const pending = action.pending !== null || form.formState.isSubmitting;

  async function onValid(checked: SubscribeFormValues) {
    const paymentMethod = checked.use_existing_payment_method
      ? undefined
      : await collectCard(cardRef);
    if (!checked.use_existing_payment_method && !paymentMethod) return;
    await action.run('subscribe', () =>
      subscribe(teamId, {
        ...billingRequest(checked, fallbackCountry),
        plan: checked.plan,
        ...(checked.coupon ? { coupon: checked.coupon } : {}),
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
      onSubmit={(event) => submitWith(form, onValid)(event)}
      aria-busy={pending}
    >
      <h3 className="settings-subtitle">Choose a plan</h3>
      <PlanPicker
        plans={plans}
        interval={interval}
        selectedPlanId={planId}
        onInterval={(next) => {
          setPickedInterval(next);
          const same = plans.find((p) => p.interval === next && p.available);
          if (plan?.interval !== next) setPlanId(same?.id ?? '');
        }}
        onSelect={setPlanId}
        legend="Plan"
        errors={planState.error?.message ? [planState.error.message] : undefined}
      />
      {view.card && (
        <FormCheckbox
          control={control}
          field="use_existing_payment_method"
          id={`${base}-existing`}
          label="Pay with the card on file"
        />
      )}
      {useCardOnFile && view.card ? (
        <MaskedCard card={view.card} />
      ) : (
        <CardField
          mode={{ kind: 'setup-intent', teamId }}
          collectorRef={cardRef}
          errors={cardError ? [cardError] : undefined}
        />
      )}
      <BillingAddressFields ids={ids} control={control} country={fallbackCountry} />
      <TaxPreview preview={tax} interval={plan?.interval} />
      <FormTextField
        control={control}
        field="coupon"
        id={`${base}-coupon`}
        label="Coupon code"
        autoComplete="off"
        required={false}
        maxLength={128}
      />
      {action.message && <Notice tone="error">{action.message}</Notice>}
      <div className="subscription__actions">
        <button type="button" className="button button--secondary" onClick={onCancel}>
          Not now
        </button>
        <button type="submit" className="button" aria-disabled={pending || !planId}>
          {pending ? (
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
