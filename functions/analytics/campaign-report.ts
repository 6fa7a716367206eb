/**
 * A campaign's report (docs/analytics.md "Campaigns"): the roll-ups of the designs that carry the
 * campaign, summed as one design's report sums its periods (report.ts `rangeSums`), with each
 * design's own line.
 */
import type { AnalyticsQuery, AnalyticsReport } from '#shared/contract/analytics.ts';
import type { CampaignReport } from '#shared/contract/campaigns.ts';
import pLimit from 'p-limit';
import { emptySums, rangeSums, totalsOf, type RangeSums } from './report.ts';

/** Designs read at once. */
const CONCURRENCY = 8;

/** A design of the campaign, as its line names it. */
export interface CampaignDesign {
  designId: string;
  title: string;
  status: 'active' | 'archived';
}

/** Adds `more`'s counts into `into`, key by key. */
function addCounts(into: Record<string, number>, more: Record<string, number>): void {
  for (const [key, n] of Object.entries(more)) into[key] = (into[key] ?? 0) + n;
}

/** The series of several designs as one: periods summed, oldest first. */
function mergedSeries(all: readonly RangeSums[]): AnalyticsReport['series'] {
  const byPeriod = new Map<string, AnalyticsReport['series'][number]>();
  for (const sums of all) {
    for (const point of sums.series) {
      const into = byPeriod.get(point.period);
      if (!into) {
        byPeriod.set(point.period, { ...point });
        continue;
      }
      into.opens += point.opens;
      into.proxy_fetches += point.proxy_fetches;
      into.clicks += point.clicks;
      into.cdn_hits += point.cdn_hits;
      if (into.recipients !== null && point.recipients !== null)
        into.recipients += point.recipients;
    }
  }
  return [...byPeriod.values()].sort((a, b) => (a.period < b.period ? -1 : 1));
}

/**
 * The report of `campaign` over the query's days.
 * @param designs the campaign's designs (at most `MAX_CAMPAIGN_DESIGNS`, the caller's bound).
 * @param truncated whether the campaign had more designs than those.
 * @returns the sums, and each design's impressions, clicks and click-through rate, most
 *   impressions first (then by title).
 */
export async function campaignReport(
  campaign: string,
  designs: readonly CampaignDesign[],
  query: AnalyticsQuery,
  truncated: boolean,
): Promise<CampaignReport> {
  const limit = pLimit(CONCURRENCY);
  const all = await Promise.all(designs.map((d) => limit(() => rangeSums(d.designId, query))));
  const sum = { ...emptySums(), series: mergedSeries(all) };
  for (const one of all) {
    sum.opens += one.opens;
    sum.proxyFetches += one.proxyFetches;
    sum.clicks += one.clicks;
    sum.cdnHits += one.cdnHits;
    sum.recipients += one.recipients;
    addCounts(sum.devices, one.devices);
    addCounts(sum.clients, one.clients);
    addCounts(sum.countries, one.countries);
    addCounts(sum.fallbacks, one.fallbacks);
    if (one.rolledUpAt !== null && (sum.rolledUpAt === null || one.rolledUpAt > sum.rolledUpAt))
      sum.rolledUpAt = one.rolledUpAt;
  }
  const lines = designs.map((design, i) => {
    const { opens, proxyFetches, clicks } = all[i]!;
    const impressions = opens + proxyFetches;
    return {
      id: design.designId,
      title: design.title,
      status: design.status,
      impressions,
      clicks,
      click_through_rate: impressions > 0 ? clicks / impressions : null,
    };
  });
  lines.sort((a, b) => b.impressions - a.impressions || a.title.localeCompare(b.title));
  return {
    campaign,
    from: query.from,
    to: query.to,
    granularity: query.granularity,
    totals: totalsOf(sum),
    series: sum.series,
    devices: sum.devices,
    clients: sum.clients,
    countries: sum.countries,
    fallbacks: sum.fallbacks,
    rolled_up_at: sum.rolledUpAt,
    designs: lines,
    truncated,
  };
}
