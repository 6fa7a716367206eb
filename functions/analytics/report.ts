/**
 * A design's analytics report from its roll-ups (docs/analytics.md "The report"): one query of
 * the design's hour or day items in the range, summed into totals and breakdowns.
 */
import { db } from '#lib/db/index.ts';
import type { AnalyticsQuery, AnalyticsReport } from '#shared/contract/analytics.ts';
import {
  DEFAULT_OPTIMISER_SETTINGS,
  MAX_VARIANTS,
  optimiseSplit,
  seedFromText,
} from '#shared/analytics/optimiser.ts';
import { DEFAULT_VARIANT } from './variants.ts';
import type { DesignDocument } from '#shared/design.ts';
import { optimisedRuleIds, splitAssignment } from '#shared/scene/optimised-split.ts';

/** What the report reads of the design: its rules (names, order) and its optimiser setting. */
export type ReportedDesign = Pick<DesignDocument, 'rules' | 'split_optimiser'>;

/** Fallback hour items read per report at most (400 days of hours). */
const MAX_FALLBACK_ITEMS = 400 * 24;

/** Items read per report at most: 400 days, or 7 days of hours (168). */
const MAX_ITEMS = 400;

type Counts = Record<string, number>;

/** Adds `more` into `into`, key by key. */
function addCounts(into: Counts, more: unknown): void {
  if (!more || typeof more !== 'object') return;
  for (const [key, n] of Object.entries(more as Counts)) {
    if (typeof n === 'number' && Number.isFinite(n)) into[key] = (into[key] ?? 0) + n;
  }
}

/** A design's roll-ups summed over a range: what a design's report and a campaign's add up. */
export interface RangeSums {
  opens: number;
  proxyFetches: number;
  clicks: number;
  cdnHits: number;
  recipients: number;
  devices: Counts;
  clients: Counts;
  countries: Counts;
  /** Periods with counts, oldest first (the report's `series`). */
  series: AnalyticsReport['series'];
  byVariant: Map<string, { impressions: number; clicks: number }>;
  rolledUpAt: string | null;
  fallbacks: AnalyticsReport['fallbacks'];
}

/** Sums of nothing yet, with the range's `fallbacks` (default none). */
export function emptySums(
  fallbacks: AnalyticsReport['fallbacks'] = {
    refused: 0,
    rate_limited: 0,
    over_quota: 0,
    failed: 0,
  },
): RangeSums {
  return {
    opens: 0,
    proxyFetches: 0,
    clicks: 0,
    cdnHits: 0,
    recipients: 0,
    devices: {},
    clients: {},
    countries: {},
    series: [],
    byVariant: new Map(),
    rolledUpAt: null,
    fallbacks,
  };
}

/**
 * A design's roll-ups over the query's days (inclusive, UTC), summed: one query of its hour or
 * day items (at most {@link MAX_ITEMS}) and one of its fallback hours.
 */
export async function rangeSums(designId: string, query: AnalyticsQuery): Promise<RangeSums> {
  const hourly = query.granularity === 'hour';
  const first = hourly ? `${query.from}T00` : query.from;
  const last = hourly ? `${query.to}T23` : query.to;
  const [{ data }, fallbacks] = await Promise.all([
    db()
      .DesignAnalytics.query.byDesignPeriod({
        analyticsDesign: designId,
        granularity: query.granularity,
      })
      .between({ period: first }, { period: last })
      .go({ limit: MAX_ITEMS, pages: 'all' }),
    fallbacksOf(designId, `${query.from}T00`, `${query.to}T23`),
  ]);
  const sums = emptySums(fallbacks);
  for (const item of data.slice(0, MAX_ITEMS)) {
    sums.opens += item.opens;
    sums.proxyFetches += item.proxyFetches;
    sums.clicks += item.clicks;
    sums.cdnHits += item.cdnHits;
    sums.recipients += item.recipients ?? 0;
    addCounts(sums.devices, item.devices);
    addCounts(sums.clients, item.clients);
    addCounts(sums.countries, item.countries);
    if (item.variants && typeof item.variants === 'object') {
      for (const [id, counts] of Object.entries(item.variants as Record<string, unknown>)) {
        const c = counts as { impressions?: unknown; clicks?: unknown };
        const sum = sums.byVariant.get(id) ?? { impressions: 0, clicks: 0 };
        if (typeof c.impressions === 'number') sum.impressions += c.impressions;
        if (typeof c.clicks === 'number') sum.clicks += c.clicks;
        sums.byVariant.set(id, sum);
      }
    }
    if (sums.rolledUpAt === null || item.rolledUpAt > sums.rolledUpAt)
      sums.rolledUpAt = item.rolledUpAt;
    sums.series.push({
      period: item.period,
      opens: item.opens,
      proxy_fetches: item.proxyFetches,
      clicks: item.clicks,
      cdn_hits: item.cdnHits,
      recipients: hourly ? null : (item.recipients ?? 0),
    });
  }
  return sums;
}

/** The report's totals of summed roll-ups: rates per impression and per request. */
export function totalsOf(sums: RangeSums): AnalyticsReport['totals'] {
  const impressions = sums.opens + sums.proxyFetches;
  const requests = impressions + sums.clicks;
  return {
    opens: sums.opens,
    proxy_fetches: sums.proxyFetches,
    impressions,
    clicks: sums.clicks,
    click_through_rate: impressions > 0 ? sums.clicks / impressions : null,
    cdn_hit_ratio: requests > 0 ? Math.min(1, sums.cdnHits / requests) : null,
    recipients: sums.recipients,
  };
}

