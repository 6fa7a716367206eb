/**
 * Fallback images served per design, hour and reason (docs/analytics.md "Fallbacks"): counted in
 * memory and flushed as one atomic ADD per design, hour and reason, every `intervalMs` or once
 * `maxPending` wait (like the view counter, service.ts `ViewCounter`). A failed write puts its
 * count back for the next flush; nothing here ever affects a render.
 */
import { logger } from '#lib/logger.ts';

/** Why a fallback was served, as the analytics report names it. */
export type FallbackReason = 'refused' | 'rate_limited' | 'over_quota' | 'failed';

/** Keys (design, hour, reason) kept at most while writes fail; new ones are dropped past it. */
const MAX_KEYS = 10_000;

/** The counts waiting, and their flushes. */
export class FallbackCounter {
  private pending = new Map<string, number>();
  private total = 0;
  private lastFlush: number;
  private flushing: Promise<void> | undefined;

  /**
   * @param write adds `n` fallbacks of `reason` to the design's `hour` (`YYYY-MM-DDTHH`, UTC).
   * @param now the clock, ms since the epoch.
   */
  constructor(
    private readonly write: (
      designId: string,
      hour: string,
      reason: FallbackReason,
      n: number,
    ) => Promise<void>,
    private readonly intervalMs = 10_000,
    private readonly maxPending = 200,
    private readonly now: () => number = Date.now,
  ) {
    this.lastFlush = this.now();
  }

  /** Counts one fallback of the design now. */
  count(designId: string, reason: FallbackReason): void {
    const hour = new Date(this.now()).toISOString().slice(0, 13);
    this.add(JSON.stringify([designId, hour, reason]), 1);
    if (
      !this.flushing &&
      (this.total >= this.maxPending || this.now() - this.lastFlush >= this.intervalMs)
    )
      void this.flush();
  }

  private add(key: string, n: number): void {
    if (!this.pending.has(key) && this.pending.size >= MAX_KEYS) return;
    this.pending.set(key, (this.pending.get(key) ?? 0) + n);
    this.total += n;
  }

  /** Writes what is pending; failed writes are put back for the next flush. */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing.then(() => this.flush());
    const batch = this.pending;
    this.pending = new Map();
    this.total = 0;
    this.lastFlush = this.now();
    this.flushing = Promise.all(
      [...batch].map(([key, n]) => {
        const [designId, hour, reason] = JSON.parse(key) as [string, string, FallbackReason];
        return this.write(designId, hour, reason, n).catch((error: unknown) => {
          logger.warn('fallback count flush failed', { designId, error: error as Error });
          this.add(key, n);
        });
      }),
    ).then(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }
}
