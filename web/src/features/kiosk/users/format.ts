/** Display helpers of the kiosk's user and team screens. */

/** An ISO date and time as the admin's locale writes it, or a dash. */
export const when = (iso: string | null | undefined): string =>
  iso ? new Date(iso).toLocaleString() : '—';

/** Cents as dollars: 1550 → "$15.50". */
export const dollars = (cents: number, currency = 'usd'): string =>
  new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(cents / 100);

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
