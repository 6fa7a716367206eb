/**
 * The fallback counter (functions/render/fallback-counter.ts; docs/analytics.md "Fallbacks"):
 * one write per design, hour and reason per flush, by the hour the fallback was served in, and
 * a failed write's count kept for the next flush.
 */
import { describe, expect, it } from 'vitest';
import { FallbackCounter, type FallbackReason } from '#functions/render/fallback-counter.ts';

describe('FallbackCounter', () => {
  it('adds up per design, hour and reason, and keeps a failed write for the next flush', async () => {
    let now = Date.parse('2026-11-28T10:59:00Z');
    const written: Array<[string, string, FallbackReason, number]> = [];
    let failNext = true;
    const counter = new FallbackCounter(
      async (designId, hour, reason, n) => {
        if (failNext && reason === 'failed') {
          failNext = false;
          throw new Error('throttled');
        }
        written.push([designId, hour, reason, n]);
      },
      // Flushed by hand here: no interval or size reached.
      24 * 3_600_000,
      1000,
      () => now,
    );
    counter.count('d1', 'over_quota');
    counter.count('d1', 'over_quota');
    counter.count('d1', 'failed');
    now += 2 * 60_000; // the next hour
    counter.count('d1', 'over_quota');
    counter.count('d2', 'refused');
    await counter.flush();
    expect(written.sort()).toEqual([
      ['d1', '2026-11-28T10', 'over_quota', 2],
      ['d1', '2026-11-28T11', 'over_quota', 1],
      ['d2', '2026-11-28T11', 'refused', 1],
    ]);
    await counter.flush();
    expect(written).toContainEqual(['d1', '2026-11-28T10', 'failed', 1]);
  });
});
