/**
 * The billing screens' rules: the default plan and the yearly display at registration
 * (docs/billing.md "Flows"), how a failed subscription call is shown (docs/accounts.md "Error
 * answers in the SPA"), what a coupon gives (docs/billing.md "Model"), and the billing details sent
 * (docs/billing.md "Model", docs/accounts.md "Constants": country default US, VAT id only where VAT
 * applies).
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../web/src/api/client.ts';
import type { Plan } from '../../web/src/api/plans.ts';
import {
  BillingDetailsSchema,
  EMPTY_BILLING,
  billingRequest,
} from '../../web/src/features/billing/billingDetails.ts';
import { describeCoupon } from '../../web/src/features/billing/coupon.ts';
import { defaultCountry } from '../../web/src/features/billing/countries.ts';
import {
  SUBSCRIPTION_ERROR_MESSAGE,
  paymentIdOf,
  subscriptionFailure,
} from '../../web/src/features/billing/failure.ts';
import { defaultPlanChoice, plansFor } from '../../web/src/features/billing/plans.ts';

const plan = (id: string, price: number, interval: Plan['interval'], available = true): Plan => ({
  id,
  name: id,
  price,
  interval,
  type: 'team',
  available,
});
const free = plan('free', 0, 'monthly');
const proMonthly = plan('pro-monthly', 2900, 'monthly');
const proYearly = plan('pro-yearly', 29000, 'yearly');
const teamMonthly = plan('team-monthly', 9900, 'monthly');

describe('default plan at registration (spec 001 §4)', () => {
  const plans = [free, proMonthly, teamMonthly, proYearly];

  it('takes the plan from the query, by id or by name', () => {
    expect(defaultPlanChoice(plans, 'team-monthly', false).planId).toBe('team-monthly');
    expect(defaultPlanChoice(plans, 'PRO-YEARLY', false)).toMatchObject({
      planId: 'pro-yearly',
      interval: 'yearly',
    });
  });

  it('takes the free plan when an invitation is present', () => {
    expect(defaultPlanChoice(plans, null, true).planId).toBe('free');
  });

  it('else takes the first paid plan of the active interval', () => {
    expect(defaultPlanChoice(plans, null, false)).toMatchObject({
      planId: 'pro-monthly',
      interval: 'monthly',
    });
  });

  it('else the free plan: offline, paid plans cannot be taken and a requested one is named', () => {
    const offline = [free, plan('pro-monthly', 2900, 'monthly', false)];
    expect(defaultPlanChoice(offline, null, false).planId).toBe('free');
    const choice = defaultPlanChoice(offline, 'pro-monthly', false);
    expect(choice.planId).toBe('free');
    expect(choice.unavailableRequest?.id).toBe('pro-monthly');
  });
});

describe('yearly display (spec 001 §4 "Yearly plans are shown when there are no monthly plans or the selected plan is yearly")', () => {
  it('shows yearly plans when there are no monthly ones', () => {
    expect(defaultPlanChoice([free, proYearly], null, false).interval).toBe('yearly');
  });

  it('shows the free plan and the paid plans of the interval', () => {
    const plans = [free, proMonthly, proYearly];
    expect(plansFor(plans, 'yearly').map((p) => p.id)).toEqual(['free', 'pro-yearly']);
    expect(plansFor(plans, 'monthly').map((p) => p.id)).toEqual(['free', 'pro-monthly']);
  });
});

describe('subscriptionFailure (spec 001 §8)', () => {
  it('sends a 400 with paymentId to the payment confirmation', () => {
    const error = new ApiError(
      400,
      'Extra confirmation is needed to process your payment.',
      undefined,
      {
        success: false,
        code: 'payment_action_required',
        message: 'Extra confirmation is needed to process your payment.',
        paymentId: 'pi_123',
      },
    );
    expect(subscriptionFailure(error)).toEqual({ kind: 'payment', paymentId: 'pi_123' });
  });

  it('puts 422 errors on fields and keeps the ones the form lacks in a message', () => {
    const error = new ApiError(422, 'The given data was invalid.', {
      vat_id: ['The VAT ID is invalid.'],
      coupon: ['This coupon code is invalid.'],
    });
    expect(subscriptionFailure(error, ['vat_id'])).toEqual({
      kind: 'fields',
      errors: { vat_id: ['The VAT ID is invalid.'], coupon: ['This coupon code is invalid.'] },
      message: 'This coupon code is invalid.',
    });
    expect(subscriptionFailure(error, ['vat_id', 'coupon'])).toMatchObject({ message: null });
  });

  it("gives the spec's message for anything else, even when the answer has its own", () => {
    for (const status of [0, 400, 403, 409, 500, 502]) {
      expect(subscriptionFailure(new ApiError(status, 'Stripe said no'))).toEqual({
        kind: 'message',
        message: SUBSCRIPTION_ERROR_MESSAGE,
      });
    }
    expect(SUBSCRIPTION_ERROR_MESSAGE).toBe(
      'We were unable to update your subscription. Please contact customer support.',
    );
    expect(subscriptionFailure(new TypeError('boom')).kind).toBe('message');
  });

  it('says nothing more after a 401 (the session modal opens) and passes a 501 through', () => {
    expect(subscriptionFailure(new ApiError(401, 'Unauthenticated.'))).toEqual({
      kind: 'message',
      message: '',
    });
    expect(subscriptionFailure(new ApiError(501, 'Billing is not available.'))).toEqual({
      kind: 'message',
      message: 'Billing is not available.',
    });
  });
});

describe('paymentIdOf (registration and subscribe 400s, spec 001 §4)', () => {
  it('reads the PaymentIntent id only from a 400 that carries one', () => {
    const body = { success: false, code: 'payment_action_required', paymentId: 'pi_9' };
    expect(paymentIdOf(new ApiError(400, 'Confirm.', undefined, body))).toBe('pi_9');
    expect(paymentIdOf(new ApiError(402, 'Confirm.', undefined, body))).toBeUndefined();
    expect(paymentIdOf(new ApiError(400, 'Bad.', undefined, { paymentId: '' }))).toBeUndefined();
    expect(paymentIdOf(new Error('boom'))).toBeUndefined();
  });
});

describe('describeCoupon', () => {
  const base = { percent_off: null, amount_off: null, duration: null, duration_in_months: null };
  it.each([
    [
      { ...base, percent_off: 20, duration: 'repeating', duration_in_months: 3 },
      '20% off for 3 months',
    ],
    [{ ...base, percent_off: 15, duration: 'forever' }, '15% off forever'],
    [{ ...base, amount_off: 1000, duration: 'once', currency: 'usd' }, '$10 off the first invoice'],
    [
      { ...base, percent_off: 50, duration: 'repeating', duration_in_months: 1 },
      '50% off for 1 month',
    ],
    [base, ''],
  ] as const)('%o → %s', (coupon, text) => {
    expect(describeCoupon(coupon)).toBe(text);
  });
});

describe('billing details', () => {
  it("needs an address, a city and a postal code, and keeps the server's length limits", () => {
    const empty = BillingDetailsSchema.safeParse({ ...EMPTY_BILLING, city: '   ' });
    expect(empty.success).toBe(false);
    expect(
      Object.fromEntries(empty.error!.issues.map((issue) => [issue.path[0], issue.message])),
    ).toEqual({
      address: 'Please enter a value.',
      city: 'Please enter a value.',
      zip: 'Please enter a value.',
    });
    const filled = { ...EMPTY_BILLING, address: ' 1 Main St ', city: 'Berlin', zip: '10115' };
    expect(BillingDetailsSchema.parse(filled)).toEqual({ ...filled, address: '1 Main St' });
    const long = BillingDetailsSchema.safeParse({
      ...filled,
      zip: '1'.repeat(33),
      vat_id: 'D'.repeat(65),
    });
    expect(long.error?.issues.map((issue) => issue.path[0])).toEqual(['zip', 'vat_id']);
  });

  it('sends the VAT id only for a VAT country, and the default country when none is chosen', () => {
    const values = { ...EMPTY_BILLING, address: ' 1 Main St ', vat_id: 'DE123456789' };
    expect(billingRequest({ ...values, country: 'DE' }, 'US')).toEqual({
      country: 'DE',
      address: '1 Main St',
      vat_id: 'DE123456789',
    });
    expect(billingRequest({ ...values, country: 'gb' }, 'US').vat_id).toBe('DE123456789');
    expect(billingRequest(values, 'US')).toEqual({ country: 'US', address: '1 Main St' });
  });

  it("starts with the visitor's country, or US when it is unknown (ZZ)", () => {
    expect(defaultCountry('de')).toBe('DE');
    expect(defaultCountry('ZZ')).toBe('US');
    expect(defaultCountry(undefined)).toBe('US');
  });
});
