import type { FormEvent, RefObject } from 'react';
import type { Plan, PlanInterval, PlanList } from '../../api/plans.ts';
import { Notice } from '../../components/Notice.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import {
  BillingAddressFields,
  TaxPreview,
  type BillingFieldIds,
} from '../billing/BillingAddressFields.tsx';
import { CardField, type CardCollector } from '../billing/CardField.tsx';
import { CouponNote } from '../billing/CouponNote.tsx';
import type { CouponState, TaxPreviewState } from '../billing/hooks.ts';
import { BILLING_OFFLINE_TEXT, PlanPicker } from '../billing/PlanPicker.tsx';
import { asksForCard, isFree, trialNote } from '../billing/plans.ts';
import type { PaymentControl } from './usePayment.ts';

/** What step 1 needs for a paid plan: the billing address, VAT preview and the card. */
export interface PaymentProps {
  ids: BillingFieldIds;
  /** The payment form (`usePayment`): the billing fields and the card's errors. */
  control: PaymentControl;
  /** The geocoded default country, undefined while it is found. */
  country: string | undefined;
  cardErrors: readonly string[] | undefined;
  tax: TaxPreviewState;
  cardRef: RefObject<CardCollector | null>;
}

/**
 * Registration step 1, plan and card (docs/accounts.md "Screens"). Plans that cannot be taken now
 * are shown, disabled, with the reason (offline: {@link BILLING_OFFLINE_TEXT}). The card, billing
 * address, VAT id and VAT preview show only for a paid plan (docs/adr/0011-registration.md
 * "Registration": "Card input is shown only for a non-free plan"). The coupon from the address bar
 * is checked and described.
 */
export function PlanStep({
  headingId,
  planGroupId,
  planList,
  interval,
  selectedPlanId,
  planErrors,
  unavailableRequest,
  coupon,
  partnerCampaign = false,
  invitation,
  payment,
  pending,
  onInterval,
  onSelect,
  onBack,
  onSubmit,
}: {
  headingId: string;
  /** Id of the plan group's first radio, so the page can move focus to the plans. */
  planGroupId: string;
  planList: PlanList | undefined;
  interval: PlanInterval;
  selectedPlanId: string | undefined;
  planErrors: readonly string[] | undefined;
  unavailableRequest: Plan | undefined;
  coupon: CouponState;
  /** On the partner-campaign path the coupon is the campaign's, described without its code. */
  partnerCampaign?: boolean;
  invitation: string | undefined;
  payment: PaymentProps;
  pending: boolean;
  onInterval: (interval: PlanInterval) => void;
  onSelect: (planId: string) => void;
  onBack: () => void;
  /** The form's `onSubmit` (it prevents the default). */
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}) {
  const loading = planList === undefined;
  const selected = planList?.plans.find((p) => p.id === selectedPlanId);
  const paid = asksForCard(selected);
  const trial = trialNote(selected);
  const paidPlans = planList?.plans.filter((p) => !isFree(p)) ?? [];
  const billingOffline = paidPlans.length > 0 && paidPlans.every((p) => !p.available);

  return (
    <form className="stack" noValidate onSubmit={onSubmit} aria-busy={pending || loading}>
      <h2 id={headingId} tabIndex={-1} className="card__title">
        Choose your plan
      </h2>

      {planList?.source === 'fallback' && (
        <Notice tone="info" title="Only the free plan is offered right now">
          The plan list could not be loaded. You can change your plan later in the settings.
        </Notice>
      )}
      {unavailableRequest ? (
        <Notice tone="info" title={`${unavailableRequest.name} is not available`}>
          {BILLING_OFFLINE_TEXT}, so paid plans cannot be chosen. Start on the free plan; a paid
          plan can be chosen in the settings once billing is set up.
        </Notice>
      ) : (
        billingOffline && (
          <Notice tone="info" title="Paid plans are not available">
            {BILLING_OFFLINE_TEXT}, so new accounts start on the free plan.
          </Notice>
        )
      )}

      {loading ? (
        <p className="plans__loading" role="status">
          <Spinner /> Loading the plans…
        </p>
      ) : (
        <PlanPicker
          plans={planList.plans}
          interval={interval}
          selectedPlanId={selectedPlanId}
          onInterval={onInterval}
          onSelect={onSelect}
          firstInputId={planGroupId}
          legend="Plan"
          errors={planErrors}
          showTrials
        />
      )}

      <CouponNote coupon={coupon} partner={partnerCampaign} />
      {invitation && (
        <p className="muted">You are registering with an invitation to join a team.</p>
      )}

      {trial && (
        <Notice tone="info" title="Free trial">
          {trial}
        </Notice>
      )}

      {paid && selected && (
        <section className="payment-section" aria-labelledby={`${headingId}-payment`}>
          <h3 id={`${headingId}-payment`} className="payment-section__title">
            Payment
          </h3>
          <CardField
            mode={{ kind: 'registration' }}
            collectorRef={payment.cardRef}
            errors={payment.cardErrors}
          />
          <BillingAddressFields
            ids={payment.ids}
            control={payment.control}
            country={payment.country}
          />
          <TaxPreview preview={payment.tax} interval={selected.interval} />
        </section>
      )}

      <div className="form-actions">
        <button type="button" className="button button--secondary" onClick={onBack}>
          Back
        </button>
        <button
          type="submit"
          className="button"
          aria-disabled={pending || loading || selectedPlanId === undefined}
        >
          {pending ? (
            <>
              <Spinner /> Creating your account…
            </>
          ) : (
            'Create account'
          )}
        </button>
      </div>
    </form>
  );
}
