/**
 * The optimised split in the product (docs/optimiser.md "In the product"): which rule each of the
 * 100 split buckets is assigned to, for a design set to "Optimise for clicks".
 *
 * The roll-up reweighs (functions/analytics/split-weights.ts) and keeps the assignments it made,
 * newest last, as {@link SplitTable}s; the render, the link endpoint and the roll-up's replay
 * read them through {@link splitAssignment}, so an image, its link and the count of its variant
 * agree. Pure and bounded: 100 buckets, at most 20 variants, at most {@link MAX_SPLIT_TABLES}
 * tables kept.
 */
import type { DesignDocument } from '../design.ts';
import { weightsToRanges, MAX_VARIANTS } from '../analytics/optimiser.ts';

/** The buckets of a split (shared/scene/rules.ts `splitBucket`: 0–99). */
export const SPLIT_BUCKETS = 100;
/** Assignments kept per design: a reweigh a day keeps two months (docs/optimiser.md "In the product"). */
export const MAX_SPLIT_TABLES = 60;

/**
 * One assignment as stored: from `from_ms` (ms since the epoch) on, bucket `b` shows the rule
 * `variants[parseInt(buckets[b], 36)]`. `buckets` is 100 base-36 digits (20 variants: `0`–`j`),
 * so a table stays under 1.5 KB whatever the ids.
 */
export interface SplitTable {
  from_ms: number;
  variants: string[];
  buckets: string;
}

/**
 * The rules a design's optimiser splits the traffic between: those with a `split` condition, in
 * the rules' order. Empty when the design does not optimise (`split_optimiser` null).
 */
export function optimisedRuleIds(doc: Pick<DesignDocument, 'rules' | 'split_optimiser'>): string[] {
  if (!doc.split_optimiser) return [];
  return doc.rules
    .filter((rule) => rule.conditions.some((c) => c.kind === 'split'))
    .map((rule) => rule.id);
}

/**
 * A bucket → rule assignment for `weights` that moves as few buckets as it can from `previous`
 * (docs/optimiser.md "Stable assignment"): each variant gets the bucket count of
 * `weightsToRanges` (largest remainder, at least 1 for a weight above 0); a bucket keeps its
 * variant while that variant is under its count (lowest buckets first), and the buckets left go,
 * lowest first, to the variants still under theirs, in `weights`' order. Without a previous
 * assignment the buckets are contiguous ranges in `weights`' order, as `weightsToRanges` lays
 * them out.
 * @param previous 100 rule ids (any other length is ignored); ids not in `weights` are freed.
 * @param weights 1–20 variants, ids unique, weights ≥ 0 and not all 0 (else a RangeError).
 * @returns 100 rule ids, one per bucket.
 */
export function reassignBuckets(
  previous: readonly string[] | undefined,
  weights: ReadonlyArray<{ id: string; weight: number }>,
): string[] {
  const ranges = weightsToRanges(weights);
  if (!previous || previous.length !== SPLIT_BUCKETS) {
    const out: string[] = [];
    for (const range of ranges) for (let b = range.from; b < range.to; b++) out.push(range.id);
    return out;
  }
  const wanted = new Map(ranges.map((r) => [r.id, r.to - r.from]));
  const out: Array<string | undefined> = previous.map((id) => {
    const left = wanted.get(id);
    if (left === undefined || left <= 0) return undefined;
    wanted.set(id, left - 1);
    return id;
  });
  let next = 0;
  for (let b = 0; b < SPLIT_BUCKETS; b++) {
    if (out[b] !== undefined) continue;
    while (next < ranges.length && wanted.get(ranges[next]!.id)! <= 0) next++;
    const id = ranges[next]!.id;
    wanted.set(id, wanted.get(id)! - 1);
    out[b] = id;
  }
  return out as string[];
}

/**
 * A table as stored, in effect from `fromMs`.
 * @param assignment 100 rule ids, each one of `variants`.
 * @param variants the rules split between (a variant may hold no bucket: weight 0), 1–20.
 * @throws RangeError when the assignment is not 100 buckets of those variants.
 */
