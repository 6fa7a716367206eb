/** Display helpers of the kiosk's user and team screens. */
import { formatDateTime, formatMoney } from '../../../lib/format.ts';

/** An ISO date and time as the SPA writes it (web/src/lib/format.ts), or a dash. */
export const when = (iso: string | null | undefined): string =>
  iso ? formatDateTime(iso) || '—' : '—';

/** Cents as dollars: 1550 → "$15.50". */
export const dollars = (cents: number, currency = 'usd'): string => formatMoney(cents, currency);

/** A discount in words: "$15.50 off, once", "25% off, for 3 months". */
export function discountText(d: {
  percent_off: number | null;
  amount_off: number | null;
  duration: 'once' | 'repeating' | 'forever';
  duration_in_months: number | null;
}): string {
  const off =
    d.percent_off !== null ? `${d.percent_off}% off` : `${dollars(d.amount_off ?? 0)} off`;
  const span =
    d.duration === 'repeating'
      ? `for ${d.duration_in_months ?? 0} months`
      : d.duration === 'forever'
        ? 'forever'
        : 'once';
  return `${off}, ${span}`;
}
