import { useRef, useState } from 'react';
import { DEFAULT_COUNTRY, type RegistrationBilling } from '#shared/billing.ts';
import type { FieldErrors } from '../../api/client.ts';
import { billingFieldIds } from '../billing/BillingAddressFields.tsx';
import {
  BILLING_FIELDS,
  EMPTY_BILLING,
  billingRequest,
  checkBillingDetails,
  type BillingDetails,
  type BillingField,
} from '../billing/billingDetails.ts';
import { CardNotReady, type CardCollector } from '../billing/CardField.tsx';
import { useTaxPreview, useVisitorCountry } from '../billing/hooks.ts';
import { isPaymentField, type PaymentField } from './failure.ts';
import type { PaymentProps } from './PlanStep.tsx';

/** Registration step 1's payment part, from {@link usePayment}. */
export interface PaymentState {
  /** What `PlanStep` shows under a paid plan. */
  props: PaymentProps;
  /**
   * Checks the required billing fields (their errors show from now on).
   * @returns the first one that is missing, or undefined.
   */
  firstMissing: () => BillingField | undefined;
  /**
   * The billing fields of `POST /register` with the card's payment method.
   * @throws CardNotReady when the card field cannot give a card (it says why).
   */
  collect: () => Promise<RegistrationBilling>;
  /** Shows the server's errors of the billing fields and the card. */
  showErrors: (errors: FieldErrors) => void;
}

/**
 * The billing address, VAT id, VAT preview and card of a paid plan (spec 001 §2, §4), kept when
 * the user goes back to step 0 (§3). Errors show for the required fields once the user has
 * tried to create the account, and the server's until the field is changed.
 * @param base the page's id base (the fields' ids derive from it).
 * @param planId the chosen plan, for the VAT preview.
 * @param paid a paid plan is chosen (the preview runs only then).
 */
export function usePayment(base: string, planId: string | undefined, paid: boolean): PaymentState {
  const country = useVisitorCountry();
  const [values, setValues] = useState<BillingDetails>(EMPTY_BILLING);
  const [tried, setTried] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<PaymentField, string[]>>>({});
  const cardRef = useRef<CardCollector | null>(null);
  const tax = useTaxPreview(values, country ?? DEFAULT_COUNTRY, planId, paid);

  const errors: Partial<Record<PaymentField, string[]>> = {
    ...(tried
      ? Object.fromEntries(Object.entries(checkBillingDetails(values)).map(([f, m]) => [f, [m]]))
      : {}),
    ...serverErrors,
  };

  return {
    props: {
      ids: billingFieldIds(`${base}-billing`),
      values,
      country,
      errors,
      tax,
      cardRef,
      onChange: (field, value) => {
        setValues((v) => ({ ...v, [field]: value }));
        if (serverErrors[field]) setServerErrors(({ [field]: _cleared, ...rest }) => rest);
      },
    },
    firstMissing: () => {
      setTried(true);
      const missing = checkBillingDetails(values);
      return BILLING_FIELDS.find((f) => missing[f]);
    },
    collect: async () => {
      setServerErrors(({ stripe_payment_method: _card, ...rest }) => rest);
      const paymentMethod = await cardRef.current?.collect();
      if (!paymentMethod) throw new CardNotReady('The card form is not ready.');
      return {
        ...billingRequest(values, country ?? DEFAULT_COUNTRY),
        stripe_payment_method: paymentMethod,
      };
    },
    showErrors: (answer) => {
      const mine = Object.entries(answer).filter(([f]) => isPaymentField(f));
      if (mine.length > 0)
        setServerErrors((current) => ({ ...current, ...Object.fromEntries(mine) }));
    },
  };
}
