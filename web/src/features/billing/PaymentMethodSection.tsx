import { useRef, useState } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { updateCardOfTeam, updatePaymentMethod } from './api.ts';
import { CardField, collectCard, type CardCollector } from './CardField.tsx';
import { MaskedCard } from './MaskedCard.tsx';
import { useBillingAction, type BillingSectionProps } from './useBillingAction.ts';

/**
 * The payment method (docs/adr/0026-billing-in-the-spa.md "Billing in the SPA" settings tab
 * "payment method"; docs/billing.md "Flows": "Saving a card uses a setup-intent step"): the card on
 * file, masked with its brand (docs/accounts.md "Constants"), and a form that takes a new card
 * through a SetupIntent and makes it the default (`PUT …/payment-method`).
 *
 * @param cardUpdate the card-update page's variant (docs/adr/0026-billing-in-the-spa.md "Billing in the SPA"): the form is open at once and
 *   saves through `PUT /settings/companies/{id}/update-payment-method`.
 */
export function PaymentMethodSection({
  teamId,
  view,
  headingId,
  onChanged,
  cardUpdate = false,
}: BillingSectionProps & { cardUpdate?: boolean }) {
  const [editing, setEditing] = useState(cardUpdate);
  const [saved, setSaved] = useState(false);
  const cardRef = useRef<CardCollector | null>(null);
  const action = useBillingAction(teamId, ['stripe_payment_method'], (next) => {
    onChanged(next);
    setEditing(false);
    setSaved(true);
  });

  async function save() {
    setSaved(false);
    const method = await collectCard(cardRef);
    if (!method) return;
    const request = { stripe_payment_method: method };
    await action.run('card', () =>
      cardUpdate && teamId
        ? updateCardOfTeam(teamId, request)
        : updatePaymentMethod(teamId, request),
    );
  }

  return (
    <section className="settings-section stack" aria-labelledby={headingId}>
      <h2 id={headingId} className="card__title">
        Payment method
      </h2>
      {view.card ? <MaskedCard card={view.card} /> : <p className="muted">No card on file.</p>}
      {saved && (
        <Notice tone="success">The new card is saved and used for the next invoices.</Notice>
      )}
      {action.message && <Notice tone="error">{action.message}</Notice>}
      {editing ? (
        <div className="stack">
          <CardField
            mode={{ kind: 'setup-intent', teamId }}
            label={view.card ? 'New card' : 'Card'}
            collectorRef={cardRef}
            errors={action.errors.stripe_payment_method}
          />
          <div className="subscription__actions">
            {!cardUpdate && (
              <button
                type="button"
                className="button button--secondary"
                onClick={() => {
                  setEditing(false);
                  action.reset();
                }}
              >
                Cancel
              </button>
            )}
            <button
              type="button"
              className="button"
              aria-disabled={action.pending !== null}
              onClick={() => void save()}
            >
              {action.pending ? (
                <>
                  <Spinner /> Saving…
                </>
              ) : (
                'Save card'
              )}
            </button>
          </div>
        </div>
      ) : (
        <div className="subscription__actions">
          <button
            type="button"
            className="button button--secondary"
            onClick={() => {
              setSaved(false);
              setEditing(true);
            }}
          >
            {view.card ? 'Update card' : 'Add a card'}
          </button>
        </div>
      )}
    </section>
  );
}
