/**
 * The subscription tab's states (docs/billing.md "Flows": active, on trial, on grace period, needs
 * subscription; incomplete, past_due and unpaid are not active; frozen; trial dates shown as
 * 'MMMM Do, YYYY') and the invoices it lists (docs/accounts.md "Validation rules": $0.00 hidden).
 */
import { describe, expect, it } from 'vitest';
import type { Invoice, SubscriptionView } from '#shared/billing.ts';
import { payingSubscription } from '../support/billing.ts';
import { shownInvoices } from '../../web/src/features/billing/invoices.ts';
import {
  subscriptionDates,
  subscriptionPhase,
} from '../../web/src/features/billing/subscriptionState.ts';

/** A paying team on Pro, as `GET /settings/subscription` answers; tests change what they need. */
const paying = payingSubscription('team-1');

describe('subscriptionPhase (spec 001 §4)', () => {
  // Fields as functions/billing/view.ts answers them: a status that is not active needs a
  // subscription, and a failed payment still shows as such (the card can be updated).
  it.each<[string, Partial<SubscriptionView>, string]>([
    ['paying', {}, 'active'],
    ['trialing', { status: 'trialing', on_trial: true }, 'active'],
    ['cancelled, ends later', { on_grace_period: true, ends_at: '2026-12-22T12:00:00Z' }, 'grace'],
    ['frozen', { frozen: true, plan: 'plan-freeze', cancel_type: 'cancel' }, 'frozen'],
    [
      'first payment pending',
      { status: 'incomplete', active: false, needs_subscription: true },
      'incomplete',
    ],
    ['renewal failed', { status: 'past_due', active: false, needs_subscription: true }, 'unpaid'],
    ['unpaid', { status: 'unpaid', active: false, needs_subscription: true }, 'unpaid'],
    [
      'expired first payment',
      { status: 'incomplete_expired', active: false, needs_subscription: true },
      'none',
    ],
    ['no subscription', { subscription_id: null, status: null, needs_subscription: true }, 'none'],
    ['ended', { needs_subscription: true, active: false, status: 'canceled' }, 'none'],
    ['no Stripe keys', { billing_online: false }, 'offline'],
  ])('%s → %s', (_name, change, phase) => {
    expect(subscriptionPhase({ ...paying, ...change })).toBe(phase);
  });
});

describe('subscriptionDates', () => {
  it("writes the trial's end as 'MMMM Do, YYYY'", () => {
    const trial = { ...paying, status: 'trialing' as const, on_trial: true };
    expect(subscriptionDates({ ...trial, trial_ends_at: '2027-03-03T12:00:00Z' })).toBe(
      'On trial until March 3rd, 2027.',
    );
  });

  it('says when a cancelled plan ends, and when a paying one renews', () => {
    expect(
      subscriptionDates({ ...paying, on_grace_period: true, ends_at: '2026-12-22T12:00:00Z' }),
    ).toBe('Cancelled: the plan ends on December 22nd, 2026.');
    expect(subscriptionDates(paying)).toBe('Renews on January 15th, 2030.');
    expect(subscriptionDates({ ...paying, current_period_end: null })).toBe('');
  });
});

describe('shownInvoices (spec 001 §5)', () => {
  const invoice = (id: string, total: number): Invoice => ({
    id,
    number: id.toUpperCase(),
    date: '2026-11-01T12:00:00Z',
    total,
    currency: 'usd',
    status: 'paid',
    download_url: `/settings/invoice/${id}`,
  });

  it('hides invoices of $0.00 and keeps the order', () => {
    const list = [invoice('in_3', 2900), invoice('in_2', 0), invoice('in_1', 2900)];
    expect(shownInvoices(list).map((i) => i.id)).toEqual(['in_3', 'in_1']);
  });
});
