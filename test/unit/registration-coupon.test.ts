/**
 * The coupon a registration sends (docs/accounts.md "Screens": the `coupon` query parameter, and
 * the partner-campaign path that applies a fixed coupon whose value is not shown; docs/accounts.md
 * "Validation rules" an invalid coupon is flagged and not applied).
 */
import { describe, expect, it } from 'vitest';
import { PARTNER_CAMPAIGN_PATH, PARTNER_COUPON_LOOKUP } from '#shared/billing.ts';
import { isApiRequest } from '#shared/routes.ts';
import { couponFields } from '../../web/src/features/registration/coupon.ts';

describe('couponFields', () => {
  it('sends the URL’s coupon unless the lookup called it invalid', () => {
    expect(couponFields('LAUNCH20', 'valid', false)).toEqual({ coupon: 'LAUNCH20' });
    expect(couponFields('LAUNCH20', 'checking', false)).toEqual({ coupon: 'LAUNCH20' });
    expect(couponFields('LAUNCH20', 'unknown', false)).toEqual({ coupon: 'LAUNCH20' });
    expect(couponFields('EXPIRED', 'invalid', false)).toEqual({});
    expect(couponFields(undefined, 'none', false)).toEqual({});
  });

  it('on the partner path sends no coupon and no flag (the route asks for the campaign coupon)', () => {
    for (const state of ['valid', 'unknown', 'invalid'] as const)
      expect(couponFields(PARTNER_COUPON_LOOKUP, state, true)).toEqual({});
  });
});

describe('the partner-campaign path', () => {
  it('is a page of the SPA for a navigation, and the partner registration call for a POST', () => {
    const nav = 'text/html,application/xhtml+xml,*/*;q=0.8';
    expect(isApiRequest({ method: 'GET', path: PARTNER_CAMPAIGN_PATH, accept: nav })).toBe(false);
    // A JSON GET is a call with the wrong method (405): registration is POST /register/partner.
    expect(
      isApiRequest({ method: 'GET', path: PARTNER_CAMPAIGN_PATH, accept: 'application/json' }),
    ).toBe(true);
    // Registration itself still posts to the API, the partner's to its own route.
    expect(isApiRequest({ method: 'POST', path: '/register', accept: 'application/json' })).toBe(
      true,
    );
    expect(
      isApiRequest({ method: 'POST', path: PARTNER_CAMPAIGN_PATH, accept: 'application/json' }),
    ).toBe(true);
  });
});
