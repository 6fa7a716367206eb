import { useId } from 'react';
import { CANCEL_REASONS, CANCEL_REASON_LABELS } from '#shared/billing.ts';
import { Modal } from '../../components/Modal.tsx';
import { Notice } from '../../components/Notice.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { FieldError } from '../../components/TextField.tsx';
import {
  MAX_DESCRIPTION_LENGTH,
  type CancelFlowEvent,
  type CancelFlowState,
} from './cancelFlow.ts';
import './billing.css';

const TITLES: Record<Exclude<CancelFlowState['step'], 'closed'>, string> = {
  reason: 'Why are you leaving?',
  offer: 'Freeze your account instead?',
  confirm: 'Cancel the subscription?',
  working: 'One moment…',
  failed: 'That did not work',
  done: 'Done',
};

/**
 * The cancel flow's modal (docs/billing.md "Flows"): the reason (docs/billing.md "Model" cancel
 * reasons) with a description, the freeze offer for a paying team, the final confirmation, then the
 * outcome. It renders {@link CancelFlowState} and sends {@link CancelFlowEvent}s; `onRun` is told
 * when the user takes the final action (freeze or cancel), and the page makes the calls.
 *
 * @param planName the plan the team is on, for the texts.
 * @param endsOn when a cancelled plan ends ('MMMM Do, YYYY'), '' when unknown.
 */
export function CancelFlowModal({
  state,
  planName,
  endsOn,
  dispatch,
  onRun,
}: {
  state: CancelFlowState;
  planName: string;
  endsOn: string;
  dispatch: (event: CancelFlowEvent) => void;
  onRun: (action: 'freeze' | 'cancel') => void;
}) {
  const ids = { description: useId(), error: useId() };
  if (state.step === 'closed') return null;
  const close = () => dispatch({ type: 'close' });
  const title =
    state.step === 'done'
      ? state.action === 'freeze'
        ? 'Your account is frozen'
        : 'Your subscription is cancelled'
      : TITLES[state.step];
  const working = state.step === 'working';

  return (
    // One dialog per step, so focus moves to the step's first control (Modal focuses on open).
    <Modal
      key={state.step}
      open
      title={title}
      onCancel={working ? undefined : close}
      actions={<Actions state={state} dispatch={dispatch} onRun={onRun} close={close} />}
    >
      {state.step === 'reason' && (
        <>
          <fieldset
            className="reason-list"
            aria-invalid={state.error && !state.reason ? true : undefined}
            aria-describedby={state.error ? ids.error : undefined}
          >
            <legend className="visually-hidden">Reason for cancelling</legend>
            {CANCEL_REASONS.map((reason, i) => (
              <div className="checkbox" key={reason}>
                <input
                  id={`${ids.description}-${reason}`}
                  type="radio"
                  name="cancel-reason"
                  value={reason}
                  checked={state.reason === reason}
                  data-autofocus={i === 0 ? true : undefined}
                  onChange={() => dispatch({ type: 'reason', reason })}
                />
                <label htmlFor={`${ids.description}-${reason}`}>
                  {CANCEL_REASON_LABELS[reason]}
                </label>
              </div>
            ))}
          </fieldset>
          <div className="field">
            <label htmlFor={ids.description} className="field__label">
              Tell us more
              {state.reason !== 'somethingElse' && (
                <span className="field__optional"> (optional)</span>
              )}
            </label>
            <textarea
              id={ids.description}
              className="input textarea"
              name="description"
              maxLength={MAX_DESCRIPTION_LENGTH}
              value={state.description}
              onChange={(event) => dispatch({ type: 'describe', description: event.target.value })}
            />
          </div>
          {state.error && <FieldError id={ids.error} errors={[state.error]} />}
        </>
      )}
      {state.step === 'offer' && (
        <div className="freeze-offer stack">
          <p>
            Instead of cancelling {planName}, you can freeze your account: your designs, templates
            and settings are kept, and you can return to {planName} at any time.
          </p>
          <p>While frozen, designs cannot be created, archived, cloned or activated.</p>
        </div>
      )}
      {state.step === 'confirm' && (
        <p>
          {state.type === 'cancel'
            ? 'Your frozen account will be cancelled'
            : `${planName} will be cancelled`}
          {endsOn
            ? ` at the end of the period you paid for, on ${endsOn}`
            : ' at the end of the period you paid for'}
          . Until then everything keeps working, and you can resume the subscription.
        </p>
      )}
      {working && (
        <p role="status">
          <Spinner /> {state.action === 'freeze' ? 'Freezing your account…' : 'Cancelling…'}
        </p>
      )}
      {state.step === 'failed' && <Notice tone="error">{state.message}</Notice>}
      {state.step === 'done' && (
        <Notice tone="success">
          {state.action === 'freeze'
            ? 'Your designs are kept. Switch to a paid plan any time to unfreeze.'
            : 'Thank you for telling us why. You can resume the subscription until it ends.'}
        </Notice>
      )}
    </Modal>
  );
}

function Actions({
  state,
  dispatch,
  onRun,
  close,
}: {
  state: Exclude<CancelFlowState, { step: 'closed' }>;
  dispatch: (event: CancelFlowEvent) => void;
  onRun: (action: 'freeze' | 'cancel') => void;
  close: () => void;
}) {
  const keep = (
    <button type="button" className="button button--secondary" onClick={close}>
      Keep my plan
    </button>
  );
  const back = (
    <button
      type="button"
      className="button button--secondary"
      onClick={() => dispatch({ type: 'back' })}
    >
      Back
    </button>
  );
  switch (state.step) {
    case 'reason':
      return (
        <>
          {keep}
          <button type="button" className="button" onClick={() => dispatch({ type: 'next' })}>
            Continue
          </button>
        </>
      );
    case 'offer':
      return (
        <>
          {back}
          <button
            type="button"
            className="button button--secondary"
            onClick={() => dispatch({ type: 'cancel' })}
          >
            Cancel anyway
          </button>
          <button
            type="button"
            className="button"
            data-autofocus
            onClick={() => {
              dispatch({ type: 'freeze' });
              onRun('freeze');
            }}
          >
            Freeze my account
          </button>
        </>
      );
    case 'confirm':
      return (
        <>
          {back}
          {keep}
          <button
            type="button"
            className="button button--danger"
            onClick={() => {
              dispatch({ type: 'cancel' });
              onRun('cancel');
            }}
          >
            Cancel subscription
          </button>
        </>
      );
    case 'working':
      return (
        <button type="button" className="button" aria-disabled="true">
          <Spinner /> Working…
        </button>
      );
    case 'failed':
      return (
        <>
          <button type="button" className="button button--secondary" onClick={close}>
            Close
          </button>
          <button
            type="button"
            className="button"
            onClick={() => {
              dispatch({ type: 'retry' });
              onRun(state.action);
            }}
          >
            Try again
          </button>
        </>
      );
    case 'done':
      return (
        <button type="button" className="button" data-autofocus onClick={close}>
          Close
        </button>
      );
  }
}
