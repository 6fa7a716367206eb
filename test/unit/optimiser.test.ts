/**
 * Optimise for clicks (docs/optimiser.md): Thompson sampling moves traffic to the best variant
 * of a simulated campaign, every variant keeps its exploration floor, the split stays equal while
 * collecting, the ranges cover 0–100 and assign a recipient stably, the same seed gives the same
 * weights, and bad input is refused.
 */
import { describe, expect, it } from 'vitest';
import {
  applyExplorationFloor,
  DEFAULT_OPTIMISER_SETTINGS,
  mulberry32,
  optimiseSplit,
  variantForBucket,
  weightsToRanges,
  type OptimisedSplit,
  type VariantRange,
  type VariantStats,
} from '#shared/analytics/optimiser.ts';
import { splitBucket } from '#shared/scene/rules.ts';

const PUBLIC_ID = 'd-optimiser';
const FLOOR = DEFAULT_OPTIMISER_SETTINGS.explorationFloor;

/** The recipient's bucket, as the render computes it from their values. */
const bucketOf = (recipient: string): number => splitBucket(PUBLIC_ID, [['email', recipient]]);

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

/** Ranges are contiguous from 0 to 100, one per variant in order. */
function expectCovers(ranges: readonly VariantRange[], ids: readonly string[]): void {
  expect(ranges.map((r) => r.id)).toEqual(ids);
  expect(ranges[0]!.from).toBe(0);
  expect(ranges.at(-1)!.to).toBe(100);
  for (let i = 1; i < ranges.length; i++) expect(ranges[i]!.from).toBe(ranges[i - 1]!.to);
  for (const r of ranges) expect(r.to).toBeGreaterThanOrEqual(r.from);
}

describe('optimiseSplit: a simulated campaign', () => {
  /** True click rates: c is best. */
  const RATES: Record<string, number> = { a: 0.02, b: 0.03, c: 0.05 };
  const ROUNDS = 30;
  const PER_ROUND = 2000;

  /** Runs the campaign: each round sends to new recipients by bucket, then reweights. */
  function simulate(): OptimisedSplit[] {
    const stats: VariantStats[] = Object.keys(RATES).map((id) => ({ id, shown: 0, clicks: 0 }));
    const byId = new Map(stats.map((s) => [s.id, s]));
    const clicksRandom = mulberry32(7);
    let split = optimiseSplit(stats, 0);
    const rounds: OptimisedSplit[] = [split];
    let recipient = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      const ranges = weightsToRanges(split.weights);
      for (let k = 0; k < PER_ROUND; k++, recipient++) {
        const id = variantForBucket(ranges, bucketOf(`r${recipient}`))!;
        const variant = byId.get(id)!;
        variant.shown++;
        if (clicksRandom() < RATES[id]!) variant.clicks++;
      }
      split = optimiseSplit(stats, round);
      rounds.push(split);
    }
    return rounds;
  }

  const rounds = simulate();

  it('moves most traffic to the best variant, the winner', () => {
    const last = rounds.at(-1)!;
    const best = last.weights.find((w) => w.id === 'c')!;
    expect(last.collecting).toBe(false);
    expect(best.weight).toBeGreaterThan(0.6);
    expect(Math.max(...last.weights.map((w) => w.weight))).toBe(best.weight);
    expect(last.winner?.id).toBe('c');
    expect(last.winner!.probabilityBest).toBeGreaterThan(0.9);
  });

  it('keeps every variant at the exploration floor or above, and the weights sum to 1', () => {
    for (const [round, split] of rounds.entries()) {
      const weights = split.weights.map((w) => w.weight);
      expect(Math.abs(sum(weights) - 1), `round ${round}`).toBeLessThan(1e-9);
      for (const w of weights) expect(w, `round ${round}`).toBeGreaterThanOrEqual(FLOOR - 1e-12);
      const ranges = weightsToRanges(split.weights);
      expectCovers(ranges, ['a', 'b', 'c']);
      for (const r of ranges) expect(r.to - r.from, `round ${round}`).toBeGreaterThanOrEqual(1);
    }
  });
});

