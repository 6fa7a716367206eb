/**
 * How billing writes dates, money and cards (docs/billing.md "Flows": "Trial dates shown as 'MMMM
 * Do, YYYY'", docs/accounts.md "Constants": "a masked card shows 12 asterisks plus the last four",
 * "Card brands map to icons").
 */
import { format } from 'date-fns';

/**
 * A trial or period end as the spec writes it: 'MMMM Do, YYYY' (moment.js tokens) is date-fns
 * `MMMM do, yyyy`, e.g. "March 3rd, 2027", in the browser's time zone.
 *
 * @param value an ISO 8601 date-time, epoch milliseconds, or a Date.
 * @returns the date, or '' when `value` is not a date (the caller leaves the line out).
 */
export function formatBillingDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? '' : format(date, 'MMMM do, yyyy');
}

/** docs/accounts.md "Constants": twelve asterisks, then the card's last four digits. */
export function maskedCardNumber(lastFour: string): string {
  return `************${lastFour}`;
}

/** The readable name of a card brand as Stripe spells it (`visa`, `amex`, `mastercard`…). */
export function cardBrandName(brand: string | null | undefined): string {
  const key = (brand ?? '').toLowerCase().replace(/[\s_-]+/g, '');
  return CARD_BRANDS[key] ?? (brand ? brand : 'Card');
}

const CARD_BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  americanexpress: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  dinersclub: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  cartesbancaires: 'Cartes Bancaires',
  eftposau: 'eftpos',
  link: 'Link',
};

/** "/ month", "/ year": the price suffix of a plan's interval. */
export const perInterval = (interval: 'monthly' | 'yearly'): string =>
  interval === 'yearly' ? 'year' : 'month';
