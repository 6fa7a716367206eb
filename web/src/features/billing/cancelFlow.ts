/**
 * The cancel flow as a state machine (docs/billing.md "Flows": "Cancel flow: type is cancel if the
 * team is on the frozen plan, otherwise freeze. Freeze switches to the freeze plan. Cancel restores
 * the frozen plan if there is one, then deletes the subscription."; docs/billing.md "Model" cancel
 * reasons).
 *
 * Steps: the reason (one of the spec's six, with a description that `somethingElse` needs) →
 * for a `freeze` flow, the offer to freeze instead of cancelling → the final confirmation →
 * working → done. Any failure keeps what the user chose and can be retried. The modal renders
 * the state; the page runs the calls when the state says `working`.
 */

import type { CancelReason, SubscriptionView } from '#shared/billing.ts';

/** Shown when "Something else" is chosen without saying what. */
export const DESCRIPTION_REQUIRED_MESSAGE = 'Please tell us why you are leaving.';
/** Shown when Continue is pressed before a reason is chosen. */
export const REASON_REQUIRED_MESSAGE = 'Please choose a reason.';
/** Longest description kept (characters), as `CancelMetaDataRequestSchema` accepts. */
export const MAX_DESCRIPTION_LENGTH = 1000;

/** `freeze` offers the freeze plan first; `cancel` (already frozen) only cancels. */
export type CancelType = SubscriptionView['cancel_type'];

/** The final action the user took. */
export type CancelAction = 'freeze' | 'cancel';

interface Choice {
  type: CancelType;
  reason: CancelReason | undefined;
  description: string;
}

export type CancelFlowState =
  | { step: 'closed' }
  | (Choice & { step: 'reason'; error?: string })
  | (Choice & { step: 'offer' })
  | (Choice & { step: 'confirm' })
  | (Choice & { step: 'working'; action: CancelAction })
  | (Choice & { step: 'failed'; action: CancelAction; message: string })
  | (Choice & { step: 'done'; action: CancelAction });

export type CancelFlowEvent =
  | { type: 'open'; cancelType: CancelType }
  | { type: 'close' }
  | { type: 'reason'; reason: CancelReason }
  | { type: 'describe'; description: string }
  | { type: 'next' }
  | { type: 'back' }
  | { type: 'freeze' }
  | { type: 'cancel' }
  | { type: 'succeeded' }
  | { type: 'failed'; message: string }
  | { type: 'retry' };

export const CLOSED: CancelFlowState = { step: 'closed' };

/**
 * The next state of the cancel flow. Events that do not apply to the current step leave it
 * unchanged (a double click on Continue, Escape while a call runs).
 *
 * @returns a new state object, or `state` itself when nothing changes.
 */
export function cancelFlow(state: CancelFlowState, event: CancelFlowEvent): CancelFlowState {
  if (event.type === 'open') {
    return { step: 'reason', type: event.cancelType, reason: undefined, description: '' };
  }
  if (state.step === 'closed') return state;
  const choice: Choice = { type: state.type, reason: state.reason, description: state.description };

  switch (event.type) {
    case 'close':
      // A call under way finishes first: closing then would hide its outcome.
      return state.step === 'working' ? state : CLOSED;
    case 'reason':
      return state.step === 'reason' ? { ...choice, step: 'reason', reason: event.reason } : state;
    case 'describe':
      return state.step === 'reason'
        ? {
            ...choice,
            step: 'reason',
            description: event.description.slice(0, MAX_DESCRIPTION_LENGTH),
          }
        : state;
    case 'next': {
      if (state.step !== 'reason') return state;
      if (!choice.reason) return { ...choice, step: 'reason', error: REASON_REQUIRED_MESSAGE };
      if (choice.reason === 'somethingElse' && choice.description.trim() === '') {
        return { ...choice, step: 'reason', error: DESCRIPTION_REQUIRED_MESSAGE };
      }
      return { ...choice, step: choice.type === 'freeze' ? 'offer' : 'confirm' };
    }
    case 'back':
      if (state.step === 'offer') return { ...choice, step: 'reason' };
      if (state.step === 'confirm') {
        return { ...choice, step: choice.type === 'freeze' ? 'offer' : 'reason' };
      }
      return state;
    case 'freeze':
      return state.step === 'offer' ? { ...choice, step: 'working', action: 'freeze' } : state;
    case 'cancel':
      if (state.step === 'offer') return { ...choice, step: 'confirm' };
      if (state.step === 'confirm') return { ...choice, step: 'working', action: 'cancel' };
      return state;
    case 'succeeded':
      return state.step === 'working' ? { ...choice, step: 'done', action: state.action } : state;
    case 'failed':
      return state.step === 'working'
        ? { ...choice, step: 'failed', action: state.action, message: event.message }
        : state;
    case 'retry':
      return state.step === 'failed' ? { ...choice, step: 'working', action: state.action } : state;
  }
}