describe('optimiseSplit: collecting', () => {
  it('keeps equal weights and no winner while any variant is under the minimum sample', () => {
    const stats: VariantStats[] = [
      { id: 'a', shown: 5000, clicks: 400 },
      { id: 'b', shown: 5000, clicks: 50 },
      { id: 'c', shown: 99, clicks: 0 },
    ];
    const split = optimiseSplit(stats, 1);
    expect(split.collecting).toBe(true);
    expect(split.winner).toBeNull();
    for (const w of split.weights) expect(w.weight).toBeCloseTo(1 / 3, 12);
    // The estimate is still reported: a is far ahead.
    expect(split.weights[0]!.probabilityBest).toBeGreaterThan(0.9);

    const moved = optimiseSplit([...stats.slice(0, 2), { id: 'c', shown: 100, clicks: 0 }], 1);
    expect(moved.collecting).toBe(false);
    expect(moved.winner?.id).toBe('a');
  });

  it('starts collecting with no shows, and honours a custom minimum', () => {
    const fresh = optimiseSplit(
      [
        { id: 'x', shown: 0, clicks: 0 },
        { id: 'y', shown: 0, clicks: 0 },
      ],
      3,
    );
    expect(fresh.collecting).toBe(true);
    expect(fresh.weights.map((w) => w.weight)).toEqual([0.5, 0.5]);

    const small = [
      { id: 'x', shown: 20, clicks: 10 },
      { id: 'y', shown: 20, clicks: 0 },
    ];
    expect(optimiseSplit(small, 3).collecting).toBe(true);
    expect(optimiseSplit(small, 3, { minSamplePerVariant: 20 }).collecting).toBe(false);
  });

  it('clamps counts: clicks above shown, negatives and fractions', () => {
    const clamped = optimiseSplit(
      [
        { id: 'a', shown: 200.7, clicks: 500 },
        { id: 'b', shown: 200, clicks: -3 },
      ],
      9,
    );
    const same = optimiseSplit(
      [
        { id: 'a', shown: 200, clicks: 200 },
        { id: 'b', shown: 200, clicks: 0 },
      ],
      9,
    );
    expect(clamped).toEqual(same);
  });
});

describe('applyExplorationFloor', () => {
  it('raises shares to the floor and takes the cost from the others proportionally', () => {
    const held = applyExplorationFloor([0.9, 0.06, 0.04, 0], 0.05);
    expect(sum(held)).toBeCloseTo(1, 12);
    expect(held[2]).toBe(0.05);
    expect(held[3]).toBe(0.05);
    // 0.9 and 0.06 share the remaining 0.9 in their proportion 15:1 (0.84375 and 0.05625).
    expect(held[0]! / held[1]!).toBeCloseTo(0.9 / 0.06, 9);
    for (const w of held) expect(w).toBeGreaterThanOrEqual(0.05);
  });

  it('cascades: a share pushed below the floor is held too', () => {
    // Raising the two zeros costs 0.1: scaled by 0.9, 0.052 would fall to 0.0468, so it is held
    // too, and 0.8 and 0.148 share the remaining 0.85 in their own proportion.
    const held = applyExplorationFloor([0.8, 0.052, 0, 0, 0.148], 0.05);
    expect(sum(held)).toBeCloseTo(1, 12);
    expect(held.slice(1, 4)).toEqual([0.05, 0.05, 0.05]);
    expect(held[0]! / held[4]!).toBeCloseTo(0.8 / 0.148, 9);
    expect(held[0]! + held[4]!).toBeCloseTo(0.85, 12);
  });

  it('uses at most 1/n of the traffic as the floor', () => {
    const held = applyExplorationFloor([1, 0, 0], 0.5);
    for (const w of held) expect(w).toBeCloseTo(1 / 3, 12);
  });
});

