/**
 * How billing writes dates, money and cards (docs/billing.md "Flows" 'MMMM Do, YYYY';
 * docs/accounts.md "Constants" masked card), and where the payment-confirmation page may send the
 * browser back to (docs/adr/0026-billing-in-the-spa.md "Billing in the SPA").
 */
import { describe, expect, it } from 'vitest';
import {
  cardBrandName,
  formatBillingDate,
  maskedCardNumber,
} from '../../web/src/features/billing/format.ts';
import { formatMoney } from '../../web/src/lib/format.ts';
import { DEFAULT_PAYMENT_REDIRECT, safeRedirect } from '../../web/src/features/billing/redirect.ts';

describe('formatBillingDate (spec 001 §4 "MMMM Do, YYYY")', () => {
  // Midday UTC, so the day is the same in every time zone the tests may run in.
  it.each([
    ['2027-03-03T12:00:00Z', 'March 3rd, 2027'],
    ['2026-11-22T12:00:00Z', 'November 22nd, 2026'],
    ['2026-01-01T12:00:00Z', 'January 1st, 2026'],
    ['2026-08-11T12:00:00Z', 'August 11th, 2026'],
  ])('%s → %s', (iso, shown) => {
    expect(formatBillingDate(iso)).toBe(shown);
    expect(formatBillingDate(Date.parse(iso))).toBe(shown);
  });

  it('leaves out what is not a date', () => {
    expect(formatBillingDate(null)).toBe('');
    expect(formatBillingDate('')).toBe('');
    expect(formatBillingDate('soon')).toBe('');
  });
});

describe('formatMoney', () => {
  it('writes whole amounts without decimals and others with two', () => {
    expect(formatMoney(2900)).toBe('$29');
    expect(formatMoney(2950)).toBe('$29.50');
    expect(formatMoney(1210, 'eur')).toBe('€12.10');
    expect(formatMoney(0)).toBe('$0');
  });
});

describe('the masked card (spec 001 §9)', () => {
  it('shows twelve asterisks and the last four', () => {
    expect(maskedCardNumber('4242')).toBe('************4242');
  });

  it('names the brands Stripe sends', () => {
    expect(cardBrandName('visa')).toBe('Visa');
    expect(cardBrandName('amex')).toBe('American Express');
    expect(cardBrandName('American Express')).toBe('American Express');
    expect(cardBrandName('somethingnew')).toBe('somethingnew');
    expect(cardBrandName(null)).toBe('Card');
  });
});

describe('safeRedirect (payment confirmation, spec 001 §2)', () => {
  const origin = 'https://app.example.com';

  it('keeps a path on this site with its query and hash', () => {
    expect(safeRedirect('/settings/companies/t1#/subscription', origin)).toBe(
      '/settings/companies/t1#/subscription',
    );
    expect(safeRedirect('/settings?x=1#/subscription', origin)).toBe('/settings?x=1#/subscription');
  });

  it.each([
    [null],
    [''],
    ['https://evil.example/settings'],
    ['//evil.example/settings'],
    ['/\\evil.example'],
    ['javascript:alert(1)'],
    ['settings'],
  ])('refuses %s and goes to the subscription settings', (raw) => {
    expect(safeRedirect(raw, origin)).toBe(DEFAULT_PAYMENT_REDIRECT);
  });
});
