import { zodResolver } from '@hookform/resolvers/zod';
import { useRef, type FormEvent } from 'react';
import { useForm, useWatch, type Control } from 'react-hook-form';
import { z } from 'zod';
import { DEFAULT_COUNTRY, type RegistrationBilling } from '#shared/billing.ts';
import { billingFieldIds } from '../billing/BillingAddressFields.tsx';
import {
  BILLING_FIELDS,
  BillingDetailsSchema,
  EMPTY_BILLING,
  billingRequest,
} from '../billing/billingDetails.ts';
import { CardNotReady, type CardCollector } from '../billing/CardField.tsx';
import { useTaxPreview, useVisitorCountry } from '../billing/hooks.ts';
import { applyServerErrors, submitWith } from '../../lib/forms.ts';
import type { PaymentProps } from './PlanStep.tsx';

/**
 * Step 1's payment form: the billing fields (`BillingDetailsSchema`) and
 * `stripe_payment_method`, which no input edits: it only holds the card field's errors.
 */
const PaymentFormSchema = BillingDetailsSchema.extend({ stripe_payment_method: z.string() });
export type PaymentValues = z.infer<typeof PaymentFormSchema>;
export type PaymentControl = Control<PaymentValues>;

/** The step-1 fields a refusal can name, in display order. */
const PAYMENT_FIELDS = ['stripe_payment_method', ...BILLING_FIELDS] as const;

/** Registration step 1's payment part, from {@link usePayment}. */
export interface PaymentState {
  /** What `PlanStep` shows under a paid plan. */
  props: PaymentProps;
  /**
   * The `onSubmit` of step 1 with a paid plan: checks the billing fields (focus goes to the
   * first invalid one; their errors update as they are typed from then on), then runs
   * `onValid`.
   */
  submit: (onValid: () => Promise<void>) => (event: FormEvent) => void;
  /**
   * The billing fields of `POST /register` with the card's payment method.
   * @throws CardNotReady when the card field cannot give a card (it says why).
   */
  collect: () => Promise<RegistrationBilling>;
  /** Puts a refusal's errors of the billing fields and the card on them (no focus). */
  showErrors: (error: unknown) => void;
}

/**
 * The billing address, VAT id, VAT preview and card of a paid plan (docs/billing.md), a
 * react-hook-form form kept when the user goes back to step 0 (docs/adr/0047-forms.md "Forms").
 * Errors show for the required fields once the user has tried to create the account, and the
 * server's until the field is changed.
 * @param base the page's id base (the fields' ids derive from it).
 * @param planId the chosen plan, for the VAT preview.
 * @param paid a paid plan is chosen (the preview runs only then).
 */
export function usePayment(base: string, planId: string | undefined, paid: boolean): PaymentState {
  const country = useVisitorCountry();
  const form = useForm<PaymentValues>({
    resolver: zodResolver(PaymentFormSchema),
    defaultValues: { ...EMPTY_BILLING, stripe_payment_method: '' },
  });
  const values = useWatch({ control: form.control });
  const cardRef = useRef<CardCollector | null>(null);
  const tax = useTaxPreview(
    { ...EMPTY_BILLING, ...values },
    country ?? DEFAULT_COUNTRY,
    planId,
    paid,
  );
  const cardError = form.formState.errors.stripe_payment_method?.message;

  return {
    props: {
      ids: billingFieldIds(`${base}-billing`),
      control: form.control,
      country,
      cardErrors: cardError ? [cardError] : undefined,
      tax,
      cardRef,
    },
    submit: (onValid) => submitWith(form, onValid),
    collect: async () => {
      form.clearErrors('stripe_payment_method');
      const paymentMethod = await cardRef.current?.collect();
      if (!paymentMethod) throw new CardNotReady('The card form is not ready.');
      return {
        ...billingRequest(form.getValues(), country ?? DEFAULT_COUNTRY),
        stripe_payment_method: paymentMethod,
      };
    },
    showErrors: (error) => {
      applyServerErrors(form.setError, error, PAYMENT_FIELDS, { formLevel: false, focus: false });
    },
  };
}
