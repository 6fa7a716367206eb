/**
 * The coupon a registration sends (spec 001 §2: the `coupon` query parameter, and the
 * partner-campaign path that applies a fixed coupon whose value is not shown; §5 an invalid
 * coupon is flagged and not applied).
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

  it('on the partner path sends the campaign flag, never a coupon code', () => {
    expect(couponFields(PARTNER_COUPON_LOOKUP, 'valid', true)).toEqual({ partner_campaign: true });
    expect(couponFields(PARTNER_COUPON_LOOKUP, 'unknown', true)).toEqual({
      partner_campaign: true,
    });
    // No campaign coupon configured, or billing offline: the page said so, nothing is sent.
    expect(couponFields(PARTNER_COUPON_LOOKUP, 'invalid', true)).toEqual({});
  });
});

describe('the partner-campaign path', () => {
  it('is a page of the SPA, not an API call, even for a JSON request', () => {
    const nav = 'text/html,application/xhtml+xml,*/*;q=0.8';
    expect(isApiRequest({ method: 'GET', path: PARTNER_CAMPAIGN_PATH, accept: nav })).toBe(false);
    expect(
      isApiRequest({ method: 'GET', path: PARTNER_CAMPAIGN_PATH, accept: 'application/json' }),
    ).toBe(false);
    // Registration itself still posts to the API.
    expect(isApiRequest({ method: 'POST', path: '/register', accept: 'application/json' })).toBe(
      true,
    );
  });
});
