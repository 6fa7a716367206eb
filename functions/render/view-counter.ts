/**
 * The view counter of the render service (docs/analytics.md; docs/performance.md "Opens and
 * proxy fetches"): served renders counted per design in memory and written in batches.
 */
import { logger } from '#lib/logger.ts';

/** What a served render counts as: an open, or a mail proxy's fetch (docs/performance.md). */
export type ViewKind = 'open' | 'proxy';

/**
 * Aggregates views per design and flushes them in one update per design, at most every
 * `intervalMs` or when `maxPending` views wait: no write per request (docs/infra.md "Scale plan").
 * Opens and mail proxies' fetches are kept apart (`ViewKind`; docs/performance.md "Opens and
 * proxy fetches"). Renders served by CloudFront or a mail proxy's cache never reach the origin
 * and are not counted.
 */
export class ViewCounter {
  private pending = new Map<string, { views: number; proxyFetches: number }>();
  private total = 0;
  private lastFlush = Date.now();
  private flushing: Promise<void> | undefined;

  /**
   * @param write adds `views` opens or `proxyFetches` proxy fetches to the design (one of the
   *   two per call, the other 0); a rejection puts them back for the next flush.
   */
  constructor(
    private readonly write: (
      designId: string,
      views: number,
      proxyFetches: number,
    ) => Promise<void>,
    private readonly intervalMs = 10_000,
    private readonly maxPending = 200,
  ) {}

  count(designId: string, kind: ViewKind = 'open'): void {
    this.add(designId, kind === 'open' ? 1 : 0, kind === 'proxy' ? 1 : 0);
    if (
      !this.flushing &&
      (this.total >= this.maxPending || Date.now() - this.lastFlush >= this.intervalMs)
    )
      void this.flush();
  }

  private add(designId: string, views: number, proxyFetches: number): void {
    const counts = this.pending.get(designId) ?? { views: 0, proxyFetches: 0 };
    counts.views += views;
    counts.proxyFetches += proxyFetches;
    this.pending.set(designId, counts);
    this.total += views + proxyFetches;
  }

  /** Writes what is pending; failed writes are put back for the next flush. */
  flush(): Promise<void> {
    // One flush at a time; a flush asked for meanwhile runs after it (what waits now is written).
    if (this.flushing) return this.flushing.then(() => this.flush());
    const batch = this.pending;
    this.pending = new Map();
    this.total = 0;
    this.lastFlush = Date.now();
    // One write per design and kind, so a failed one puts back only its own counts.
    const writes: Array<[string, number, number]> = [];
    for (const [designId, { views, proxyFetches }] of batch) {
      if (views > 0) writes.push([designId, views, 0]);
      if (proxyFetches > 0) writes.push([designId, 0, proxyFetches]);
    }
    this.flushing = Promise.all(
      writes.map(([designId, views, proxyFetches]) =>
        this.write(designId, views, proxyFetches).catch((error: unknown) => {
          logger.warn('view count flush failed', { designId, error: error as Error });
          this.add(designId, views, proxyFetches);
        }),
      ),
    ).then(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }
}
