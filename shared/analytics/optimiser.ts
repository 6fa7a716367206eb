/**
 * "Optimise for clicks" (docs/optimiser.md): a random split over a design's rule variants whose
 * shares follow the clicks. Thompson sampling over Beta posteriors of each variant's click rate
 * gives each variant's probability of being the best; those probabilities, held at an
 * exploration floor, are the split's weights, and `weightsToRanges` turns them into the
 * whole-number bucket ranges of the `split` conditions (shared/scene/rules.ts `splitBucket`).
 *
 * Pure, dependency-free and deterministic: the Monte-Carlo draws come from a seeded PRNG, so the
 * same stats and seed give the same weights on every machine. Every loop is bounded.
 *
 * Units: counts are whole shows and clicks; weights and probabilities are fractions 0–1 that
 * sum to 1; ranges are buckets 0–100 ([from, to), as a split condition reads them).
 */

/**
 * What a variant has done so far (docs/optimiser.md "The sampling"): `id` the variant (a rule
 * id), `shown` how many recipients it was shown to, `clicks` how many of them clicked. Counts
 * are whole numbers ≥ 0 with `clicks` ≤ `shown`; anything else is clamped (fractions cut,
 * negatives and non-numbers 0, clicks above shown cut to shown).
 */
export interface VariantStats {
  id: string;
  shown: number;
  clicks: number;
}

/**
 * How the optimiser moves traffic (docs/optimiser.md "Minimum sample and exploration floor"):
 * - `minSamplePerVariant`: shows every variant needs before traffic moves (until then the split
 *   is equal), ≥ 0;
 * - `explorationFloor`: the fraction of traffic (0–0.5) each variant always keeps once traffic
 *   moves; with n variants at most 1/n is used (n × floor cannot exceed the whole);
 * - `draws`: Monte-Carlo draws estimating each variant's probability of being best, a whole
 *   number 1–{@link MAX_DRAWS}.
 */
export interface OptimiserSettings {
  minSamplePerVariant: number;
  explorationFloor: number;
  draws: number;
}

/** The defaults (docs/optimiser.md "Minimum sample and exploration floor"). */
export const DEFAULT_OPTIMISER_SETTINGS: Readonly<OptimiserSettings> = Object.freeze({
  minSamplePerVariant: 100,
  explorationFloor: 0.05,
  draws: 2000,
});

/** Bounds (docs/optimiser.md "The sampling"): variants of one split, draws of one estimate. */
export const MAX_VARIANTS = 20;
export const MAX_DRAWS = 100_000;
/** The buckets of a split (shared/scene/rules.ts `splitBucket`: 0–99). */
const BUCKETS = 100;
/** Marsaglia–Tsang accepts over 95 % of tries at shape ≥ 1: 64 tries never run out in practice. */
const MAX_GAMMA_TRIES = 64;

/** One variant's share of the split (docs/optimiser.md "The sampling"). */
export interface VariantWeight {
  id: string;
  /** The share of the traffic, 0–1; all weights sum to 1. */
  weight: number;
  /** The estimated probability (0–1) that this variant has the highest click rate. */
  probabilityBest: number;
}

/**
 * What `optimiseSplit` returns: `weights` in the input's order; `collecting` while any variant
 * has fewer than `minSamplePerVariant` shows (the weights are then equal); `winner` the variant
 * most probably best once traffic moves (null while collecting). The winner is the leader, not
 * a verdict: a caller that declares a result checks its `probabilityBest` (docs/optimiser.md
 * "The sampling").
 */
export interface OptimisedSplit {
  weights: VariantWeight[];
  winner: { id: string; probabilityBest: number } | null;
  collecting: boolean;
}

/** One variant's bucket range of the split: buckets `from` (inclusive) to `to` (exclusive). */
export interface VariantRange {
  id: string;
  from: number;
  to: number;
}

/**
 * mulberry32 (Tommy Ettinger's 32-bit generator): a seeded PRNG of floats in [0, 1). The seed is
 * taken as an unsigned 32-bit integer; one seed always gives the same sequence
 * (docs/optimiser.md "The sampling"). Not for anything secret.
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A seed from text: FNV-1a (32 bit) of its UTF-16 code units, an unsigned 32-bit integer. The
 * same text always gives the same seed (docs/optimiser.md "The sampling").
 */
