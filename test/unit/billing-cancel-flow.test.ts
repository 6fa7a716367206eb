/**
 * The cancel flow (docs/billing.md "Flows": freeze is offered unless the team is already frozen; a
 * frozen team cancels; docs/billing.md "Model" cancel reasons).
 */
import { describe, expect, it } from 'vitest';
import {
  CLOSED,
  DESCRIPTION_REQUIRED_MESSAGE,
  REASON_REQUIRED_MESSAGE,
  cancelFlow,
  type CancelFlowEvent,
  type CancelFlowState,
} from '../../web/src/features/billing/cancelFlow.ts';

const run = (events: CancelFlowEvent[], from: CancelFlowState = CLOSED) =>
  events.reduce(cancelFlow, from);

describe('cancelFlow', () => {
  it('offers the freeze plan before cancelling a paying team', () => {
    const state = run([
      { type: 'open', cancelType: 'freeze' },
      { type: 'reason', reason: 'cost' },
      { type: 'next' },
    ]);
    expect(state.step).toBe('offer');
    expect(run([{ type: 'freeze' }], state)).toMatchObject({
      step: 'working',
      action: 'freeze',
      reason: 'cost',
    });
  });

  it('lets a paying team decline the freeze and cancel after confirming', () => {
    const state = run([
      { type: 'open', cancelType: 'freeze' },
      { type: 'reason', reason: 'notUsingIt' },
      { type: 'next' },
      { type: 'cancel' },
    ]);
    expect(state.step).toBe('confirm');
    expect(run([{ type: 'cancel' }, { type: 'succeeded' }], state)).toMatchObject({
      step: 'done',
      action: 'cancel',
      type: 'freeze',
    });
  });

  it('goes straight to the confirmation for a frozen team (no second freeze)', () => {
    const state = run([
      { type: 'open', cancelType: 'cancel' },
      { type: 'reason', reason: 'usingOtherProduct' },
      { type: 'next' },
    ]);
    expect(state.step).toBe('confirm');
    expect(run([{ type: 'freeze' }], state)).toBe(state);
    expect(run([{ type: 'back' }], state).step).toBe('reason');
  });

  it('needs a reason, and a description for "something else"', () => {
    const noReason = run([{ type: 'open', cancelType: 'freeze' }, { type: 'next' }]);
    expect(noReason).toMatchObject({ step: 'reason', error: REASON_REQUIRED_MESSAGE });
    const blank = run(
      [
        { type: 'reason', reason: 'somethingElse' },
        { type: 'describe', description: '   ' },
        { type: 'next' },
      ],
      noReason,
    );
    expect(blank).toMatchObject({ step: 'reason', error: DESCRIPTION_REQUIRED_MESSAGE });
    const described = run(
      [{ type: 'describe', description: 'We closed the shop.' }, { type: 'next' }],
      blank,
    );
    expect(described).toMatchObject({ step: 'offer', description: 'We closed the shop.' });
  });

  it('keeps the choice after a failure, retries it, and cannot be closed while working', () => {
    const working = run([
      { type: 'open', cancelType: 'freeze' },
      { type: 'reason', reason: 'cost' },
      { type: 'next' },
      { type: 'freeze' },
    ]);
    expect(run([{ type: 'close' }], working)).toBe(working);
    const failed = run([{ type: 'failed', message: 'No.' }], working);
    expect(failed).toMatchObject({
      step: 'failed',
      action: 'freeze',
      message: 'No.',
      reason: 'cost',
    });
    expect(run([{ type: 'retry' }], failed)).toMatchObject({ step: 'working', action: 'freeze' });
    expect(run([{ type: 'close' }], failed)).toBe(CLOSED);
  });
});
