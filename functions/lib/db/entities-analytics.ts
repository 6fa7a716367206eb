/**
 * The roll-ups of campaign analytics (docs/analytics.md "Roll-ups"): one item per design and
 * hour, and one per design and day, computed from the CDN's log by functions/analytics/rollup.ts
 * and read by the analytics route in one query per chart.
 */
import { Entity } from 'electrodb';
import { SERVICE, type EntityKit } from './entity-kit.ts';

/** Builds these entities against one table. */
export function analyticsEntities({ opts, primary }: EntityKit) {
  /**
   * A design's counts in one period. Written whole by each roll-up of the period (a put, so a
   * roll-up run again gives the same item), never added to. `ttl` drops it after the roll-ups'
   * retention (docs/analytics.md "Privacy and retention").
   */
  const DesignAnalytics = new Entity(
    {
      model: { entity: 'designanalytics', version: '1', service: SERVICE },
      attributes: {
        /**
         * The design's id. Not `designId`, so the key (`$picsnippets#analyticsdesign_…`) is apart
         * from the design's own items: the roll-up may write these only
         * (infra/constructs/analytics.ts).
         */
        analyticsDesign: { type: 'string', required: true },
        /** The team that owned the design when the period was rolled up. */
        teamId: { type: 'string', required: true },
        /** `hour` or `day`. */
        granularity: { type: ['hour', 'day'] as const, required: true },
        /** `YYYY-MM-DDTHH` (hour) or `YYYY-MM-DD` (day), UTC. */
        period: { type: 'string', required: true },
        /** Recipients' opens the CDN saw (not through a mail proxy). */
        opens: { type: 'number', required: true },
        /** Mail proxies' fetches (each stands for an open the proxy hides). */
        proxyFetches: { type: 'number', required: true },
        /** Clicks through the design's `/l/` link. */
        clicks: { type: 'number', required: true },
        /** Of all those requests, how many the CDN's cache answered. */
        cdnHits: { type: 'number', required: true },
        /** Distinct recipients (distinct URL values) of the day's opens; day items only. */
        recipients: { type: 'number' },
        /** Opens and proxy fetches by device class, e.g. `{ mobile: 3, unknown: 2 }`. */
        devices: { type: 'any', required: true },
        /** Opens and proxy fetches by e-mail client (`gmail`, …, `other`). */
        clients: { type: 'any', required: true },
        /** Opens and proxy fetches by country (two letters; `unknown`; `other` past 60). */
        countries: { type: 'any', required: true },
        /**
         * A design with rules: impressions and clicks per variant (rule id, or `default`), e.g.
         * `{ r1: { impressions: 40, clicks: 3 }, default: { … } }` (docs/analytics.md "Variants").
         */
        variants: { type: 'any' },
        /** When this item goes, seconds since the epoch. */
        ttl: { type: 'number', required: true },
        rolledUpAt: { type: 'string', required: true },
      },
      indexes: {
        byDesignPeriod: {
          pk: { ...primary.pk, composite: ['analyticsDesign'] },
          sk: { ...primary.sk, composite: ['granularity', 'period'] },
        },
      },
    },
    opts,
  );

  /**
   * The fallback images a design's render URL served in one UTC hour, by reason, counted where
   * they are made: the render function (functions/render/fallback-counter.ts; the CDN's log
   * cannot tell a fallback from an image). Atomic ADDs from each render container's flushes.
   * Keyed by `fallbackDesign` (the design's id), so its partition (`$picsnippets#fallbackdesign_…`)
   * is apart from every other item's: the render role may update these only, and the `ttl` it
   * sets can expire only them (infra/constructs/render.ts `FALLBACK_COUNTER`).
   */
  const DesignFallbacks = new Entity(
    {
      model: { entity: 'designfallbacks', version: '1', service: SERVICE },
      attributes: {
        fallbackDesign: { type: 'string', required: true },
        /** `YYYY-MM-DDTHH`, UTC. */
        hour: { type: 'string', required: true },
        /** A signed design's URL without a valid signature. */
        refused: { type: 'number' },
        /** Past the per-address, per-proxy, per-team or per-design draw budgets. */
        rateLimited: { type: 'number' },
        /** Past the team's monthly render quota. */
        overQuota: { type: 'number' },
        /** The draw failed or ran out of time. */
        failed: { type: 'number' },
        /** When this item goes, seconds since the epoch (the roll-ups' retention). */
        ttl: { type: 'number' },
      },
      indexes: {
        byDesignHour: {
          pk: { ...primary.pk, composite: ['fallbackDesign'] },
          sk: { ...primary.sk, composite: ['hour'] },
        },
      },
    },
    opts,
  );

  /**
   * How a design that optimises its split shares its traffic (docs/optimiser.md "In the
   * product"): the bucket assignments the roll-up made, oldest first, at most 60
   * (shared/scene/optimised-split.ts `SplitTable`), and the weights of the newest. Written whole
   * by the roll-up's reweigh (functions/analytics/split-weights.ts), read by the render with the
   * design. In the design's analytics partition (`$picsnippets#analyticsdesign_…`), the only
   * one the roll-up may write.
   */
  const DesignSplit = new Entity(
    {
      model: { entity: 'designsplit', version: '1', service: SERVICE },
      attributes: {
        analyticsDesign: { type: 'string', required: true },
        teamId: { type: 'string', required: true },
        /** `{ from_ms, variants, buckets }[]`, oldest first. */
        tables: { type: 'any', required: true },
        /** The newest reweigh: `{ id, weight, probabilityBest, shown, clicks }[]` per variant. */
        weights: { type: 'any', required: true },
        /** Whether a variant was still under the minimum sample (the split stayed equal). */
        collecting: { type: 'boolean', required: true },
        /** When the newest reweigh ran, ISO 8601. */
        reweighedAt: { type: 'string', required: true },
      },
      indexes: {
        byDesign: {
          pk: { ...primary.pk, composite: ['analyticsDesign'] },
          sk: { ...primary.sk, composite: [] },
        },
      },
    },
    opts,
  );

  return { DesignAnalytics, DesignFallbacks, DesignSplit };
}
