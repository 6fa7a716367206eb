/**
 * The optimised split in the product (docs/optimiser.md "In the product"): the bucket assignment
 * moves as few recipients as it can, tables round-trip and the one in effect is read by time, a
 * changed rule set falls back to an equal split, the rules follow the assignment instead of the
 * hand-set ranges, and a simulated campaign through the render's own rule code (ruledDesign)
 * shifts traffic to the variant with the better click rate while every recipient whose bucket
 * did not move keeps their variant.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32, optimiseSplit } from '#shared/analytics/optimiser.ts';
import {
  decodeSplitTable,
  encodeSplitTable,
  optimisedRuleIds,
  reassignBuckets,
  splitAssignment,
  splitTableAt,
  SPLIT_BUCKETS,
} from '#shared/scene/optimised-split.ts';
import { restoreDesign, type DesignDocument } from '#shared/design.ts';
import { ruledDesign } from '#functions/render/rule-context.ts';

const count = (assignment: readonly string[], id: string): number =>
  assignment.filter((a) => a === id).length;

/** A design with two split rules (a: 0–50, b: 50–100), optimising when `optimise`. */
function design(optimise: boolean, extraRule = false): DesignDocument {
  return restoreDesign({
    image_id: 'i',
    base_image_key: 'k',
    text_snippets: [],
    rules: [
      { id: 'a', conditions: [{ kind: 'split', from: 0, to: 50 }], link_url: 'https://a.example/' },
      {
        id: 'b',
        conditions: [{ kind: 'split', from: 50, to: 100 }],
        link_url: 'https://b.example/',
      },
      ...(extraRule
        ? [{ id: 'c', conditions: [{ kind: 'split', from: 0, to: 1 }], link_url: null }]
        : []),
      { id: 'fr', conditions: [{ kind: 'country', countries: ['FR'] }] },
    ],
    split_optimiser: optimise ? { min_sample_per_variant: 50, exploration_floor: 0.1 } : null,
  }).document;
}

describe('reassignBuckets', () => {
  it('lays out contiguous ranges without a previous assignment', () => {
    const out = reassignBuckets(undefined, [
      { id: 'a', weight: 0.25 },
      { id: 'b', weight: 0.75 },
    ]);
    expect(out).toHaveLength(SPLIT_BUCKETS);
    expect(out.slice(0, 25).every((id) => id === 'a')).toBe(true);
    expect(out.slice(25).every((id) => id === 'b')).toBe(true);
  });

  it('moves only the buckets the new weights need, whatever the variants’ order', () => {
    const before = reassignBuckets(undefined, [
      { id: 'a', weight: 1 },
      { id: 'b', weight: 1 },
      { id: 'c', weight: 1 },
    ]);
    const after = reassignBuckets(before, [
      { id: 'a', weight: 0.1 },
      { id: 'b', weight: 0.1 },
      { id: 'c', weight: 0.8 },
    ]);
    expect([count(after, 'a'), count(after, 'b'), count(after, 'c')]).toEqual([10, 10, 80]);
    // c keeps all of its 33 buckets; a and b each give up 23 or 24: exactly 47 move.
    const moved = after.filter((id, b) => id !== before[b]).length;
    expect(moved).toBe(100 - 10 - 10 - count(before, 'c'));
    for (let b = 0; b < SPLIT_BUCKETS; b++) if (before[b] === 'c') expect(after[b]).toBe('c');
  });

  it('frees the buckets of a variant that is gone', () => {
    const before = reassignBuckets(undefined, [
      { id: 'a', weight: 1 },
      { id: 'gone', weight: 1 },
    ]);
    const after = reassignBuckets(before, [
      { id: 'a', weight: 1 },
      { id: 'b', weight: 1 },
    ]);
    expect(after.slice(0, 50).every((id) => id === 'a')).toBe(true);
    expect(after.slice(50).every((id) => id === 'b')).toBe(true);
  });
});

describe('stored tables', () => {
  it('round-trip, a variant with no bucket included', () => {
    const assignment = reassignBuckets(undefined, [{ id: 'rule-1', weight: 1 }]);
    const table = encodeSplitTable(assignment, ['rule-1', 'rule-2'], 1000);
    expect(table.buckets).toHaveLength(100);
    expect(decodeSplitTable(table)).toEqual({ variants: ['rule-1', 'rule-2'], assignment });
  });

  it('refuses what is not 100 buckets of the variants, and ignores a malformed stored table', () => {
    expect(() => encodeSplitTable(['a'], ['a'], 0)).toThrow(RangeError);
    expect(() => encodeSplitTable(Array(100).fill('x'), ['a'], 0)).toThrow(/not a variant/);
    expect(decodeSplitTable({ variants: ['a'], buckets: '1'.repeat(100) })).toBeUndefined();
    expect(decodeSplitTable({ variants: ['a'], buckets: '0' })).toBeUndefined();
    expect(decodeSplitTable('nope')).toBeUndefined();
  });

  it('reads the newest table in effect at a moment', () => {
    const tables = [
      { from_ms: 100, variants: ['a'], buckets: '0'.repeat(100) },
      { from_ms: 200, variants: ['b'], buckets: '0'.repeat(100) },
    ];
    expect(splitTableAt(tables, 50)).toBeUndefined();
    expect(splitTableAt(tables, 150)).toBe(tables[0]);
    expect(splitTableAt(tables, 200)).toBe(tables[1]);
    expect(splitTableAt('not a list', 200)).toBeUndefined();
  });
});

