import { Spinner } from '../../components/Spinner.tsx';
import { describeCoupon } from './coupon.ts';
import type { CouponState } from './hooks.ts';

/**
 * What the coupon from the address bar gives (docs/adr/0026-billing-in-the-spa.md "Billing in the
 * SPA" query parameter `coupon`; docs/accounts.md "Validation rules": "Invalid coupon … sets an
 * invalid flag"). An invalid code is said plainly and is not sent; a code that could not be checked
 * is sent, and the server decides.
 *
 * With `partner` (the partner-campaign path, docs/adr/0026-billing-in-the-spa.md "Billing in the
 * SPA") the coupon is the campaign's: its terms are shown as the partner offer, never its code
 * ("the coupon value is not shown").
 */
export function CouponNote({
  coupon,
  partner = false,
}: {
  coupon: CouponState;
  partner?: boolean;
}) {
  if (coupon.state === 'none') return null;
  const name = partner ? 'The partner offer' : 'Coupon';
  const code = partner ? null : (
    <>
      {' '}
      <code>{coupon.code}</code>
    </>
  );
  const terms = coupon.state === 'valid' ? describeCoupon(coupon.coupon) : '';
  return (
    <p
      className={`coupon-note${coupon.state === 'invalid' ? ' coupon-note--invalid' : ''}`}
      role="status"
      data-coupon-state={coupon.state}
    >
      {coupon.state === 'checking' && (
        <>
          <Spinner /> Checking {partner ? 'the partner offer' : 'coupon'}
          {code}…
        </>
      )}
      {coupon.state === 'valid' && (
        <>
          {partner ? 'Partner offer' : 'Coupon'}
          {code}
          {terms ? `: ${terms}` : ''}. It applies to a paid plan.
        </>
      )}
      {coupon.state === 'invalid' && (
        <>
          <span aria-hidden="true">! </span>
          {partner ? (
            'The partner offer is not available right now, so no discount will be applied.'
          ) : (
            <>Coupon{code} is not valid, so it will not be applied.</>
          )}
        </>
      )}
      {coupon.state === 'unknown' && (
        <>
          {name}
          {code} could not be checked ({coupon.message}). It is kept with your registration.
        </>
      )}
    </p>
  );
}