describe('weightsToRanges and variantForBucket', () => {
  it('covers 0–100 contiguously, by largest remainder, with at least 1 bucket each', () => {
    const thirds = weightsToRanges([
      { id: 'a', weight: 1 / 3 },
      { id: 'b', weight: 1 / 3 },
      { id: 'c', weight: 1 / 3 },
    ]);
    expect(thirds).toEqual([
      { id: 'a', from: 0, to: 34 },
      { id: 'b', from: 34, to: 67 },
      { id: 'c', from: 67, to: 100 },
    ]);

    const tiny = weightsToRanges([
      { id: 'a', weight: 0.998 },
      { id: 'b', weight: 0.001 },
      { id: 'c', weight: 0.001 },
    ]);
    expectCovers(tiny, ['a', 'b', 'c']);
    expect(tiny.map((r) => r.to - r.from)).toEqual([98, 1, 1]);

    const twenty = Array.from({ length: 20 }, (_, i) => ({ id: `v${i}`, weight: 0.05 }));
    const ranges = weightsToRanges(twenty);
    expectCovers(
      ranges,
      twenty.map((w) => w.id),
    );
    for (const r of ranges) expect(r.to - r.from).toBe(5);

    const zero = weightsToRanges([
      { id: 'a', weight: 0.7 },
      { id: 'b', weight: 0 },
      { id: 'c', weight: 0.3 },
    ]);
    expect(zero).toEqual([
      { id: 'a', from: 0, to: 70 },
      { id: 'b', from: 70, to: 70 },
      { id: 'c', from: 70, to: 100 },
    ]);
  });

  it('assigns every bucket to exactly one variant, and a recipient always to the same one', () => {
    const ranges = weightsToRanges([
      { id: 'a', weight: 0.25 },
      { id: 'b', weight: 0.6 },
      { id: 'c', weight: 0.15 },
    ]);
    for (let bucket = 0; bucket < 100; bucket++) {
      expect(ranges.filter((r) => bucket >= r.from && bucket < r.to)).toHaveLength(1);
    }
    expect(variantForBucket(ranges, 0)).toBe('a');
    expect(variantForBucket(ranges, 24)).toBe('a');
    expect(variantForBucket(ranges, 25)).toBe('b');
    expect(variantForBucket(ranges, 99)).toBe('c');
    expect(variantForBucket(ranges, 100)).toBeUndefined();

    for (let i = 0; i < 50; i++) {
      const first = variantForBucket(ranges, bucketOf(`r${i}`));
      const again = variantForBucket(ranges, splitBucket(PUBLIC_ID, [['email', `r${i}`]]));
      expect(again).toBe(first);
      expect(first).toBeDefined();
    }
  });

  it('refuses weights that are negative, not numbers or all 0', () => {
    expect(() => weightsToRanges([{ id: 'a', weight: -0.1 }])).toThrow(RangeError);
    expect(() => weightsToRanges([{ id: 'a', weight: Number.NaN }])).toThrow(RangeError);
    expect(() => weightsToRanges([{ id: 'a', weight: 0 }])).toThrow(RangeError);
    expect(() => weightsToRanges([])).toThrow(RangeError);
  });
});

describe('optimiseSplit: determinism and input', () => {
  const stats: VariantStats[] = [
    { id: 'a', shown: 1200, clicks: 30 },
    { id: 'b', shown: 1100, clicks: 34 },
    { id: 'c', shown: 900, clicks: 31 },
  ];

  it('gives the same output for the same stats and seed', () => {
    const first = optimiseSplit(stats, 42);
    expect(optimiseSplit(stats, 42)).toEqual(first);
    expect(optimiseSplit(structuredClone(stats), 42)).toEqual(first);
    expect(sum(first.weights.map((w) => w.probabilityBest))).toBeCloseTo(1, 12);
    // Another seed draws other samples: close, but not the same.
    expect(optimiseSplit(stats, 43)).not.toEqual(first);
  });

  it('refuses 0 or 21 variants and repeated ids with a RangeError', () => {
    expect(() => optimiseSplit([], 1)).toThrow(RangeError);
    const many = Array.from({ length: 21 }, (_, i) => ({ id: `v${i}`, shown: 0, clicks: 0 }));
    expect(() => optimiseSplit(many, 1)).toThrow(/1 to 20 variants, not 21/);
    expect(() => optimiseSplit(many.slice(0, 20), 1)).not.toThrow();
    expect(() =>
      optimiseSplit(
        [
          { id: 'a', shown: 0, clicks: 0 },
          { id: 'a', shown: 1, clicks: 0 },
        ],
        1,
      ),
    ).toThrow(/"a" repeats/);
  });

  it('refuses settings out of range with a RangeError', () => {
    expect(() => optimiseSplit(stats, 1, { explorationFloor: 0.6 })).toThrow(RangeError);
    expect(() => optimiseSplit(stats, 1, { draws: 0 })).toThrow(RangeError);
    expect(() => optimiseSplit(stats, 1, { draws: 1.5 })).toThrow(RangeError);
    expect(() => optimiseSplit(stats, 1, { minSamplePerVariant: -1 })).toThrow(RangeError);
  });
});
