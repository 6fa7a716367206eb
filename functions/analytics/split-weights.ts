/**
 * The reweigh of optimised splits (docs/optimiser.md "In the product"): after a roll-up, each
 * design set to "Optimise for clicks" whose last reweigh is older than the cadence gets new
 * weights by Thompson sampling over its variants' impressions and clicks of the last
 * {@link REWEIGH_WINDOW_DAYS} days (shared/analytics/optimiser.ts `optimiseSplit`), and a new
 * bucket assignment that moves as few recipients as it can (shared/scene/optimised-split.ts
 * `reassignBuckets`). The render reads it with the design (functions/render/handler.ts).
 */
import { db } from '#lib/db/index.ts';
import { logger } from '#lib/logger.ts';
import type { DesignDocument } from '#shared/design.ts';
import { optimiseSplit, seedFromText } from '#shared/analytics/optimiser.ts';
import {
  encodeSplitTable,
  MAX_SPLIT_TABLES,
  optimisedRuleIds,
  reassignBuckets,
  splitAssignment,
} from '#shared/scene/optimised-split.ts';

/** How often a design's split is reweighed by default, ms: a day (docs/optimiser.md "In the product"). */
export const DEFAULT_REWEIGH_EVERY_MS = 24 * 3_600_000;
/** The days of counts a reweigh reads (the last 30, today included). */
export const REWEIGH_WINDOW_DAYS = 30;
/** Designs reweighed per roll-up at most; the others wait for the next one. */
export const MAX_REWEIGHS_PER_ROLLUP = 1_000;

/** A design the roll-up resolved, as the reweigh needs it. */
export interface SplitDesign {
  designId: string;
  teamId: string;
  document: DesignDocument | undefined;
  /** The design's `DesignSplit` item, if it has one. */
  split?: { tables: unknown; reweighedAt: string } | undefined;
}

/** What one reweigh decided. */
export interface Reweigh {
  designId: string;
  /** Whether traffic moved from an equal split (false while collecting). */
  moved: boolean;
  /** Buckets (recipients' shares, %) that changed variant. */
  bucketsChanged: number;
  weights: Array<{ id: string; weight: number }>;
}

/** `YYYY-MM-DD` of ms since the epoch, UTC. */
const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * Each variant's impressions and clicks over the window, from the design's day items.
 * @returns rule id → counts (variants never shown: absent).
 */
async function variantTotals(
  designId: string,
  nowMs: number,
): Promise<Map<string, { shown: number; clicks: number }>> {
  const { data } = await db()
    .DesignAnalytics.query.byDesignPeriod({ analyticsDesign: designId, granularity: 'day' })
    .between(
      { period: dayOf(nowMs - (REWEIGH_WINDOW_DAYS - 1) * 86_400_000) },
      { period: dayOf(nowMs) },
    )
    .go({ limit: REWEIGH_WINDOW_DAYS + 1, pages: 'all', attributes: ['variants'] });
  const totals = new Map<string, { shown: number; clicks: number }>();
  for (const item of data.slice(0, REWEIGH_WINDOW_DAYS + 1)) {
    if (!item.variants || typeof item.variants !== 'object') continue;
    for (const [id, counts] of Object.entries(item.variants as Record<string, unknown>)) {
      const c = counts as { impressions?: unknown; clicks?: unknown };
      const sum = totals.get(id) ?? { shown: 0, clicks: 0 };
      if (typeof c.impressions === 'number') sum.shown += c.impressions;
      if (typeof c.clicks === 'number') sum.clicks += c.clicks;
      totals.set(id, sum);
    }
  }
  return totals;
}

/**
 * Reweighs the optimised splits of `designs` that are due: no reweigh yet, or the last one at
 * least `everyMs` before `nowMs`. Designs with fewer than two split rules are left alone. A design
 * whose reweigh fails is logged and skipped: the others go on, and the next roll-up tries again.
 * @param designs the designs the roll-up resolved, by public id.
 * @param nowMs the moment, ms since the epoch: a new assignment is in effect from the next
 *   whole minute.
 * @param everyMs the cadence, ms (0: every roll-up).
 * @returns what each reweigh decided.
 */
export async function reweighSplits(
  designs: ReadonlyMap<string, SplitDesign>,
  nowMs: number,
  everyMs: number = DEFAULT_REWEIGH_EVERY_MS,
): Promise<Reweigh[]> {
  const due = [...designs.values()]
    .filter((d) => d.document && optimisedRuleIds(d.document).length >= 2)
    .filter((d) => !d.split || !(nowMs - Date.parse(d.split.reweighedAt) < everyMs))
    .slice(0, MAX_REWEIGHS_PER_ROLLUP);
  const done: Reweigh[] = [];
  for (const design of due) {
    try {
      done.push(await reweigh(design, nowMs));
    } catch (error) {
      logger.warn('split reweigh failed', { designId: design.designId, error: error as Error });
    }
  }
  return done;
}

/** One design's reweigh: weights, the new assignment, the item written whole. */
async function reweigh(design: SplitDesign, nowMs: number): Promise<Reweigh> {
  const doc = design.document!;
  const settings = doc.split_optimiser!;
  const ids = optimisedRuleIds(doc);
  const totals = await variantTotals(design.designId, nowMs);
  const split = optimiseSplit(
    ids.map((id) => ({
      id,
      shown: totals.get(id)?.shown ?? 0,
      clicks: totals.get(id)?.clicks ?? 0,
    })),
    seedFromText(`${design.designId}:${new Date(nowMs).toISOString().slice(0, 13)}`),
    {
      minSamplePerVariant: settings.min_sample_per_variant,
      explorationFloor: settings.exploration_floor,
    },
  );
  // In effect from the next whole minute: the roll-up replays requests by their minute
  // (variants.ts), so a minute is never split between two assignments.
  const fromMs = Math.ceil(nowMs / 60_000) * 60_000;
  const previous = splitAssignment(doc, design.split?.tables, fromMs)!;
  const next = reassignBuckets(previous, split.weights);
  const bucketsChanged = next.filter((id, b) => id !== previous[b]).length;
  const kept = Array.isArray(design.split?.tables) ? (design.split.tables as unknown[]) : [];
  const newest = kept.at(-1) as { variants?: unknown } | undefined;
  const sameVariants =
    Array.isArray(newest?.variants) &&
    newest.variants.length === ids.length &&
    ids.every((id, i) => (newest.variants as unknown[])[i] === id);
  // A table is added only when the assignment or the variants changed: the list stays short.
  const tables =
    bucketsChanged === 0 && sameVariants
      ? kept
      : [...kept, encodeSplitTable(next, ids, fromMs)].slice(-MAX_SPLIT_TABLES);
  await db()
    .DesignSplit.put({
      analyticsDesign: design.designId,
      teamId: design.teamId,
      tables,
      weights: split.weights.map((w) => ({
        ...w,
        shown: totals.get(w.id)?.shown ?? 0,
        clicks: totals.get(w.id)?.clicks ?? 0,
      })),
      collecting: split.collecting,
      reweighedAt: new Date(nowMs).toISOString(),
    })
    .go({ response: 'none' });
  const result = {
    designId: design.designId,
    moved: !split.collecting,
    bucketsChanged,
    weights: split.weights.map(({ id, weight }) => ({ id, weight })),
  };
  logger.info('split reweighed', result);
  return result;
}