export function encodeSplitTable(
  assignment: readonly string[],
  variants: readonly string[],
  fromMs: number,
): SplitTable {
  if (assignment.length !== SPLIT_BUCKETS)
    throw new RangeError(
      `A split assignment has ${SPLIT_BUCKETS} buckets, not ${assignment.length}.`,
    );
  if (variants.length < 1 || variants.length > MAX_VARIANTS)
    throw new RangeError(`A split assignment has 1 to ${MAX_VARIANTS} variants.`);
  const index = new Map(variants.map((id, i) => [id, i.toString(36)]));
  const digits = assignment.map((id) => {
    const digit = index.get(id);
    if (digit === undefined) throw new RangeError(`The bucket's rule "${id}" is not a variant.`);
    return digit;
  });
  return { from_ms: fromMs, variants: [...variants], buckets: digits.join('') };
}

/**
 * A stored table read back: its variants and 100 rule ids, or undefined when it is malformed (it
 * is then ignored).
 */
export function decodeSplitTable(
  table: unknown,
): { variants: string[]; assignment: string[] } | undefined {
  if (!table || typeof table !== 'object') return undefined;
  const { variants, buckets } = table as Partial<SplitTable>;
  if (!Array.isArray(variants) || variants.length > MAX_VARIANTS) return undefined;
  if (typeof buckets !== 'string' || buckets.length !== SPLIT_BUCKETS) return undefined;
  const out: string[] = [];
  for (const digit of buckets) {
    const id = variants[parseInt(digit, 36)];
    if (typeof id !== 'string') return undefined;
    out.push(id);
  }
  return { variants: variants.map(String), assignment: out };
}

/**
 * The stored table in effect at `atMs`: the newest whose `from_ms` is at or before it; undefined
 * when none is (before the first reweigh) or the list is not one.
 */
export function splitTableAt(tables: unknown, atMs: number): unknown {
  if (!Array.isArray(tables)) return undefined;
  let found: unknown;
  for (const table of tables.slice(-MAX_SPLIT_TABLES)) {
    const from = (table as Partial<SplitTable> | null)?.from_ms;
    if (typeof from === 'number' && from <= atMs) found = table;
  }
  return found;
}

/** Tables read back, by the stored object: a render reads each kept table once. */
const decoded = new WeakMap<object, ReturnType<typeof decodeSplitTable>>();

/** `decodeSplitTable`, remembered per stored object. */
function readTable(table: unknown): ReturnType<typeof decodeSplitTable> {
  if (!table || typeof table !== 'object') return undefined;
  if (!decoded.has(table)) decoded.set(table, decodeSplitTable(table));
  return decoded.get(table);
}

/** Equal-split assignments by variant list, shared: one per rule set in use. */
const equalSplits = new Map<string, string[]>();

/**
 * The rule each bucket shows for a design at `atMs` (docs/optimiser.md "In the product"), or
 * undefined when the design does not optimise its split (the hand-set ranges decide then).
 *
 * The table in effect then is used when it splits exactly the design's current variants. Before
 * the first reweigh, or after the variants changed (a split rule added or removed), the split is
 * equal: the table's own buckets moved as little as they can (`reassignBuckets`) to equal
 * weights, so a rule added takes its share from the others and the rest stay where they were.
 * @param tables the design's kept tables (`DesignSplit.tables`), oldest first; anything else is
 *   read as none.
 * @returns 100 rule ids, one per bucket.
 */
export function splitAssignment(
  doc: Pick<DesignDocument, 'rules' | 'split_optimiser'>,
  tables: unknown,
  atMs: number,
): readonly string[] | undefined {
  const ids = optimisedRuleIds(doc);
  if (ids.length === 0) return undefined;
  const stored = readTable(splitTableAt(tables, atMs));
  if (stored) {
    const kept = new Set(stored.variants);
    if (kept.size === ids.length && ids.every((id) => kept.has(id))) return stored.assignment;
    return reassignBuckets(
      stored.assignment,
      ids.map((id) => ({ id, weight: 1 })),
    );
  }
  const key = JSON.stringify(ids);
  let equal = equalSplits.get(key);
  if (!equal) {
    equal = reassignBuckets(
      undefined,
      ids.map((id) => ({ id, weight: 1 })),
    );
    if (equalSplits.size >= 1000) equalSplits.clear();
    equalSplits.set(key, equal);
  }
  return equal;
}
