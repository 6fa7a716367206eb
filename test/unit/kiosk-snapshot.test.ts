/**
 * The daily snapshot's figures with a fixed clock (functions/kiosk/snapshot-figures.ts;
 * docs/kiosk.md "Metrics and the daily snapshot") and the percent change the kiosk shows (spec
 * 001 §9: rounded to a whole number, a plus sign when positive).
 */
import { describe, expect, it } from 'vitest';
import {
  BACKFILL_DAYS,
  dailyVolume,
  monthlyRecurringRevenue,
  monthsBefore,
  plannedSnapshots,
  type SnapshotRecords,
} from '#functions/kiosk/snapshot-figures.ts';
import { percentChange } from '#shared/contract/kiosk.ts';

const NOW = new Date('2026-03-10T00:05:00.000Z');

const RECORDS: SnapshotRecords = {
  userCreatedAt: [
    '2026-03-09T00:00:00.000Z',
    '2026-03-09T23:59:59.999Z',
    '2026-03-10T00:01:00.000Z', // today: not yet in a snapshot
    '2026-02-20T12:00:00.000Z',
  ],
  plans: [
    { planId: 'free', name: 'Free', price: 0, interval: 'monthly' },
    { planId: 'starter-monthly', name: 'Starter', price: 900, interval: 'monthly' },
    { planId: 'pro-yearly', name: 'Pro', price: 29000, interval: 'yearly' },
  ],
  subscriptions: [
    // 2 seats renewed on 2026-03-09 (period 03-09 → 04-09).
    {
      planId: 'starter-monthly',
      stripeStatus: 'active',
      quantity: 2,
      currentPeriodEnd: '2026-04-09T10:00:00.000Z',
    },
    // Yearly, began 2025-06-01: 29000 / 12 a month.
    {
      planId: 'pro-yearly',
      stripeStatus: 'active',
      quantity: 1,
      currentPeriodEnd: '2026-06-01T00:00:00.000Z',
    },
    // Trial, cancelled and unknown plan: no recurring revenue.
    { planId: 'starter-monthly', stripeStatus: 'trialing', quantity: 1 },
    {
      planId: 'starter-monthly',
      stripeStatus: 'active',
      quantity: 1,
      endsAt: '2026-03-30T00:00:00.000Z',
    },
    { planId: 'gone', stripeStatus: 'active', quantity: 1 },
  ],
};

describe('plannedSnapshots (fixed clock 2026-03-10 00:05 UTC)', () => {
  it('snapshots the day that ended with the revenue now, and backfills the days before', () => {
    const planned = plannedSnapshots(RECORDS, new Set(), NOW);
    expect(planned).toHaveLength(BACKFILL_DAYS + 1);
    expect(planned.at(-1)).toEqual({
      day: '2026-03-09',
      monthlyRecurringRevenue: 1800 + 2417,
      yearlyRecurringRevenue: (1800 + 2417) * 12,
      dailyVolume: 1800,
      newUsers: 2,
      backfilled: false,
    });
    expect(planned[0]!.day).toBe('2026-02-06');
    const feb20 = planned.find((p) => p.day === '2026-02-20');
    expect(feb20).toEqual({ day: '2026-02-20', dailyVolume: 0, newUsers: 1, backfilled: true });
  });

  it('writes nothing for days that have a snapshot (a second run the same day)', () => {
    const first = plannedSnapshots(RECORDS, new Set(), NOW);
    const again = plannedSnapshots(RECORDS, new Set(first.map((p) => p.day)), NOW);
    expect(again).toEqual([]);
  });

  it('the next day adds only that day', () => {
    const first = plannedSnapshots(RECORDS, new Set(), NOW);
    const next = plannedSnapshots(
      RECORDS,
      new Set(first.map((p) => p.day)),
      new Date('2026-03-11T00:05:00.000Z'),
    );
    expect(next.map((p) => [p.day, p.backfilled])).toEqual([['2026-03-10', false]]);
    expect(next[0]!.newUsers).toBe(1);
  });
});

describe('the figures', () => {
  it('spreads yearly plans over 12 months and rounds once', () => {
    expect(monthlyRecurringRevenue(RECORDS)).toBe(4217);
  });

  it('counts a renewal on the day its period began, at list price × seats', () => {
    expect(dailyVolume(RECORDS, '2026-03-09')).toBe(1800);
    expect(dailyVolume(RECORDS, '2026-03-10')).toBe(0);
    expect(dailyVolume(RECORDS, '2025-06-01')).toBe(29000);
  });

  it('steps back calendar months, clamped to shorter months', () => {
    expect(monthsBefore('2026-03-31', 1)).toBe('2026-02-28');
    expect(monthsBefore('2024-02-29', 12)).toBe('2023-02-28');
    expect(monthsBefore('2026-01-15', 1)).toBe('2025-12-15');
    expect(monthsBefore('2026-12-15', -1)).toBe('2027-01-15');
  });
});

describe('percentChange (spec 001 §9)', () => {
  it.each([
    [112, 100, '+12%'],
    [97, 100, '-3%'],
    [100, 100, '0%'],
    [1004, 1000, '0%'],
    [996, 1000, '0%'],
    [1005, 1000, '+1%'],
    [0, 50, '-100%'],
    [3, 1, '+200%'],
  ])('%d against %d is %s', (current, previous, shown) => {
    expect(percentChange(current, previous)).toBe(shown);
  });

  it('is null when there is nothing to compare with', () => {
    expect(percentChange(5, 0)).toBeNull();
    expect(percentChange(5, null)).toBeNull();
    expect(percentChange(null, 5)).toBeNull();
  });
});