/**
 * The report of `designId` over the query's days (inclusive, UTC).
 * @param design the design's rules and optimiser setting: the variants are named by its rules;
 *   one that optimises its split reports the shares in effect (`split`), and its leader among
 *   the split rules with its own minimum sample (docs/optimiser.md "In the product").
 * @returns totals, the series (periods with counts only, oldest first) and the breakdowns of
 *   impressions (opens and proxy fetches) by device, client and country.
 */
export async function analyticsReport(
  designId: string,
  query: AnalyticsQuery,
  design: ReportedDesign = { rules: [], split_optimiser: null },
): Promise<AnalyticsReport> {
  const [sums, split] = await Promise.all([rangeSums(designId, query), splitOf(designId, design)]);
  const variants = variantsOf(design.rules, sums.byVariant);
  return {
    design_id: designId,
    from: query.from,
    to: query.to,
    granularity: query.granularity,
    totals: totalsOf(sums),
    series: sums.series,
    devices: sums.devices,
    clients: sums.clients,
    countries: sums.countries,
    rolled_up_at: sums.rolledUpAt,
    variants,
    optimiser: design.split_optimiser
      ? leaderOf(
          designId,
          variants.filter((v) => optimisedRuleIds(design).includes(v.id)),
          design.split_optimiser.min_sample_per_variant,
        )
      : leaderOf(designId, variants),
    split,
    fallbacks: sums.fallbacks,
  };
}

/**
 * The report's variants: the design's rules in order, then the default, each with its counts
 * (zero when not shown); a rule no longer in the design but counted is listed after them by id.
 * Empty for a design without rules that has no counts per variant.
 */
function variantsOf(
  rules: ReadonlyArray<{ id: string; name: string }>,
  counted: ReadonlyMap<string, { impressions: number; clicks: number }>,
): AnalyticsReport['variants'] {
  if (rules.length === 0 && counted.size === 0) return [];
  const named = [
    ...rules.map((r) => ({ id: r.id, name: r.name || r.id })),
    { id: DEFAULT_VARIANT, name: 'Default' },
  ];
  const gone = [...counted.keys()]
    .filter((id) => !named.some((n) => n.id === id))
    .map((id) => ({ id, name: `${id} (removed)` }));
  return [...named, ...gone].map(({ id, name }) => {
    const { impressions, clicks } = counted.get(id) ?? { impressions: 0, clicks: 0 };
    return {
      id,
      name,
      impressions,
      clicks,
      click_through_rate: impressions > 0 ? clicks / impressions : null,
    };
  });
}

/**
 * The leading variant of a design with two or more (docs/optimiser.md "The sampling"): the
 * optimiser's weights and probability of being best over the range's impressions and clicks,
 * the defaults' minimum sample and exploration floor. Null with fewer than two variants.
 */
function leaderOf(
  designId: string,
  variants: AnalyticsReport['variants'],
  minSample: number = DEFAULT_OPTIMISER_SETTINGS.minSamplePerVariant,
): AnalyticsReport['optimiser'] {
  if (variants.length < 2 || variants.length > MAX_VARIANTS) return null;
  const split = optimiseSplit(
    variants.map((v) => ({ id: v.id, shown: v.impressions, clicks: v.clicks })),
    // Seeded by the design: the same counts give the same leader on every read.
    seedFromText(designId),
    { minSamplePerVariant: minSample },
  );
  const winner = split.winner && variants.find((v) => v.id === split.winner!.id);
  return {
    collecting: split.collecting,
    min_impressions: minSample,
    winner:
      split.winner && winner
        ? {
            id: winner.id,
            name: winner.name,
            probability_best: Math.min(1, Math.max(0, split.winner.probabilityBest)),
          }
        : null,
    weights: split.weights.map((w) => ({ id: w.id, weight: Math.min(1, Math.max(0, w.weight)) })),
  };
}

/**
 * The design's fallbacks served from hour `first` to hour `last` (`YYYY-MM-DDTHH`), summed by
 * reason (functions/render/fallback-counter.ts).
 */
async function fallbacksOf(
  designId: string,
  first: string,
  last: string,
): Promise<AnalyticsReport['fallbacks']> {
  const { data } = await db()
    .DesignFallbacks.query.byDesignHour({ fallbackDesign: designId })
    .between({ hour: first }, { hour: last })
    .go({ pages: 'all', limit: MAX_FALLBACK_ITEMS });
  const sum = { refused: 0, rate_limited: 0, over_quota: 0, failed: 0 };
  for (const item of data.slice(0, MAX_FALLBACK_ITEMS)) {
    sum.refused += item.refused ?? 0;
    sum.rate_limited += item.rateLimited ?? 0;
    sum.over_quota += item.overQuota ?? 0;
    sum.failed += item.failed ?? 0;
  }
  return sum;
}

/**
 * The shares an optimised split gives its rules (docs/optimiser.md "In the product"): each split
 * rule's buckets of the newest assignment, and when the roll-up last reweighed; null for
 * a design that does not optimise.
 */
async function splitOf(
  designId: string,
  design: ReportedDesign,
): Promise<AnalyticsReport['split']> {
  if (!design.split_optimiser || optimisedRuleIds(design).length === 0) return null;
  const { data } = await db()
    .DesignSplit.get({ analyticsDesign: designId })
    .go({ attributes: ['tables', 'reweighedAt', 'collecting'] });
  // The newest assignment, also in the minute before it takes effect.
  const assignment = splitAssignment(design, data?.tables, Number.MAX_SAFE_INTEGER) ?? [];
  const ids = optimisedRuleIds(design);
  return {
    shares: ids.map((id) => {
      const rule = design.rules.find((r) => r.id === id)!;
      return {
        id,
        name: rule.name || id,
        share: assignment.filter((a) => a === id).length / Math.max(1, assignment.length),
      };
    }),
    reweighed_at: data?.reweighedAt ?? null,
    collecting: data?.collecting ?? true,
  };
}
