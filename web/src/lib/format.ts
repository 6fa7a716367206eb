/**
 * How the SPA writes numbers, dates, times and money: one locale policy (docs/accounts.md
 * "Formatting"), so the same value reads the same on every page and in every browser.
 *
 * - Numbers, dates and times are British English ({@link APP_LOCALE}), as the product's words
 *   are: "1,234", "22 Nov 2026", "22 Nov 2026, 14:05", in the browser's time zone unless a caller
 *   names one. Never the browser's own locale: a test, a screenshot and a support call then see
 *   what the user sees.
 * - Money is written as its currency's home market writes it ({@link MONEY_LOCALE}): prices are
 *   US dollars, "$29", which British English would write "US$29".
 * - Dates the specification spells out keep their own format (billing's "March 3rd, 2027",
 *   web/src/features/billing/format.ts).
 */

/** The locale of every number, date and time the SPA writes. */
export const APP_LOCALE = 'en-GB';
/** The locale of money: US dollars as Americans write them. */
const MONEY_LOCALE = 'en-US';

/** "1,234": a count. */
export const formatCount = (n: number): string => n.toLocaleString(APP_LOCALE);

const DAY = new Intl.DateTimeFormat(APP_LOCALE, {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});
const DAY_TIME = new Intl.DateTimeFormat(APP_LOCALE, { dateStyle: 'medium', timeStyle: 'short' });
const DAY_TIME_SECONDS = new Intl.DateTimeFormat(APP_LOCALE, {
  dateStyle: 'medium',
  timeStyle: 'medium',
});

/** A Date, or null when `value` is empty or not a date. */
function dateOf(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * "22 Nov 2026", in the browser's time zone.
 * @param value an ISO 8601 date-time, epoch ms or a Date.
 * @returns the day, or '' when `value` is not a date (the caller leaves the line out).
 */
export function formatDay(value: string | number | Date | null | undefined): string {
  const date = dateOf(value);
  return date ? DAY.format(date) : '';
}

/**
 * "22 Nov 2026, 14:05" ("…, 14:05:09" with `seconds`), in the browser's time zone.
 * @returns the moment, or '' when `value` is not a date.
 */
export function formatDateTime(
  value: string | number | Date | null | undefined,
  options: { seconds?: boolean } = {},
): string {
  const date = dateOf(value);
  if (!date) return '';
  return (options.seconds ? DAY_TIME_SECONDS : DAY_TIME).format(date);
}

/**
 * An amount of money: "$29", "$29.50", "€12.10"; whole amounts without decimals.
 * @param cents the amount in the currency's minor unit (cents).
 * @param currency ISO 4217 code, any case; US dollars unless given.
 */
export function formatMoney(cents: number, currency = 'usd'): string {
  const code = currency.toUpperCase();
  try {
    return new Intl.NumberFormat(MONEY_LOCALE, {
      style: 'currency',
      currency: code,
      minimumFractionDigits: cents % 100 === 0 ? 0 : 2,
    }).format(cents / 100);
  } catch {
    // An unknown currency code: still show the number.
    return `${(cents / 100).toFixed(2)} ${code}`;
  }
}
