/**
 * The coupon a registration sends (docs/accounts.md "Screens" query parameter `coupon` and the
 * partner-campaign path; docs/accounts.md "Validation rules": "Invalid coupon … sets an invalid
 * flag").
 */
import type { RegistrationRequest } from '../../api/registration.ts';
import type { CouponState } from '../billing/hooks.ts';

/**
 * The `POST /register` fields for the page's coupon:
 * - on the partner-campaign path, nothing: the page posts to `POST /register/partner`, whose
 *   route (never a field) makes the server apply the configured coupon, whose code never
 *   reaches the browser;
 * - else the URL's `coupon`, unless the lookup called it invalid.
 * A coupon that could not be checked is sent, and the server decides.
 *
 * @param code the looked-up code (the URL's coupon, or `PARTNER_COUPON_LOOKUP`), or undefined.
 * @param state the lookup's state (`useCouponLookup`).
 * @param partnerCampaign true on the partner-campaign path.
 */
export function couponFields(
  code: string | undefined,
  state: CouponState['state'],
  partnerCampaign: boolean,
): Pick<RegistrationRequest, 'coupon'> {
  if (partnerCampaign || state === 'invalid' || state === 'none' || code === undefined) return {};
  return { coupon: code };
}
