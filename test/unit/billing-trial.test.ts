/**
 * Trials (docs/billing.md "Trials"): which plans offer one, what `GET /spark/plans` says of
 * it, and when a team is "on trial" (a generic trial from registration, or a subscription
 * trialing before its end).
 */
import { describe, expect, it } from 'vitest';
import { onTrial } from '#functions/billing/view.ts';
import { offersCardlessTrial, planById, planView } from '#functions/billing/plans.ts';

const NOW = Date.parse('2027-03-01T12:00:00Z');
const future = (at: string | undefined) => at !== undefined && Date.parse(at) > NOW;
const LATER = '2027-03-15T12:00:00.000Z';
const EARLIER = '2027-02-15T12:00:00.000Z';

describe('plans with a trial', () => {
  it('Starter yearly offers 14 days without a card; the others ask for a card and offer none', () => {
    expect(offersCardlessTrial('starter-yearly')).toBe(true);
    expect(planView(planById('starter-yearly')!, true)).toMatchObject({
      trial_days: 14,
      card_up_front: false,
    });
    for (const id of ['free', 'starter-monthly', 'pro-monthly', 'pro-yearly', 'unknown'])
      expect(offersCardlessTrial(id)).toBe(false);
    expect(planView(planById('pro-monthly')!, true)).not.toHaveProperty('trial_days');
  });
});

describe('on trial', () => {
  it('a generic trial counts before its end while no subscription replaced it', () => {
    expect(onTrial(LATER, null, future)).toBe(true);
    expect(onTrial(EARLIER, null, future)).toBe(false);
    expect(onTrial(undefined, null, future)).toBe(false);
  });

  it('a subscription counts while trialing before its trial end', () => {
    expect(onTrial(undefined, { stripeStatus: 'trialing', trialEndsAt: LATER }, future)).toBe(true);
    expect(onTrial(undefined, { stripeStatus: 'trialing', trialEndsAt: EARLIER }, future)).toBe(
      false,
    );
    expect(onTrial(LATER, { stripeStatus: 'active', trialEndsAt: LATER }, future)).toBe(false);
    // A trial cancelled early (no card) ends the generic trial with it.
    expect(onTrial(LATER, { stripeStatus: 'canceled' }, future)).toBe(false);
  });
});
