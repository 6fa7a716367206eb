/**
 * What a coupon gives, in words (docs/billing.md "Model" Coupon: percent_off or amount_off in
 * cents).
 */
import type { CouponLookupResponse, Discount } from '#shared/billing.ts';
import { formatMoney } from '../../lib/format.ts';

type CouponTerms = Pick<
  CouponLookupResponse | Discount,
  'percent_off' | 'amount_off' | 'duration' | 'duration_in_months'
> & { currency?: string | null };

/**
 * "20% off for 3 months", "$10 off the first invoice", "15% off forever".
 * @returns the text, or '' when the coupon gives nothing the SPA can describe.
 */
export function describeCoupon(coupon: CouponTerms): string {
  const off =
    coupon.percent_off !== null && coupon.percent_off > 0
      ? `${coupon.percent_off}% off`
      : coupon.amount_off !== null && coupon.amount_off > 0
        ? `${formatMoney(coupon.amount_off, coupon.currency ?? 'usd')} off`
        : '';
  if (off === '') return '';
  switch (coupon.duration) {
    case 'forever':
      return `${off} forever`;
    case 'repeating': {
      const months = coupon.duration_in_months ?? 0;
      return months > 0 ? `${off} for ${months} ${months === 1 ? 'month' : 'months'}` : off;
    }
    case 'once':
      return `${off} the first invoice`;
    default:
      return off;
  }
}
