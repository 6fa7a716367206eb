import { Spinner } from '../../components/Spinner.tsx';
import { describeCoupon } from './coupon.ts';
import type { CouponState } from './hooks.ts';

/**
 * What the coupon from the address bar gives (spec 001 §2 query parameter `coupon`; §5 "Invalid
 * coupon … sets an invalid flag"). An invalid code is said plainly and is not sent; a code that
 * could not be checked is sent, and the server decides.
 */
export function CouponNote({ coupon }: { coupon: CouponState }) {
  if (coupon.state === 'none') return null;
  const code = <code>{coupon.code}</code>;
  return (
    <p
      className={`coupon-note${coupon.state === 'invalid' ? ' coupon-note--invalid' : ''}`}
      role="status"
      data-coupon-state={coupon.state}
    >
      {coupon.state === 'checking' && (
        <>
          <Spinner /> Checking coupon {code}…
        </>
      )}
      {coupon.state === 'valid' && (
        <>
          Coupon {code}
          {describeCoupon(coupon.coupon) ? `: ${describeCoupon(coupon.coupon)}` : ''}. It applies to
          a paid plan.
        </>
      )}
      {coupon.state === 'invalid' && (
        <>
          <span aria-hidden="true">! </span>Coupon {code} is not valid, so it will not be applied.
        </>
      )}
      {coupon.state === 'unknown' && (
        <>
          Coupon {code} could not be checked ({coupon.message}). It is kept with your registration.
        </>
      )}
    </p>
  );
}
