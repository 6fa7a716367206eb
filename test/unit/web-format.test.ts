/**
 * The SPA's one locale policy (web/src/lib/format.ts, docs/accounts.md "Formatting"): counts,
 * days and moments in British English whatever the browser's locale, money as its currency's
 * market writes it.
 */
import { describe, expect, it } from 'vitest';
import { formatCount, formatDateTime, formatDay, formatMoney } from '../../web/src/lib/format.ts';

describe('the SPA formats', () => {
  it('writes counts with thousands separators', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(1)).toBe('1');
  });

  it('writes a day as "22 Nov 2026" and a moment with its time, empty for no date', () => {
    const noon = new Date(2026, 10, 22, 12, 5, 9);
    expect(formatDay(noon)).toBe('22 Nov 2026');
    expect(formatDateTime(noon)).toBe('22 Nov 2026, 12:05');
    expect(formatDateTime(noon, { seconds: true })).toBe('22 Nov 2026, 12:05:09');
    expect(formatDay('not a date')).toBe('');
    expect(formatDateTime(null)).toBe('');
  });

  it('writes US dollars as "$29", cents only when there are some, other currencies in theirs', () => {
    expect(formatMoney(2900)).toBe('$29');
    expect(formatMoney(2950)).toBe('$29.50');
    expect(formatMoney(1210, 'eur')).toBe('€12.10');
    expect(formatMoney(500, 'xx1')).toBe('5.00 XX1');
  });
});