describe('splitAssignment', () => {
  it('is undefined for a design that does not optimise: the hand-set ranges decide', () => {
    expect(optimisedRuleIds(design(false))).toEqual([]);
    expect(splitAssignment(design(false), undefined, 0)).toBeUndefined();
  });

  it('splits equally between the split rules before the first reweigh', () => {
    const doc = design(true);
    expect(optimisedRuleIds(doc)).toEqual(['a', 'b']);
    const out = splitAssignment(doc, undefined, 0)!;
    expect([count(out, 'a'), count(out, 'b')]).toEqual([50, 50]);
  });

  it('uses the stored table, and moves as little as it can when a split rule is added', () => {
    const stored = reassignBuckets(undefined, [
      { id: 'a', weight: 0.2 },
      { id: 'b', weight: 0.8 },
    ]);
    const tables = [encodeSplitTable(stored, ['a', 'b'], 0)];
    expect(splitAssignment(design(true), tables, 1)).toEqual(stored);
    const widened = splitAssignment(design(true, true), tables, 1)!;
    expect([count(widened, 'a'), count(widened, 'b'), count(widened, 'c')]).toEqual([34, 33, 33]);
    // a's 20 buckets all stay a's.
    for (let b = 0; b < 100; b++) if (stored[b] === 'a') expect(widened[b]).toBe('a');
  });
});

describe('the rules with an assignment', () => {
  const values: Array<[string, string]> = [['email', 'ana@example.com']];
  const request = (splitAssignment?: readonly string[]) => ({
    publicId: 'd1',
    values,
    nowMs: 0,
    splitAssignment,
  });

  it('shows the rule the recipient’s bucket is assigned to, not its hand-set range', () => {
    const doc = design(true);
    const handSet = ruledDesign(doc, doc, request())!.rule!.id;
    const other = handSet === 'a' ? 'b' : 'a';
    const all = Array<string>(100).fill(other);
    expect(ruledDesign({}, doc, request(all))!.rule!.id).toBe(other);
  });

  it('still lets an earlier rule of another kind win', () => {
    const doc = design(true);
    const fromFrance = { ...request(Array<string>(100).fill('fr')), country: 'FR' };
    // `fr` has no split condition: the assignment names it, but only its own condition counts.
    expect(ruledDesign({}, doc, fromFrance)!.rule!.id).toBe('fr');
    const elsewhere = { ...request(Array<string>(100).fill('fr')), country: 'DE' };
    expect(ruledDesign({}, doc, elsewhere)!.rule).toBeUndefined();
  });
});

describe('a simulated campaign through the render’s rules', () => {
  /** True click rates: b is better. */
  const RATES: Record<string, number> = { a: 0.02, b: 0.06 };
  const DAYS = 12;
  const PER_DAY = 1500;

  it('shifts traffic to the better variant, keeps the floor, and keeps unmoved recipients', () => {
    const doc = design(true);
    const random = mulberry32(11);
    const stats = new Map(Object.keys(RATES).map((id) => [id, { shown: 0, clicks: 0 }]));
    let tables: ReturnType<typeof encodeSplitTable>[] = [];
    const shares: number[] = [];
    const seen = new Map<string, { variant: string; day: number }>();
    let kept = 0;
    let checked = 0;
    for (let day = 0; day < DAYS; day++) {
      const at = day * 86_400_000;
      const assignment = splitAssignment(doc, tables, at)!;
      shares.push(count(assignment, 'b'));
      let shownB = 0;
      for (let k = 0; k < PER_DAY; k++) {
        // Half of each day's recipients are new, half came before (they open again).
        const recipient = `r${k % 2 === 0 ? day * PER_DAY + k : k}`;
        const values: Array<[string, string]> = [['email', recipient]];
        const { rule } = ruledDesign({}, doc, { publicId: 'd1', values, nowMs: at })!;
        const again = ruledDesign({}, doc, {
          publicId: 'd1',
          values,
          nowMs: at,
          splitAssignment: assignment,
        })!;
        expect(rule).toBeDefined();
        const variant = again.rule!.id;
        if (variant === 'b') shownB++;
        const before = seen.get(recipient);
        if (before && before.day === day - 1) {
          checked++;
          if (before.variant === variant) kept++;
        }
        seen.set(recipient, { variant, day });
        const s = stats.get(variant)!;
        s.shown++;
        if (random() < RATES[variant]!) s.clicks++;
      }
      expect(shownB).toBeGreaterThan(0);
      const split = optimiseSplit(
        [...stats].map(([id, s]) => ({ id, ...s })),
        day,
        { minSamplePerVariant: 50, explorationFloor: 0.1 },
      );
      const next = reassignBuckets(assignment, split.weights);
      tables = [...tables, encodeSplitTable(next, ['a', 'b'], at + 86_400_000)];
    }
    // Equal at first, then b takes what the floor leaves (90 %), and stays there.
    expect(shares[0]).toBe(50);
    expect(shares.at(-1)).toBe(90);
    expect(Math.min(...shares.slice(-3))).toBeGreaterThanOrEqual(85);
    // Every day's assignment keeps a at the floor or above.
    expect(Math.max(...shares)).toBeLessThanOrEqual(90);
    // Returning recipients keep their variant unless their bucket moved: at most the shift.
    expect(checked).toBeGreaterThan(1000);
    expect(kept / checked).toBeGreaterThan(0.9);
  });
});