export function seedFromText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** A standard normal sample (Box–Muller); `1 - random()` is in (0, 1], so the log is finite. */
function normal(random: () => number): number {
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/**
 * A Gamma(shape, 1) sample for shape ≥ 1 (Marsaglia and Tsang, "A simple method for generating
 * gamma variables", 2000). Bounded: after {@link MAX_GAMMA_TRIES} rejections it returns the mean.
 */
function gamma(shape: number, random: () => number): number {
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (let tries = 0; tries < MAX_GAMMA_TRIES; tries++) {
    const x = normal(random);
    const base = 1 + c * x;
    if (base <= 0) continue;
    const v = base * base * base;
    const u = 1 - random();
    if (u < 1 - 0.0331 * x ** 4) return d * v;
    if (Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
  return shape;
}

/** A Beta(a, b) sample (a, b ≥ 1) as X / (X + Y) of X ~ Gamma(a), Y ~ Gamma(b). */
function beta(a: number, b: number, random: () => number): number {
  const x = gamma(a, random);
  const y = gamma(b, random);
  return x / (x + y);
}

/** A count as a whole number ≥ 0 (non-numbers and negatives 0, fractions cut). */
const count = (n: number): number => (Number.isFinite(n) && n > 0 ? Math.floor(n) : 0);

/** Throws unless there are 1–20 ids, each a non-empty string, none repeated. */
function checkIds(ids: readonly string[], what: string): void {
  if (ids.length < 1 || ids.length > MAX_VARIANTS) {
    throw new RangeError(
      `${what} needs 1 to ${MAX_VARIANTS} variants, not ${ids.length} (docs/optimiser.md "Optimise for clicks").`,
    );
  }
  const seen = new Set<string>();
  for (const id of ids) {
    if (typeof id !== 'string' || id === '') {
      throw new RangeError(`${what}: every variant needs a non-empty id.`);
    }
    if (seen.has(id)) throw new RangeError(`${what}: the variant id "${id}" repeats.`);
    seen.add(id);
  }
}

/** The settings with defaults filled in; throws a RangeError on a value out of its range. */
function checkSettings(settings: Partial<OptimiserSettings>): OptimiserSettings {
  const merged = { ...DEFAULT_OPTIMISER_SETTINGS, ...settings };
  const { minSamplePerVariant, explorationFloor, draws } = merged;
  if (!Number.isFinite(minSamplePerVariant) || minSamplePerVariant < 0) {
    throw new RangeError(
      `minSamplePerVariant must be a number ≥ 0, not ${String(minSamplePerVariant)}.`,
    );
  }
  if (!Number.isFinite(explorationFloor) || explorationFloor < 0 || explorationFloor > 0.5) {
    throw new RangeError(
      `explorationFloor must be a fraction from 0 to 0.5, not ${String(explorationFloor)}.`,
    );
  }
  if (!Number.isInteger(draws) || draws < 1 || draws > MAX_DRAWS) {
    throw new RangeError(`draws must be a whole number from 1 to ${MAX_DRAWS}, not ${draws}.`);
  }
  return merged;
}

/**
 * Each variant's probability of having the highest click rate (docs/optimiser.md "The
 * sampling"): `draws` rounds, each drawing one click rate per variant from its
 * Beta(1 + clicks, 1 + shown − clicks) posterior; a variant's probability is the share of rounds
 * it drew the highest rate (a tie goes to the earlier variant). Same stats and seed: same result.
 */
function probabilitiesBest(
  stats: readonly VariantStats[],
  draws: number,
  random: () => number,
): number[] {
  const wins = stats.map(() => 0);
  for (let draw = 0; draw < draws; draw++) {
    let best = 0;
    let bestRate = -1;
    for (let i = 0; i < stats.length; i++) {
      const { shown, clicks } = stats[i]!;
      const rate = beta(1 + clicks, 1 + shown - clicks, random);
      if (rate > bestRate) {
        bestRate = rate;
        best = i;
      }
    }
    wins[best]!++;
  }
  return wins.map((w) => w / draws);
}

/**
 * Holds every share at `floor` or above and keeps the sum 1 (docs/optimiser.md "Minimum sample
 * and exploration floor"). Shares below the floor are raised to it, and what that costs is taken
 * from the others in proportion to their shares; when that pushes another below the floor, it is
 * raised too, and so on (at most one pass per variant). The floor used is at most 1/n.
 * @param shares fractions ≥ 0 (normalised here when they do not sum to 1; all 0: equal shares).
 * @param floor fraction 0–0.5.
 * @returns the held shares, in the same order.
 */
export function applyExplorationFloor(shares: readonly number[], floor: number): number[] {
  const n = shares.length;
  if (n === 0) return [];
  const f = Math.min(Math.max(floor, 0), 1 / n);
  const clean = shares.map((s) => (Number.isFinite(s) && s > 0 ? s : 0));
  const held = clean.map(() => false);
  let out = clean.map(() => 1 / n);
  for (let pass = 0; pass <= n; pass++) {
    const heldCount = held.filter(Boolean).length;
    const rest = 1 - f * heldCount;
    let freeSum = 0;
    for (let i = 0; i < n; i++) if (!held[i]) freeSum += clean[i]!;
    const freeCount = n - heldCount;
    out = clean.map((s, i) => {
      if (held[i]) return f;
      return freeSum > 0 ? (s * rest) / freeSum : rest / freeCount;
    });
    let raised = false;
    for (let i = 0; i < n; i++) {
      if (!held[i] && out[i]! < f) {
        held[i] = true;
        raised = true;
      }
    }
    if (!raised) break;
  }
  return out;
}

/**
 * The split's weights by Thompson sampling (docs/optimiser.md "The sampling" and "Minimum sample
 * and exploration floor"):
 * 1. stats are clamped (see {@link VariantStats});
 * 2. each variant's probability of being best is estimated from `draws` Monte-Carlo draws of its
 *    Beta(1 + clicks, 1 + shown − clicks) posterior, with a PRNG seeded by `seed` (mulberry32);
 * 3. while any variant has fewer than `minSamplePerVariant` shows, the weights are equal
 *    (`collecting`, no winner);
 * 4. otherwise the weights are the probabilities of being best, held at `explorationFloor`
 *    ({@link applyExplorationFloor}), and the winner is the variant most probably best (ties: the
 *    earlier).
 * @param variants 1–20 variants, ids unique (else a RangeError).
 * @param seed any number, taken as an unsigned 32-bit integer: same stats and seed, same result.
 * @param settings overrides of {@link DEFAULT_OPTIMISER_SETTINGS} (out of range: a RangeError).
 * @returns weights in the input's order, summing to 1.
 */
export function optimiseSplit(
  variants: readonly VariantStats[],
  seed: number,
  settings: Partial<OptimiserSettings> = {},
): OptimisedSplit {
  checkIds(
    variants.map((v) => v.id),
    'optimiseSplit',
  );
  const { minSamplePerVariant, explorationFloor, draws } = checkSettings(settings);
  const stats = variants.map((v) => {
    const shown = count(v.shown);
    return { id: v.id, shown, clicks: Math.min(count(v.clicks), shown) };
  });
  const probabilities = probabilitiesBest(stats, draws, mulberry32(seed));
  const collecting = stats.some((v) => v.shown < minSamplePerVariant);
  const shares = collecting
    ? stats.map(() => 1 / stats.length)
    : applyExplorationFloor(probabilities, explorationFloor);
  const weights = stats.map((v, i) => ({
    id: v.id,
    weight: shares[i]!,
    probabilityBest: probabilities[i]!,
  }));
  if (collecting) return { weights, winner: null, collecting };
  let leader = weights[0]!;
  for (const w of weights) if (w.probabilityBest > leader.probabilityBest) leader = w;
  return {
    weights,
    winner: { id: leader.id, probabilityBest: leader.probabilityBest },
    collecting,
  };
}

/**
 * Whole-number bucket ranges of the split (docs/optimiser.md "Stable assignment"): each variant
 * gets `weight / total × 100` buckets rounded by largest remainder (ties: the earlier variant),
 * every variant with a weight above 0 gets at least 1 bucket (taken from the variant with the
 * most), and the ranges are contiguous in the input's order from 0 to 100. A weight of 0 gets an
 * empty range (`from` = `to`), which holds no bucket; a `split` condition needs `from` < `to`, so
 * the rules drop it.
 * @param weights 1–20 entries, ids unique, weights finite ≥ 0 and not all 0 (else a RangeError);
 *   they need not sum to exactly 1.
 * @returns one range per entry, in the same order; the first `from` is 0, the last `to` is 100.
 */
export function weightsToRanges(
  weights: ReadonlyArray<{ id: string; weight: number }>,
): VariantRange[] {
  checkIds(
    weights.map((w) => w.id),
    'weightsToRanges',
  );
  let total = 0;
  for (const { id, weight } of weights) {
    if (!Number.isFinite(weight) || weight < 0) {
      throw new RangeError(`weightsToRanges: the weight of "${id}" must be a number ≥ 0.`);
    }
    total += weight;
  }
  if (total <= 0) throw new RangeError('weightsToRanges: at least one weight must be above 0.');
  const quotas = weights.map((w) => (w.weight / total) * BUCKETS);
  const buckets = quotas.map((q) => Math.floor(q));
  let left = BUCKETS - buckets.reduce((a, b) => a + b, 0);
  const byRemainder = quotas
    .map((q, i) => ({ i, remainder: q - Math.floor(q) }))
    .sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (let k = 0; k < byRemainder.length && left > 0; k++, left--) buckets[byRemainder[k]!.i]!++;
  // At most 20 variants over 100 buckets: the largest always has a bucket to spare.
  for (let i = 0; i < weights.length; i++) {
    if (weights[i]!.weight > 0 && buckets[i] === 0) {
      let largest = 0;
      for (let j = 1; j < buckets.length; j++) if (buckets[j]! > buckets[largest]!) largest = j;
      buckets[largest]!--;
      buckets[i] = 1;
    }
  }
  let from = 0;
  return weights.map((w, i) => {
    const range = { id: w.id, from, to: from + buckets[i]! };
    from = range.to;
    return range;
  });
}

/**
 * The variant a bucket (0–99, from shared/scene/rules.ts `splitBucket`) falls in: the id whose
 * [`from`, `to`) holds it (docs/optimiser.md "Stable assignment"); undefined when none does.
 */
export function variantForBucket(
  ranges: readonly VariantRange[],
  bucket: number,
): string | undefined {
  return ranges.find((r) => bucket >= r.from && bucket < r.to)?.id;
}
